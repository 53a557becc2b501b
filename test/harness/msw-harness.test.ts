// The app-test harness (`request-sandbox/msw`) and its browser twin (`request-sandbox/msw/browser`, which
// forwards to a running sandbox server; exercised here under node with setupServer). Both hand out the same
// HarnessTenant: its behaviour is tested through each implementation.
import { bypass } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HarnessTenant } from '../../src/harness/types.ts'
import { createTestSandbox, signWebhook, type TestSandbox } from '../../src/msw.ts'
import { createRemoteHandlers, remoteTenant } from '../../src/msw-browser.ts'
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
  // the server's deliveries go around this file's MSW interceptor, as the in-process harness's do
  server = await startServer({
    chain: false,
    webhooks: { retryDelaysMs: [100, 250, 500], fetch: (request) => fetch(bypass(request)) },
  })
  receiver = await startReceiver()
  msw = setupServer(
    ...rn.handlers,
    ...createRemoteHandlers({
      sandboxUrl: server.url,
      baseUrl: browserBase,
      headers: (): Record<string, string> => (currentKey ? { 'x-api-key': currentKey } : {}),
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
    const calls = await a.journal({ types: ['call'] })
    expect(calls.map((e) => (e.type === 'call' ? `${e.method} ${e.path}` : ''))).toEqual([
      `GET /v2/request/${requestId}`,
      'POST /v2/request',
    ])
    expect(await b.journal({ types: ['call'] })).toHaveLength(1)
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
    expect(seen).toEqual([signWebhook(delivery.body, 'f'.repeat(64))])
  })
})

const implementations: [string, () => Promise<HarnessTenant>, () => string][] = [
  ['in-process (createTestSandbox)', () => rn.tenant(), () => base],
  [
    'HTTP (remoteTenant against a running server)',
    async () => {
      currentKey = `remote-${Date.now()}-${Math.random().toString(16).slice(2)}`
      return remoteTenant(server.url, currentKey)
    },
    () => browserBase,
  ],
]

describe.each(implementations)('the harness tenant %s', (_name, newTenant, api) => {
  it('switches scenarios with use(), moves the clock and reads it back', async () => {
    const tenant = await newTenant()
    const state = await tenant.use('rate-limited')
    expect(state.rules.rateLimit).toEqual({ limit: 2, windowSeconds: 60 })
    const get = () => fetch(`${api()}/v1/currencies?id=FAU-sepolia`, { headers: tenant.headers })
    expect([(await get()).status, (await get()).status, (await get()).status]).toEqual([200, 200, 429])
    const before = await tenant.clock.now()
    const after = await tenant.clock.advance(60)
    expect(after.getTime() - before.getTime()).toBeGreaterThanOrEqual(60_000)
    expect((await get()).status).toBe(200)
    await tenant.use('default')
    expect((await tenant.scenario()).scenario).toBe('default')
  })

  it('shows events, waits for them, and delivers webhooks to a URL', async () => {
    const tenant = await newTenant()
    const hook = await tenant.webhooks.deliverTo(receiver.url)
    receiver.secret = hook.secret
    const waiting = tenant.waitForEvent('payment.partial')
    await tenant.emit('payment.partial', { requestId: 'r', amount: '1' })
    expect((await waiting).payload).toMatchObject({ event: 'payment.partial', requestId: 'r' })
    expect((await tenant.events()).map((e) => e.type)).toEqual(['payment.partial'])
    const delivered = await tenant.webhooks.waitForDelivery('payment.partial')
    expect(delivered.url).toBe(receiver.url)
    expect(receiver.received.at(-1)!.signatureValid).toBe(true)
    expect((await tenant.journal({ types: ['event', 'delivery'] })).map((e) => e.type)).toEqual([
      'delivery',
      'event',
    ])
    const [delivery] = await tenant.webhooks.deliveries()
    expect(delivery).toMatchObject({
      event: 'payment.partial',
      state: 'delivered',
      payload: { requestId: 'r' },
    })
    expect(signWebhook(delivery!.body, hook.secret)).toBe(
      receiver.received.at(-1)!.headers['x-request-network-signature'],
    )
    await tenant.reset()
    expect(await tenant.events()).toEqual([])
  })

  it('pins a webhook secret, emits through the control API and refuses bad input with a 4xx', async () => {
    const tenant = await newTenant()
    const secret = 'a'.repeat(64)
    const hook = await tenant.webhooks.deliverTo(receiver.url, { secret })
    expect(hook).toMatchObject({ url: receiver.url, secret })
    receiver.secret = secret
    await tenant.emit('compliance.updated', { clientUserId: 'u@example.com' })
    await tenant.webhooks.waitForDelivery('compliance.updated')
    expect(receiver.received.at(-1)!.signatureValid).toBe(true)
    expect((await tenant.waitForEvent('compliance.updated')).payload.clientUserId).toBe('u@example.com')
    await expect(tenant.webhooks.waitForDelivery('payment.failed', { timeoutMs: 60 })).rejects.toThrow(
      'timed out after 60 ms waiting for a delivered delivery of payment.failed',
    )
    await expect(tenant.faucet(invoice.payee, 'NOPE-sepolia', '1')).rejects.toThrow(/NOPE-sepolia/)
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
    const journal = await tenant.journal({ types: ['call'] })
    expect(journal[1]).toMatchObject({ method: 'POST', path: '/v2/request', status: 201 })
    const used = await tenant.use('service-unavailable')
    expect(used.scenario).toBe('service-unavailable')
    expect((await post(`${browserBase}/v2/request`, {}, invoice)).status).toBe(503)
    await tenant.reset()
  })
})
