// A secure payment paid through the MSW harness without a browser, as an app's test would: API calls through the
// handlers, the calldata sent by viem from a funded account, the detector completes the link, and the app's
// webhook route gets payment.confirmed and payment.confirmed.checkout, signed.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sendApiTransactions } from '../../src/chain/index.ts'
import { createTestSandbox, signWebhook, type TestSandbox } from '../../src/msw.ts'
import { freshAddress } from '../support/chain.ts'
import type { Loose } from '../support/loose.ts'

const base = 'https://app-api.example.test'
let rn: TestSandbox
let msw: ReturnType<typeof setupServer>
beforeAll(async () => {
  rn = await createTestSandbox({ baseUrl: base })
  msw = setupServer(...rn.handlers)
  msw.listen({ onUnhandledRequest: 'error' })
})
afterAll(async () => {
  msw?.close()
  await rn?.close()
})

it('creates a link, pays its calldata with viem and gets the signed checkout webhooks', async () => {
  const tenant = await rn.tenant()
  const received: { event: string; valid: boolean; body: Loose }[] = []
  const hook = await tenant.webhooks.deliverTo(async (request) => {
    const raw = await request.text()
    const valid = request.headers.get('x-request-network-signature') === signWebhook(raw, hook.secret)
    received.push({ event: JSON.parse(raw).event, valid, body: JSON.parse(raw) })
    return new Response(null, { status: 200 })
  })
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...tenant.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: res.status, body: (await res.json()) as Loose }
  }
  const created = await api('POST', '/v2/secure-payments', {
    requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount: '8' }],
    reference: 'harness-1',
  })
  expect(created.status).toBe(201)
  expect(created.body.securePaymentUrl).toMatch(
    /^https:\/\/app-api\.example\.test\/__sandbox\/secure-payment\?token=/,
  )
  const { token, requestIds } = created.body
  const payer = tenant.chain!.accounts[5]!
  const shown = await api('GET', `/v2/secure-payments/${token}`)
  expect(shown.body).toMatchObject({ status: 'pending', amount: '8', reference: 'harness-1' })
  const pay = await api('GET', `/v2/secure-payments/${token}/pay?wallet=${payer.address}`)
  expect(pay.status).toBe(200)
  await sendApiTransactions(tenant.chain!, payer.privateKey, pay.body.transactions)

  const checkout = await tenant.webhooks.waitForDelivery('payment.confirmed.checkout')
  expect(checkout.state).toBe('delivered')
  await tenant.webhooks.waitForDelivery('payment.confirmed')
  expect(received.map((r) => r.event)).toEqual(
    expect.arrayContaining(['payment.confirmed', 'payment.confirmed.checkout']),
  )
  expect(received.every((r) => r.valid)).toBe(true)
  expect(received.find((r) => r.event === 'payment.confirmed.checkout')!.body).toMatchObject({
    requestId: requestIds[0],
    securePaymentToken: token,
  })
  expect((await api('GET', `/v2/request/${requestIds[0]}`)).body.hasBeenPaid).toBe(true)
  const done = await api('GET', `/v2/secure-payments/${token}`)
  expect(done.status).toBe(409)
})
