// anvil killed under the sandbox: it is back within 2 s with the state it had (paid requests stay paid, balances
// and contracts where they were); meanwhile health says degraded and calls needing the chain answer 503, never 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StartedChain } from '../../src/chain/index.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { recurringBody } from '../support/payouts.ts'

let t: Transports
const logged: string[] = []
beforeAll(async () => {
  t = await startTransports(newApiKey, { log: (m) => logged.push(m) })
})
afterAll(async () => t?.close())

describeTransports(
  'chain supervision through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    it('restarts a killed anvil within 2 s with its state: paid stays paid, balances and blocks kept, new payments detected', async () => {
      const apiKey = newApiKey()
      const payee = freshAddress()
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '7', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee },
      })
      const requestId = created.body.requestId as string
      const status = () => client().call('GET', `/v2/request/${requestId}`, { apiKey })
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      await execute(t.sandbox, pay.body.transactions, account)
      await until(status, (r) => r.body.hasBeenPaid)
      const chain = t.sandbox.chain! as StartedChain
      const token = chain.tokens['FAU-sepolia']!
      const balance = await chain.balanceOf(token, payee)
      const block = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
      await t.sandbox.shared.supervisors.get('sepolia')!.save()

      const killedAt = performance.now()
      process.kill(chain.pid!, 'SIGKILL')
      // anvil is usually back before a call can see it down (the outage itself is tested at the end of the file)
      const { value: up } = await until(
        () => client().call('GET', '/__sandbox/health', { apiKey: null }),
        (r) => r.status === 200,
        { timeoutMs: 5000 },
      )
      expect(performance.now() - killedAt).toBeLessThan(2000 + 500)
      expect(up.body.chains[0]).toMatchObject({ network: 'sepolia', restarts: expect.any(Number) })
      expect(await chain.balanceOf(token, payee)).toBe(balance)
      expect(await chain.publicClient.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(block)
      await t.sandbox.detectors.get('sepolia')!.sync()
      expect((await status()).body).toMatchObject({ hasBeenPaid: true, status: 'paid' })

      // the chain works as before: a new request is paid and detected
      const next = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '2', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee },
      })
      const nextPay = await client().call('GET', `/v2/request/${next.body.requestId}/pay`, { apiKey })
      await execute(t.sandbox, nextPay.body.transactions, account)
      await until(
        () => client().call('GET', `/v2/request/${next.body.requestId}`, { apiKey }),
        (r) => r.body.hasBeenPaid,
      )
      expect(logged.filter((m) => m.includes('unexpected error'))).toEqual([])
      expect(
        logged.some((m) =>
          /anvil of sepolia \(pid \d+\) exited .* restarting it with the state saved at/.test(m),
        ),
      ).toBe(true)
    })
  },
)

describe('a chain that stays down', () => {
  it('answers health 503 degraded with the reason, and 503 (never 500) to calls that need the chain', async () => {
    const chain = t.sandbox.chain! as StartedChain
    // stopping the supervisor stops the anvil it restarted, and nothing brings it back
    await t.sandbox.shared.supervisors.get('sepolia')!.stop()
    expect(() => process.kill(chain.pid!, 0)).toThrow()
    for (const client of t.clients) {
      const apiKey = newApiKey()
      const health = await until(
        () => client.call('GET', '/__sandbox/health', { apiKey: null }),
        (r) => r.status === 503,
      )
      expect(health.value.body).toMatchObject({
        statusCode: 503,
        error: 'Service Unavailable',
        status: 'degraded',
        // one line: the node's error is cut at its first line, not viem's whole multi-line dump
        reason: expect.stringMatching(/^sepolia does not answer: [^\n]+$/),
      })
      // the JSON-RPC proxy too: 503 in the service's shape, not a hang or a 500
      const rpc = await client.call('POST', '/rpc', {
        apiKey: null,
        body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      })
      expect([rpc.status, rpc.body]).toEqual([
        503,
        {
          statusCode: 503,
          error: 'Service Unavailable',
          message: expect.stringMatching(/^Chain unavailable: /),
        },
      ])
      // the dashboard's transaction read: the chain is down, not the transaction unknown (503, not 404)
      const tx = await client.call('GET', `/__sandbox/transactions/0x${'ab'.repeat(32)}`, { apiKey })
      expect([tx.status, tx.body.statusCode]).toEqual([503, 503])
      const created = await client.call('POST', '/v2/request', {
        apiKey,
        body: {
          amount: '1',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee: freshAddress(),
        },
      })
      expect(created.status).toBe(201)
      const pay = await client.call('GET', `/v2/request/${created.body.requestId}/pay`, {
        apiKey,
        query: { wallet: chain.accounts[5]!.address },
      })
      expect(pay.status).toBe(503)
      expect(pay.body).toMatchObject({
        statusCode: 503,
        error: 'Service Unavailable',
        message: expect.stringMatching(/^Chain unavailable/),
      })
      // a recurring payout reads the chain (the payer's permit nonce and allowance): 503, not a 400 before it
      const payout = await client.call('POST', '/v2/payouts', {
        apiKey,
        body: recurringBody(chain.accounts[5]!.address),
      })
      expect(payout.status).toBe(503)
      expect(payout.body).toMatchObject({
        statusCode: 503,
        error: 'Service Unavailable',
        message: expect.stringMatching(/^Chain unavailable/),
      })
    }
    expect(logged.filter((m) => m.includes('unexpected error'))).toEqual([])
  })
})
