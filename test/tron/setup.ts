// The sandbox the Tron tests run against: sepolia and tron served over every transport, a webhook receiver, and the
// sandbox's Tron network as GET /__sandbox/chain lists it.
import { TronWeb } from 'tronweb'
import { afterAll, beforeAll } from 'vitest'
import { newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'
import { type TronInfo, tronInfo } from './steps.ts'

/** The started sandbox; its fields are set once the file's `beforeAll` has run. */
export interface TronSandbox {
  t: Transports
  receiver: WebhookReceiver
  tron: TronInfo
  /** A TronWeb on the sandbox's Tron node signing with `privateKey`. */
  tronWebOf: (privateKey: string) => TronWeb
}

/** Starts the sandbox (sepolia + tron) and a webhook receiver before the file's tests and closes both after. */
export function useTronSandbox(): TronSandbox {
  const sandbox = {
    tronWebOf: (privateKey: string) => new TronWeb({ fullHost: sandbox.tron.fullHost, privateKey }),
  } as TronSandbox
  beforeAll(async () => {
    ;[sandbox.t, sandbox.receiver] = await Promise.all([
      startTransports(newApiKey, { networks: ['sepolia', 'tron'] }),
      startReceiver(),
    ])
    sandbox.tron = await tronInfo(sandbox.t.server.url)
  })
  afterAll(async () => {
    await sandbox.t?.close()
    await sandbox.receiver?.close()
  })
  return sandbox
}
