// Issue 20: one key's time travel expires nothing of another's. The chains are shared and follow the furthest key's
// clock; a clock may move at most --max-clock-advance (ten years by default) past real time, and what depends on
// time is read on each key's own clock. Key A jumps as far as it may; key B's new recurring payout still runs to
// completion (its permit does not expire on the chain A moved), and B's payments are dated on B's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { fundedPayer, recurringBody, sendApiTransaction, signPermit } from '../support/payouts.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
}, 120_000)
afterAll(async () => server?.close())

const DAY = 86_400
const YEAR = 365 * DAY

async function call(method: string, path: string, apiKey: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as Loose }
}

describe('two keys, one jumping far ahead', () => {
  it('bounds the jump, and the other key’s recurring payout runs to completion, dated on its own clock', async () => {
    const a = newApiKey()
    const b = newApiKey()
    // the reproduction: 100 years (3,153,600,000 s) moved the shared chain to 2126
    const century = await call('POST', '/__sandbox/clock/advance', a, { seconds: 100 * YEAR })
    expect(century.status).toBe(400)
    expect(century.body.message).toMatch(/at most 3650 days past real time \(--max-clock-advance\)/)
    const tooFar = await call('POST', '/__sandbox/clock/advance', a, {
      to: new Date(Date.now() + 11 * YEAR * 1000).toISOString(),
    })
    expect(tooFar.status).toBe(400)
    // as far as a key may go: the chain follows it
    const jumped = await call('POST', '/__sandbox/clock/advance', a, { seconds: 10 * YEAR - 2 * DAY })
    expect(jumped.status).toBe(200)
    const chain = server.sandbox.chain!
    const head = await chain.publicClient.getBlock({ blockTag: 'latest' })
    expect(Number(head.timestamp) * 1000).toBeGreaterThan(Date.now() + 9 * YEAR * 1000)

    // key B, on today's clock: a daily payout of 3
    const fau = chain.tokens['FAU-sepolia']!
    const payer = await fundedPayer(chain, fau)
    const created = await call('POST', '/v2/payouts', b, recurringBody(payer.address))
    expect(created.status).toBe(201)
    await sendApiTransaction(chain, payer, created.body.transactions[0])
    const permitSignature = await signPermit(payer, created.body.recurringPaymentPermit)
    const activated = await call('POST', `/v2/payouts/recurring/${created.body.id}`, b, { permitSignature })
    expect(activated.status).toBe(201)
    expect((await call('POST', '/__sandbox/clock/advance', b, { seconds: 3 * DAY })).status).toBe(200)
    const status = await call('GET', `/v2/payouts/recurring/${created.body.id}`, b)
    expect(status.body).toMatchObject({ status: 'completed', processedPayments: 3 })
    expect(status.body.failureReason).toBeUndefined()
    const bNow = Date.parse((await call('GET', '/__sandbox/clock', b)).body.now)
    for (const payment of status.body.payments)
      expect(Math.abs(Date.parse(payment.timestamp) - bNow)).toBeLessThan(5 * DAY * 1000)

    // the detected payment of B's first child request is dated on B's clock too, not on the chain A moved
    await server.sandbox.detectors.get('sepolia')!.sync()
    const child = await call('GET', `/v2/request/${status.body.requests[0].requestId}`, b)
    expect(child.body.hasBeenPaid).toBe(true)
    const payments = await call('GET', `/v2/payments?requestId=${status.body.requests[0].requestId}`, b)
    expect(payments.status).toBe(200)
    const dated = JSON.stringify(payments.body).match(/"timestamp":"([^"]+)"/g) ?? []
    expect(dated.length).toBeGreaterThan(0)
    for (const entry of dated) {
      const at = Date.parse(entry.slice('"timestamp":"'.length, -1))
      expect(at).toBeLessThan(Date.now() + YEAR * 1000)
    }
  }, 120_000)
})
