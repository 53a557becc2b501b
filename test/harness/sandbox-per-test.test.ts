// A fresh sandbox per test (createTestSandbox in beforeEach, the MSW handlers reset to it): what one test does (a
// request, a payment on chain, a clock jump, a scenario, a webhook) is not seen by the next test's sandbox, though
// both tests use the same API key and the worker's one chain serves both (reverted to its start, not a new anvil).
import { setupServer } from 'msw/node'
import type { Address } from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { sendApiTransactions } from '../../src/chain/index.ts'
import { createTestSandbox, type TestSandbox } from '../../src/msw.ts'

const api = 'https://api.request.network'
/** the same key in both tests: only a fresh sandbox can make the second one see nothing of the first */
const apiKey = 'rn_test_the_same_key_in_every_test'
const server = setupServer()
let rn: TestSandbox

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(async () => {
  rn = await createTestSandbox({ baseUrl: api })
  server.resetHandlers(...rn.handlers)
}, 60_000)
afterEach(async () => {
  await rn?.close()
})
afterAll(() => server.close())

/** what the first test did and saw, for the second to look for */
const first: {
  rpcUrl?: string
  requestId?: string
  payee?: Address
  token?: Address
  payeeBefore?: bigint
  blockBefore?: bigint
} = {}

/** the answers this file reads */
interface Answer {
  requestId: string
  transactions: { to: string; data: string; value: { hex: string } }[]
}

const call = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${api}${path}`, {
    ...init,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...init.headers },
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as Answer }
}

it('one test creates a request, pays it on chain, jumps the clock a year, picks a scenario, registers a webhook', async () => {
  const tenant = await rn.tenant({ apiKey })
  const chain = rn.sandbox.chain!
  first.rpcUrl = chain.rpcUrl
  first.payee = chain.accounts[4]!.address
  first.token = chain.tokens['FAU-sepolia']!
  first.payeeBefore = await chain.balanceOf(first.token, first.payee)
  first.blockBefore = await chain.publicClient.getBlockNumber()

  const received: string[] = []
  await tenant.webhooks.deliverTo(async (request) => {
    received.push(((await request.json()) as { event: string }).event)
    return new Response(null, { status: 200 })
  })
  const created = await call('/v2/request', {
    method: 'POST',
    body: JSON.stringify({
      amount: '42',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: first.payee,
    }),
  })
  expect(created.status).toBe(201)
  first.requestId = created.body.requestId
  const payer = chain.accounts[3]!
  const pay = await call(`/v2/request/${first.requestId}/pay?wallet=${payer.address}`)
  await sendApiTransactions(chain, payer.privateKey, pay.body.transactions)
  await tenant.webhooks.waitForDelivery('payment.confirmed')
  expect(received).toContain('payment.confirmed')
  expect(await chain.balanceOf(first.token, first.payee)).toBeGreaterThan(first.payeeBefore)

  const jumped = await tenant.clock.advance(365 * 24 * 3600)
  expect(jumped.getTime()).toBeGreaterThan(Date.now() + 364 * 24 * 3600 * 1000)
  const chainTime = (await chain.publicClient.getBlock()).timestamp
  expect(Number(chainTime) * 1000).toBeGreaterThan(Date.now() + 364 * 24 * 3600 * 1000)
  expect((await call('/v2/webhook')).body).toHaveLength(1)
  await tenant.use('insufficient-funds')
  expect((await tenant.scenario()).scenario).toBe('insufficient-funds')
}, 60_000)

it("the next test's sandbox, on the same chain and with the same key, sees none of it", async () => {
  const tenant = await rn.tenant({ apiKey })
  const chain = rn.sandbox.chain!
  // the worker's chain, back at its start: not another anvil
  expect(chain.rpcUrl).toBe(first.rpcUrl)
  expect(first.requestId).toBeDefined()

  expect((await tenant.scenario()).scenario).toBe('default')
  expect((await call(`/v2/request/${first.requestId}`)).status).toBe(404)
  expect((await call('/v2/webhook')).body).toEqual([])
  expect(await tenant.events()).toEqual([])
  expect(await tenant.webhooks.deliveries()).toEqual([])
  const now = (await tenant.clock.now()).getTime()
  expect(Math.abs(now - Date.now())).toBeLessThan(60_000)

  // the payment is gone from the chain: the payee's balance and the block height are as before it
  expect(await chain.balanceOf(first.token!, first.payee!)).toBe(first.payeeBefore)
  expect(await chain.publicClient.getBlockNumber()).toBeLessThanOrEqual(first.blockBefore!)
  // and so is the clock jump: the chain's time is real time again
  const chainTime = Number((await chain.publicClient.getBlock()).timestamp) * 1000
  expect(chainTime).toBeLessThan(Date.now() + 60_000)
}, 60_000)

it('a chain that died while idle is not reused: the next sandbox starts its own', async () => {
  const chain = rn.sandbox.chain as { rpcUrl: string; pid?: number }
  await rn.close()
  process.kill(chain.pid!, 'SIGKILL')
  await new Promise((resolve) => setTimeout(resolve, 200))
  rn = await createTestSandbox({ baseUrl: api })
  server.resetHandlers(...rn.handlers)
  expect(rn.sandbox.chain!.rpcUrl).not.toBe(chain.rpcUrl)
  const tenant = await rn.tenant()
  const created = await fetch(`${api}/v2/request`, {
    method: 'POST',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '1',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: rn.sandbox.chain!.accounts[4]!.address,
    }),
  })
  expect(created.status).toBe(201)
}, 60_000)

it('stops a chain nobody takes within 5 s (a runner that gives each file its own module registry never would)', async () => {
  const chain = rn.sandbox.chain as { rpcUrl: string; pid?: number }
  await rn.close()
  const running = () => {
    try {
      process.kill(chain.pid!, 0)
      return true
    } catch {
      return false
    }
  }
  expect(running()).toBe(true)
  await new Promise((resolve) => setTimeout(resolve, 6_000))
  expect(running()).toBe(false)
  rn = await createTestSandbox({ baseUrl: api })
  server.resetHandlers(...rn.handlers)
  expect(rn.sandbox.chain!.rpcUrl).not.toBe(chain.rpcUrl)
}, 60_000)
