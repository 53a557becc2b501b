// Webhook delivery as documented (api-contract §5), checked by a receiver that verifies every signature.
// The retry schedule is shortened (the service waits 1 s, 5 s, 15 s); everything else is as in production.
// The receiver timeout is 1 s, not less: on a loaded machine a shorter one expires on answers that were on their way,
// and the retry then delivers the event twice (at-least-once delivery, as documented), which the counts below forbid.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const t = useTransports(newApiKey, {
  chain: false,
  webhooks: { retryDelaysMs: [30, 60, 90], timeoutMs: 1000 },
})
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => receiver?.close())
beforeEach(() => {
  receiver.received.length = 0
  receiver.script = []
})

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/

describeTransports(
  'webhook delivery through %s',
  () => t,
  (client) => {
    async function register(apiKey: string, url = receiver.url): Promise<string> {
      const res = await client().call('POST', '/v2/webhook', { apiKey, body: { url } })
      expect(res.status).toBe(201)
      receiver.secret = res.body.secret
      return res.body.id
    }

    it('delivers on the third attempt to a receiver that fails twice, with retry counts 0, 1, 2 in the journal', async () => {
      const apiKey = newApiKey()
      await register(apiKey)
      receiver.script = [500, 503, 200]
      await t.sandbox.control.emit(apiKey, 'payment.confirmed', {
        requestId: `01${'a'.repeat(64)}`,
        amount: '10',
      })
      const got = await receiver.waitFor(3)
      expect(got.map((r) => r.headers['x-request-network-retry-count'])).toEqual(['0', '1', '2'])
      expect(got.every((r) => r.signatureValid && r.compact)).toBe(true)
      const deliveryIds = new Set(got.map((r) => r.headers['x-request-network-delivery']))
      expect(deliveryIds.size).toBe(1)
      const [deliveryId] = deliveryIds
      expect(deliveryId).toMatch(ULID)
      expect(
        got.every((r) => r.raw === got[0]!.raw && r.headers['x-request-network-test'] === undefined),
      ).toBe(true)
      expect(got[0]!.body).toEqual({
        event: 'payment.confirmed',
        requestId: `01${'a'.repeat(64)}`,
        amount: '10',
        requestID: `01${'a'.repeat(64)}`,
      })
      const entries = await waitFor(
        () => {
          const list = t.sandbox.control.journal(apiKey, { types: ['delivery'] })
          return list.length === 3 ? list : undefined
        },
        { what: 'three journal entries', timeoutMs: 5000, intervalMs: 10 },
      )
      const viaApi = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'delivery' } })
      expect(viaApi.body.entries).toEqual(JSON.parse(JSON.stringify(entries)))
      expect(
        viaApi.body.entries.map((e: { retryCount: number; status: number; outcome: string }) => [
          e.retryCount,
          e.status,
          e.outcome,
        ]),
      ).toEqual([
        [2, 200, 'delivered'],
        [1, 503, 'retrying'],
        [0, 500, 'retrying'],
      ])
      expect(viaApi.body.entries.every((e: { deliveryId: string }) => e.deliveryId === deliveryId)).toBe(true)
      const deliveries = await client().call('GET', '/__sandbox/webhooks/deliveries', { apiKey })
      expect(deliveries.body[0]).toMatchObject({
        id: deliveryId,
        state: 'delivered',
        event: 'payment.confirmed',
      })
      expect(deliveries.body[0].attempts).toHaveLength(3)
    })

    it('gives up after 3 retries, and a redelivery sends it again with the same delivery id', async () => {
      const apiKey = newApiKey()
      await register(apiKey)
      receiver.script = [500, 500, 500, 500]
      await t.sandbox.control.emit(apiKey, 'payment.partial', { requestId: 'r-1' })
      const got = await receiver.waitFor(4)
      expect(got.map((r) => r.headers['x-request-network-retry-count'])).toEqual(['0', '1', '2', '3'])
      const deliveryId = got[0]!.headers['x-request-network-delivery'] as string
      await waitFor(() => (t.sandbox.control.deliveries(apiKey)[0]?.state === 'failed' ? true : undefined), {
        what: 'failed',
        timeoutMs: 5000,
        intervalMs: 10,
      })
      await new Promise((r) => setTimeout(r, 150))
      expect(receiver.received).toHaveLength(4)
      const redelivered = await client().call('POST', `/__sandbox/webhooks/${deliveryId}/redeliver`, {
        apiKey,
      })
      expect(redelivered.status).toBe(202)
      expect(redelivered.body).toMatchObject({
        id: deliveryId,
        state: 'pending',
        payload: { event: 'payment.partial' },
      })
      const [again] = (await receiver.waitFor(5)).slice(4)
      expect(again!.headers['x-request-network-delivery']).toBe(deliveryId)
      expect(again!.headers['x-request-network-retry-count']).toBe('0')
      expect(again!.signatureValid).toBe(true)
      await waitFor(
        () => (t.sandbox.control.deliveries(apiKey)[0]?.state === 'delivered' ? true : undefined),
        { what: 'delivered', timeoutMs: 5000, intervalMs: 10 },
      )
      const other = await client().call('POST', `/__sandbox/webhooks/${deliveryId}/redeliver`, {
        apiKey: newApiKey(),
      })
      expect(other.status).toBe(404)
      expect(other.body).toEqual({ statusCode: 404, message: 'Delivery not found', error: 'Not Found' })
    })

    it('retries a receiver that times out or refuses connections', async () => {
      const apiKey = newApiKey()
      await register(apiKey)
      receiver.script = ['hang', 200]
      await t.sandbox.control.emit(apiKey, 'payment.failed', { requestId: 'r-2' })
      await receiver.waitFor(2)
      const record = await waitFor(
        () => {
          const d = t.sandbox.control.deliveries(apiKey)[0]
          return d?.state === 'delivered' ? d : undefined
        },
        { what: 'delivered', timeoutMs: 5000, intervalMs: 10 },
      )
      expect(record.attempts[0]).toMatchObject({
        retryCount: 0,
        status: null,
        error: 'timed out after 1000 ms',
      })
      expect(record.attempts[1]).toMatchObject({ retryCount: 1, status: 200, error: null })

      const down = newApiKey()
      await register(down, 'http://127.0.0.1:9/unreachable')
      await t.sandbox.control.emit(down, 'payment.failed', { requestId: 'r-3' })
      const failed = await waitFor(
        () => {
          const d = t.sandbox.control.deliveries(down)[0]
          return d?.state === 'failed' ? d : undefined
        },
        { what: 'failed', timeoutMs: 5000, intervalMs: 10 },
      )
      expect(failed.attempts).toHaveLength(4)
      expect(failed.attempts.every((a) => a.status === null && a.error !== null)).toBe(true)
    })

    it('signs every test event exactly over the compact bytes it sends, with requestId and requestID', async () => {
      const apiKey = newApiKey()
      await register(apiKey)
      for (const eventType of WEBHOOK_EVENT_TYPES) {
        const res = await client().call('POST', '/v2/webhook/test', { apiKey, body: { eventType } })
        expect(res.status, eventType).toBe(201)
      }
      const got = await receiver.waitFor(WEBHOOK_EVENT_TYPES.length)
      expect(got.map((r) => r.body.event).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort())
      for (const r of got) {
        expect(r.signatureValid, r.body.event).toBe(true)
        expect(r.compact, r.body.event).toBe(true)
        expect(r.headers['x-request-network-test']).toBe('true')
        expect(r.headers['content-type']).toBe('application/json')
        if (r.body.event.startsWith('payment.') || r.body.event === 'request.recurring') {
          expect(r.body.requestId, r.body.event).toBe(r.body.requestID)
          expect(r.body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/)
        }
      }
      const confirmed = got.find((r) => r.body.event === 'payment.confirmed')!.body
      expect(Object.keys(confirmed)).toEqual(
        expect.arrayContaining([
          'explorer',
          'amount',
          'totalAmountPaid',
          'expectedAmount',
          'timestamp',
          'txHash',
          'payerAddress',
          'payerEoaAddress',
          'network',
          'currency',
          'paymentCurrency',
          'isCryptoToFiat',
          'subStatus',
          'paymentProcessor',
          'fees',
        ]),
      )
      const compliance = got.find((r) => r.body.event === 'compliance.updated')!.body
      expect(compliance).toMatchObject({
        kycStatus: 'approved',
        agreementStatus: 'completed',
        isCompliant: true,
      })
    })

    it("delivers a key's events only to that key's webhooks", async () => {
      const alice = newApiKey()
      const bob = newApiKey()
      await register(bob, `${receiver.url}?for=bob`)
      await register(alice, `${receiver.url}?for=alice`)
      await t.sandbox.control.emit(alice, 'request.recurring', {
        requestId: 'child',
        originalRequestId: 'parent',
      })
      const [got] = await receiver.waitFor(1)
      await new Promise((r) => setTimeout(r, 100))
      expect(receiver.received).toHaveLength(1)
      expect(got!.path).toBe('/webhook?for=alice')
      expect(t.sandbox.control.deliveries(bob)).toEqual([])
    })

    it("keeps a receiver's headers and the first 1024 characters of its body, also of a body that never ends", async () => {
      const server = createServer((req, res) => {
        req.resume()
        res.writeHead(500, { 'content-type': 'text/plain', 'x-why': 'down' })
        if (req.url === '/long') res.end('a'.repeat(3000))
        else res.write('partial answer') // never ended
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const port = (server.address() as AddressInfo).port
      try {
        for (const [path, body] of [
          ['/long', 'a'.repeat(1024)],
          ['/open', 'partial answer'],
        ] as const) {
          const apiKey = newApiKey()
          await register(apiKey, `http://127.0.0.1:${port}${path}`)
          await t.sandbox.control.emit(apiKey, 'payment.failed', { requestId: 'r-answer' })
          const attempt = await waitFor(() => t.sandbox.control.deliveries(apiKey)[0]?.attempts[0], {
            what: `the first attempt to ${path}`,
            timeoutMs: 5000,
            intervalMs: 10,
          })
          expect(attempt).toMatchObject({ status: 500, error: null, response: { body } })
          expect(attempt.response?.headers['x-why']).toBe('down')
        }
      } finally {
        server.closeAllConnections()
        server.close()
      }
    })
  },
)
