// /openapi.json is whole: where the service's documents give an answer no schema (the recurring payout's GET, POST
// and PATCH /v2/payouts/recurring/{id}: examples only) or no example (the webhook test endpoints: an empty schema),
// the sandbox writes its own from what it answers and marks it (`x-sandbox-schema`, `x-sandbox-example`). The
// sandbox's real answers, through both transports, are then held to those schemas (JSON Schema 2020-12).
import { Ajv2020 } from 'ajv/dist/2020.js'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { signPermit } from '../support/payouts.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const t = useTransports()
afterAll(async () => receiver?.close())

type Json = Record<string, unknown>
let document: { paths: Record<string, Record<string, { responses: Record<string, Json> }>> }
const ajv = new Ajv2020({ strict: false, allErrors: true })

let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
  const res = await fetch(`${t.server.url}/openapi.json`)
  document = (await res.json()) as typeof document
})

/** The media type of a success answer in /openapi.json. */
const media = (method: string, path: string, status: number) =>
  (document.paths[path]![method]!.responses[String(status)]!.content as Json)['application/json'] as Json

/** Holds `body` to the schema /openapi.json gives the answer. */
function expectMatches(method: string, path: string, status: number, body: unknown) {
  const validate = ajv.compile(media(method, path, status).schema as Json)
  expect(
    validate(body),
    `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(validate.errors)}`,
  ).toBe(true)
}

const RECURRING = '/v2/payouts/recurring/{id}'
const WEBHOOK_TESTS = ['/v1/webhook/test', '/v2/webhook/test', '/v2/request-tech/test']

it('gives the recurring payout routes a schema and the webhook tests an example, each marked as the sandbox’s', () => {
  for (const [method, status] of [
    ['get', 200],
    ['post', 201],
    ['patch', 200],
  ] as const) {
    const m = media(method, RECURRING, status)
    expect(Object.keys(m.schema as Json).length, `${method} ${RECURRING}`).toBeGreaterThan(0)
    expect(m['x-sandbox-schema']).toMatch(/sandbox's/)
    // a schema that refuses what the sandbox does not answer
    expect(ajv.compile(m.schema as Json)({ status: 'active' })).toBe(false)
    // the documents' own example is kept, and not marked
    expect(m.example).toBeDefined()
    expect(m['x-sandbox-example']).toBeUndefined()
  }
  for (const path of WEBHOOK_TESTS) {
    const m = media('post', path, 201)
    expect(m.schema).toMatchObject({ required: ['deliveryIds'] })
    expect(m['x-sandbox-schema']).toMatch(/sandbox's/)
    expect(m.example).toEqual({ deliveryIds: [expect.any(String)] })
    expect(m['x-sandbox-example']).toMatch(/sandbox's/)
    expect(ajv.compile(m.schema as Json)({ deliveryIds: [] })).toBe(false)
  }
  // the orchestrators' test endpoint (a page's operation, orchestrators/webhooks.mdx): the page's answer as example
  expect(media('post', '/v2/orchestrators/webhooks/test', 201).example).toEqual({ sent: 1, failed: 0 })
})

describeTransports(
  'the sandbox’s answers to its own schemas through %s',
  () => t,
  (client) => {
    const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
    const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

    it('answers the recurring payout routes as their schemas say: pending, active, paused, unpaused, cancelled', async () => {
      const apiKey = newApiKey()
      const call = (method: string, path: string, body?: unknown) =>
        client().call(method, path, { apiKey, ...(body === undefined ? {} : { body }) })
      // a payer with no token: the first payment fails and the payout pauses
      const account = privateKeyToAccount(generatePrivateKey())
      const created = await call('POST', '/v2/payouts', {
        payee,
        amount: '10',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        recurrence: { startDate: tomorrow(), frequency: 'DAILY', totalPayments: 3, payer: account.address },
      })
      expect(created.status).toBe(201)
      const path = `/v2/payouts/recurring/${created.body.id}`
      const pending = await call('GET', path)
      expectMatches('get', RECURRING, 200, pending.body)
      const activated = await call('POST', path, {
        permitSignature: await signPermit(account, created.body.recurringPaymentPermit),
      })
      expect(activated.status).toBe(201)
      expectMatches('post', RECURRING, 201, activated.body)
      const active = await call('GET', path)
      expect(active.body.status).toBe('active')
      expectMatches('get', RECURRING, 200, active.body)
      await call('POST', '/__sandbox/clock/advance', { seconds: 2 * 86_400 })
      const paused = await waitFor(async () => {
        const res = await call('GET', path)
        return res.body.status === 'paused' ? res : undefined
      })
      expect(paused.body).toHaveProperty('failureReason')
      expectMatches('get', RECURRING, 200, paused.body)
      const unpaused = await call('PATCH', path, { action: 'unpause' })
      expect([unpaused.status, unpaused.body.status]).toEqual([200, 'active'])
      expectMatches('patch', RECURRING, 200, unpaused.body)
      const cancelled = await call('PATCH', path, { action: 'cancel' })
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled'])
      expectMatches('patch', RECURRING, 200, cancelled.body)
      expectMatches('get', RECURRING, 200, (await call('GET', path)).body)
    })

    it('answers the webhook test endpoints as their schema says', async () => {
      const apiKey = newApiKey()
      const hook = await client().call('POST', '/v2/webhook', {
        apiKey,
        body: { url: receiver.url },
      })
      expect(hook.status).toBe(201)
      for (const path of ['/v1/webhook/test', '/v2/webhook/test']) {
        const res = await client().call('POST', path, { apiKey, body: { eventType: 'payment.confirmed' } })
        expect(res.status).toBe(201)
        expectMatches('post', path, 201, res.body)
      }
      const orchestrator = { 'x-orchestrator-key': `orc_${newApiKey()}` }
      const endpoint = await client().call('POST', '/v2/orchestrators/webhooks', {
        apiKey: null,
        headers: orchestrator,
        body: { url: `${receiver.url}/orchestrator` },
      })
      expect(endpoint.status).toBe(201)
      const tested = await client().call('POST', '/v2/orchestrators/webhooks/test', {
        apiKey: null,
        headers: orchestrator,
        body: { eventType: 'client_id.linked' },
      })
      expect([tested.status, tested.body]).toEqual([201, { sent: 1, failed: 0 }])
      expectMatches('post', '/v2/orchestrators/webhooks/test', 201, tested.body)
    })
  },
)
