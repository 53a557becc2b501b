// The app-test harness (`request-sandbox/msw`) and its browser twin (`request-sandbox/msw/browser`, which
// forwards to a running sandbox server; exercised here under node with setupServer).
import { bypass } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestSandbox, type TestSandbox } from '../../src/msw.ts'
import { createRemoteHandlers, remoteTenant } from '../../src/msw-browser.ts'
import { requestState } from '../../src/resources/requests/state.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const base = 'https://rn.example.test/api'
const browserBase = 'https://browser.example.test'
let rn: TestSandbox
let server: RunningServer
let receiver: WebhookReceiver
let currentKey = ''
let msw: ReturnType<typeof setupServer>

beforeAll(async () => {
  rn = await createTestSandbox({ baseUrl: base, chain: false })
  server = await startServer({ chain: false })
  receiver = await startReceiver()
  msw = setupServer(
    ...rn.handlers,
    ...createRemoteHandlers({
      sandboxUrl: server.url,
      baseUrl: browserBase,
      headers: () => ({ 'x-api-key': currentKey }),
    }),
  )
  msw.listen({ onUnhandledRequest: 'error' })
})
afterAll(async () => {
  msw?.close()
  await receiver?.close()
  await server?.close()
  await rn?.close()
})

const invoice = {
  amount: '5',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}
const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('the MSW test harness', () => {
  it('hands each test a tenant of its own, with the API served under the base URL (path prefix kept)', async () => {
    const a = await rn.tenant()
    const b = await rn.tenant()
    expect(a.apiKey).not.toBe(b.apiKey)
    const created = await post(`${base}/v2/request`, a.headers, invoice)
    expect(created.status).toBe(201)
    const { requestId } = (await created.json()) as { requestId: string }
    expect((await fetch(`${base}/v2/request/${requestId}`, { headers: a.headers })).status).toBe(200)
    expect((await fetch(`${base}/v2/request/${requestId}`, { headers: b.headers })).status).toBe(404)
    expect(requestState(await a.world()).requests.size).toBe(1)
  })

  it('switches scenarios with use(), moves the clock and reads it back', async () => {
    const tenant = await rn.tenant()
    const state = await tenant.use('rate-limited')
    expect(state.rules.rateLimit).toEqual({ limit: 2, windowSeconds: 60 })
    const get = () => fetch(`${base}/v1/currencies?id=FAU-sepolia`, { headers: tenant.headers })
    expect([(await get()).status, (await get()).status, (await get()).status]).toEqual([200, 200, 429])
    const before = await tenant.clock.now()
    const after = await tenant.clock.advance(60)
    expect(after.getTime() - before.getTime()).toBeGreaterThanOrEqual(60_000)
    expect((await get()).status).toBe(200)
    await tenant.use('default')
    expect((await tenant.scenario()).scenario).toBe('default')
  })

  it('shows events, waits for them, and delivers webhooks to a URL', async () => {
    const tenant = await rn.tenant()
    const hook = await tenant.webhooks.deliverTo(receiver.url)
    receiver.secret = hook.secret
    const waiting = tenant.waitForEvent('payment.partial')
    await tenant.emit('payment.partial', { requestId: 'r', amount: '1' })
    expect((await waiting).payload).toMatchObject({ event: 'payment.partial', requestId: 'r' })
    expect((await tenant.events()).map((e) => e.type)).toEqual(['payment.partial'])
    const delivered = await tenant.webhooks.waitForDelivery('payment.partial')
    expect(delivered.url).toBe(receiver.url)
    expect(receiver.received.at(-1)!.signatureValid).toBe(true)
    expect(tenant.journal({ types: ['event', 'delivery'] }).map((e) => e.type)).toEqual(['delivery', 'event'])
    tenant.reset()
    expect(await tenant.events()).toEqual([])
  })

  it('can pin a secret for an in-process webhook route (an app configured before the test runs)', async () => {
    const tenant = await rn.tenant()
    const seen: string[] = []
    await tenant.webhooks.deliverTo(
      async (request) => {
        seen.push(request.headers.get('x-request-network-signature')!)
        return new Response(null, { status: 204 })
      },
      { secret: 'f'.repeat(64) },
    )
    await tenant.emit('compliance.updated', { clientUserId: 'u@example.com' })
    const delivery = await tenant.webhooks.waitForDelivery('compliance.updated')
    const { signWebhook } = await import('../../src/msw.ts')
    expect(seen).toEqual([signWebhook(delivery.body, 'f'.repeat(64))])
  })
})

describe('the browser handlers (forwarding to a running sandbox)', () => {
  it('answer the app from the server with the test key, and drive it through the control API', async () => {
    currentKey = `browser-${Date.now()}`
    const tenant = remoteTenant(server.url, currentKey)
    const created = await post(`${browserBase}/v2/request`, {}, invoice)
    expect(created.status).toBe(201)
    const { requestId } = (await created.json()) as { requestId: string }
    const direct = await fetch(bypass(`${server.url}/v2/request/${requestId}`, { headers: tenant.headers }))
    expect(direct.status).toBe(200)
    const journal = await tenant.journal('type=call')
    expect(journal.entries[1]).toMatchObject({ method: 'POST', path: '/v2/request', status: 201 })
    const used = await tenant.use('service-unavailable')
    expect(used.scenario).toBe('service-unavailable')
    expect((await post(`${browserBase}/v2/request`, {}, invoice)).status).toBe(503)
    await tenant.reset()
  })
})
