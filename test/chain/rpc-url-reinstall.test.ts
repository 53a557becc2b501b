// With --rpc-url, a dev node reset under the sandbox (restarted from scratch) loses the contracts: health says so
// (503 degraded), the sandbox installs them again, and payments work and are detected as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilProcess, spawnAnvil } from '../../src/chain/anvil.ts'
import { hasCode } from '../../src/chain/index.ts'
import { createAndPay, freshAddress, until, untilPaid } from '../support/chain.ts'
import { newApiKey, startTransports, type Transports } from '../support/clients.ts'

const SEPOLIA = 11155111
let anvil: AnvilProcess
let t: Transports
const logged: string[] = []
beforeAll(async () => {
  anvil = await spawnAnvil({ chainId: SEPOLIA })
  t = await startTransports(newApiKey, { chain: { rpcUrl: anvil.rpcUrl }, log: (m) => logged.push(m) })
})
afterAll(async () => {
  await t?.close()
  await anvil?.stop()
})

describe('a dev node reset under --rpc-url', () => {
  it('is reported degraded, gets the contracts again, and payments are detected as before', async () => {
    const client = t.clients.find((c) => c.transport === 'http')!
    const chain = t.sandbox.chain!
    const port = Number(new URL(anvil.rpcUrl).port)
    await anvil.stop()
    anvil = await spawnAnvil({ chainId: SEPOLIA, port })
    expect(await hasCode(chain, chain.contracts.ERC20FeeProxy!)).toBe(false)
    const seen = await client.call('GET', '/__sandbox/health', { apiKey: null })
    if (seen.status === 503)
      expect(seen.body).toMatchObject({
        status: 'degraded',
        reason: expect.stringMatching(/ERC20FeeProxy|lost the contracts/),
      })

    await until(
      () => client.call('GET', '/__sandbox/health', { apiKey: null }),
      (r) => r.status === 200,
      { timeoutMs: 15_000 },
    )
    expect(await hasCode(chain, chain.contracts.ERC20FeeProxy!)).toBe(true)
    expect(logged.some((m) => /lost the contracts/.test(m))).toBe(true)

    const apiKey = newApiKey()
    const { requestId } = await createAndPay(
      t.sandbox,
      client,
      apiKey,
      { amount: '3', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee: freshAddress() },
      2,
    )
    await untilPaid(client, apiKey, requestId, { timeoutMs: 10_000 })
  })
})
