// Webhooks as the guides manage them (api-reference/webhooks.mdx "Webhook Configuration", use-cases/quickstart.mdx
// "Creating a webhook"): /v1/webhook with x-client-id, each webhook scoped to the client ID that created it (its
// events only), the secret returned once at creation and never listed, and a test send for every documented type.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { EVENT_TYPES } from '../../src/contract/events.ts'
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/index.ts'
import { execute, freshAddress, untilPaid } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { until, waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

let t: Transports
let receiver: WebhookReceiver
beforeAll(async () => {
  t = await startTransports()
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await t?.close()
})

const shop = 'https://shop.example.com'

describeTransports(
  'webhooks managed with x-client-id through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    const clientId = async (apiKey: string, label: string) => {
      const res = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label, allowedDomains: [shop] },
      })
      expect(res.status).toBe(201)
      return { apiKey: null, headers: { 'x-client-id': res.body.clientId as string, origin: shop } }
    }

    it('registers per client ID, shows the secret once, and keeps other client IDs out', async () => {
      const apiKey = newApiKey()
      const [a, b] = [await clientId(apiKey, 'a'), await clientId(apiKey, 'b')]
      const stranger = await clientId(newApiKey(), 'c')
      const created = await client().call('POST', '/v1/webhook', { ...a, body: { url: receiver.url } })
      expect(created.status).toBe(201)
      expect(Object.keys(created.body).sort()).toEqual(['id', 'secret'])
      expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/)
      const listed = await client().call('GET', '/v1/webhook', a)
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual([
        expect.objectContaining({ id: created.body.id, url: receiver.url, isActive: true }),
      ])
      expect(listed.body[0]).not.toHaveProperty('secret')
      expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
      for (const other of [b, stranger]) {
        expect((await client().call('GET', '/v1/webhook', other)).body).toEqual([])
        expect((await client().call('PUT', `/v1/webhook/${created.body.id}`, other)).status).toBe(404)
        expect((await client().call('DELETE', `/v1/webhook/${created.body.id}`, other)).status).toBe(404)
        const test = await client().call('POST', '/v1/webhook/test', {
          ...other,
          body: { eventType: 'payment.confirmed' },
        })
        expect(test.status).toBe(404)
      }
      // the account (its API key) manages every webhook of its client IDs
      const account = await client().call('GET', '/v1/webhook', { apiKey })
      expect(account.body.map((w: { id: string }) => w.id)).toEqual([created.body.id])
      // the same URL twice for one client ID is refused, for another client ID accepted
      expect((await client().call('POST', '/v1/webhook', { ...a, body: { url: receiver.url } })).status).toBe(
        400,
      )
      expect((await client().call('POST', '/v1/webhook', { ...b, body: { url: receiver.url } })).status).toBe(
        201,
      )
      const toggled = await client().call('PUT', `/v1/webhook/${created.body.id}`, a)
      expect(toggled.status).toBe(200)
      expect((await client().call('GET', '/v1/webhook', a)).body[0].isActive).toBe(false)
      expect((await client().call('DELETE', `/v1/webhook/${created.body.id}`, a)).status).toBe(200)
      expect((await client().call('GET', '/v1/webhook', a)).body).toEqual([])
      // a missing Origin for a browser client ID: 403, as everywhere
      const noOrigin = await client().call('GET', '/v1/webhook', {
        apiKey: null,
        headers: { 'x-client-id': a.headers['x-client-id'] },
      })
      expect(noOrigin.status).toBe(403)
    })

    it('sends a signed test delivery for every documented event type, secure_payment.access_rejected included', async () => {
      const apiKey = newApiKey()
      const a = await clientId(apiKey, 'a')
      // every event an account or client-ID webhook receives; the orchestrators' own events (orchestrator webhooks)
      // and the sandbox's commerce-payment events (no documented payload) are tested elsewhere
      const accountEvents = EVENT_TYPES.filter(
        (type) =>
          !type.startsWith('commerce_payment.') &&
          type !== 'client_id.linked' &&
          type !== 'kyt.screening.completed',
      )
      expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...accountEvents].sort())
      const created = await client().call('POST', '/v1/webhook', { ...a, body: { url: receiver.url } })
      receiver.secret = created.body.secret
      receiver.received.length = 0
      for (const eventType of WEBHOOK_EVENT_TYPES) {
        const res = await client().call('POST', '/v1/webhook/test', { ...a, body: { eventType } })
        expect(res.status, eventType).toBe(201)
        expect(res.body.deliveryIds, eventType).toHaveLength(1)
      }
      // this webhook's deliveries (signed with its secret): the receiver is shared, a previous test's real events
      // (the other transport's requests being paid) may still arrive
      const got = await waitFor(
        () => {
          const mine = receiver.received.filter((r) => r.signatureValid)
          return mine.length >= WEBHOOK_EVENT_TYPES.length ? mine : undefined
        },
        { timeoutMs: 10_000, intervalMs: 10 },
      )
      expect(got.map((r) => r.body.event).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort())
      for (const r of got) {
        expect(r.signatureValid, r.body.event).toBe(true)
        expect(r.headers['x-request-network-test']).toBe('true')
      }
      const body = (type: string) => got.find((r) => r.body.event === type)!.body
      expect(body('secure_payment.access_rejected')).toMatchObject({
        requestId: expect.any(String),
        attemptedPayerWalletAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        timestamp: expect.any(String),
      })
      expect(body('secure_payment.user_event')).toMatchObject({
        userEvent: 'payment_approved_in_wallet',
        securePaymentToken: expect.any(String),
        requestIds: expect.any(Array),
        properties: { wallet_address_hashed: expect.stringMatching(/^[0-9a-f]{64}$/) },
      })
      expect(body('payment.confirmed.client_id')).toMatchObject({
        clientId: expect.any(String),
        origin: shop,
      })
      expect(body('payment.partial.checkout')).toMatchObject({ securePaymentToken: expect.any(String) })
    })

    it('delivers a client ID’s webhook the events of its own requests only; the account’s webhook gets all', async () => {
      const apiKey = newApiKey()
      const [a, b] = [await clientId(apiKey, 'a'), await clientId(apiKey, 'b')]
      const hookA = await client().call('POST', '/v1/webhook', { ...a, body: { url: `${receiver.url}/a` } })
      const hookAll = await client().call('POST', '/v1/webhook', {
        apiKey,
        body: { url: `${receiver.url}/all` },
      })
      const pay = async (as: typeof a) => {
        const created = await client().call('POST', '/v2/request', {
          ...as,
          body: {
            amount: '1',
            invoiceCurrency: 'FAU-sepolia',
            paymentCurrency: 'FAU-sepolia',
            payee: freshAddress(),
          },
        })
        expect(created.status).toBe(201)
        const calldata = await client().call('GET', `/v2/request/${created.body.requestId}/pay`, { apiKey })
        await execute(t.sandbox, calldata.body.transactions, account)
        await untilPaid(client(), apiKey, created.body.requestId)
        return created.body.requestId as string
      }
      const ofA = await pay(a)
      const ofB = await pay(b)
      const { value: deliveries } = await until(
        async () => t.sandbox.control.deliveries(apiKey),
        (list) => list.filter((d) => d.event.startsWith('payment.confirmed')).length >= 6,
      )
      const to = (hook: string, requestId: string) =>
        deliveries
          .filter((d) => d.webhookId === hook && JSON.parse(d.body).requestId === requestId)
          .map((d) => d.event)
          .sort()
      expect(to(hookA.body.id, ofA)).toEqual(['payment.confirmed', 'payment.confirmed.client_id'])
      expect(to(hookA.body.id, ofB)).toEqual([])
      expect(to(hookAll.body.id, ofA)).toEqual(['payment.confirmed', 'payment.confirmed.client_id'])
      expect(to(hookAll.body.id, ofB)).toEqual(['payment.confirmed', 'payment.confirmed.client_id'])
    })
  },
)
