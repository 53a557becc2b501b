// The sandbox the orchestrator API tests run against (both transports, no chain, a webhook receiver) and the calls
// they share: as an orchestrator key, a platform's client ID made with its API key, a direct link with its consent.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect } from 'vitest'
import { type ApiClient, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { SHOP_ORIGIN } from '../support/orchestrator-fees.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

/** The started sandbox and receiver; set once the file's `beforeAll` has run. */
export interface OrchestratorSandbox {
  t: Transports
  receiver: WebhookReceiver
  /** The first delivery the receiver got on `path` (10 s at most). */
  deliveryTo(path: string): Promise<WebhookReceiver['received'][number]>
}

/** Starts the sandbox (no chain) and a webhook receiver before the file's tests and closes both after. */
export function useOrchestratorSandbox(): OrchestratorSandbox {
  const sandbox = {
    deliveryTo: (path: string) =>
      waitFor(() => sandbox.receiver.received.find((r) => r.path === path), {
        timeoutMs: 10_000,
        intervalMs: 10,
      }),
  } as OrchestratorSandbox
  beforeAll(async () => {
    sandbox.t = await startTransports(newApiKey, { chain: false })
    sandbox.receiver = await startReceiver()
  })
  afterAll(async () => {
    await sandbox.receiver?.close()
    await sandbox.t?.close()
  })
  return sandbox
}

export const newOrchestratorKey = () => `orc_test_${randomBytes(8).toString('hex')}`
export const wallet = () => `0x${randomBytes(20).toString('hex')}`
/** The origin a platform's client ID allows. */
export const ORIGIN = SHOP_ORIGIN

/** The calls of the orchestrator tests through `client`. */
export function orchestratorCalls(client: () => ApiClient) {
  /** A call with the orchestrator key `key` and no API key. */
  const orc = (key: string, method: string, path: string, body?: unknown, query?: Record<string, string>) =>
    client().call(method, path, {
      apiKey: null,
      headers: { 'x-orchestrator-key': key },
      ...(body !== undefined ? { body } : {}),
      ...(query ? { query } : {}),
    })
  /** The API key that made each client ID (its owner: a direct link needs it). */
  const ownerOf = new Map<string, string>()
  /** A platform's client ID (made with its API key). */
  const platformClientId = async (apiKey = newApiKey(), allowedDomains = [ORIGIN]) => {
    const res = await client().call('POST', '/v2/client-ids', {
      apiKey,
      body: { label: 'Platform', allowedDomains },
    })
    expect(res.status).toBe(201)
    ownerOf.set(res.body.clientId, apiKey)
    return res.body.clientId as string
  }
  /** A direct link, with the client ID's owner's consent (its API key beside the orchestrator key). */
  const link = (key: string, clientId: string, owner = ownerOf.get(clientId) ?? null) =>
    client().call('POST', '/v2/orchestrators/client-ids', {
      apiKey: owner,
      headers: { 'x-orchestrator-key': key },
      body: { clientId },
    })
  return { orc, platformClientId, link }
}
