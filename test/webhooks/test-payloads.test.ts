// Test sends (POST /v2/webhook/test) carry every field a receiver of the real event reads: for each event type,
// the delivered test body has every key (nested keys included) that the sandbox's own event of that type has.
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type DetectedPayment,
  paymentEventPayload,
  requestState,
} from '../../src/resources/requests/index.ts'
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/index.ts'
import { type ApiClient, describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { createPayer, usBankDetails } from '../support/compliance.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const t = useTransports(newApiKey, { chain: false })
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => receiver?.close())

/** Every key of a payload as a dotted path (objects are walked, arrays by their first item). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], `${prefix}[]`) : []
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k
    return [path, ...keyPaths(v, path)]
  })
}

/** Fields the documents give for events the sandbox has no cheap way to produce here (api-contract §5). */
const documented: Record<string, string[]> = {
  'payment.failed': [
    'requestId',
    'requestID',
    'paymentReference',
    'subStatus',
    'paymentProcessor',
    'timestamp',
  ],
  'payment.processing': [
    'requestId',
    'requestID',
    'paymentReference',
    'offrampId',
    'timestamp',
    'subStatus',
    'paymentProcessor',
    'rawPayload',
    'rawPayload.txHash',
  ],
  'payment.refunded': [
    'requestId',
    'requestID',
    'paymentReference',
    'refundedTo',
    'refundAmount',
    'timestamp',
    'txHash',
  ],
}

// the variants and secure-payment events of api-reference/webhooks.mdx (its payload examples and field lists)
const paymentFields = [
  'requestId',
  'requestID',
  'paymentReference',
  'amount',
  'totalAmountPaid',
  'expectedAmount',
  'txHash',
  'payerAddress',
  'payerEoaAddress',
  'payee',
  'timestamp',
]
documented['payment.confirmed.client_id'] = [...paymentFields, 'clientId', 'origin']
documented['payment.partial.client_id'] = [...paymentFields, 'clientId', 'origin']
documented['payment.confirmed.checkout'] = [...paymentFields, 'securePaymentToken']
documented['payment.partial.checkout'] = [...paymentFields, 'securePaymentToken']
documented['secure_payment.user_event'] = [
  'userEvent',
  'securePaymentToken',
  'requestId',
  'requestIds',
  'orchestratorId',
  'occurredAt',
  'timestamp',
  'properties',
  'properties.wallet_address_hashed',
  'properties.payment_submission_id',
]
documented['secure_payment.access_rejected'] = [
  'requestId',
  'attemptedPayerWalletAddress',
  'timestamp',
  'event',
]

/** Real events of the key: request.recurring, compliance.updated, payment_detail.updated through the API. */
async function realEvents(client: ApiClient, apiKey: string) {
  const call = (method: string, path: string, body?: unknown) =>
    client.call(method, path, { apiKey, ...(body === undefined ? {} : { body }) })
  await call('POST', '/v2/request', {
    amount: '10',
    invoiceCurrency: 'USD',
    paymentCurrency: 'ETH-sepolia-sepolia',
    payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    reference: 'INV-1',
    recurrence: { startDate: new Date().toISOString().slice(0, 10), frequency: 'DAILY' },
  })
  await call('POST', '/__sandbox/clock/advance', { seconds: 86_400 })
  await createPayer(client, apiKey)
  const clientUserId = encodeURIComponent('john.doe@example.com')
  expect((await call('PATCH', `/v2/payer/${clientUserId}`, { agreementCompleted: true })).status).toBe(200)
  const detail = await call('POST', `/v2/payer/${clientUserId}/payment-details`, usBankDetails)
  expect(detail.status, detail.text).toBe(201)
  const journal = await client.call('GET', '/__sandbox/journal', { apiKey, query: { type: 'event' } })
  const byType = new Map<string, Record<string, unknown>>()
  for (const entry of journal.body.entries as { event: string; payload: Record<string, unknown> }[])
    byType.set(entry.event, entry.payload)
  return byType
}

describeTransports(
  'test webhook payloads through %s',
  () => t,
  (client) => {
    it('carry, for every event type, every field of the real event of that type', async () => {
      const apiKey = newApiKey()
      const real = await realEvents(client(), apiKey)
      for (const type of ['request.recurring', 'compliance.updated', 'payment_detail.updated'])
        expect(real.has(type), type).toBe(true)
      // payment.confirmed and payment.partial as the payment detector builds them
      const world = t.sandbox.shared.tenants.get(apiKey)
      const [request] = requestState(world).requests.all()
      const payment: DetectedPayment = {
        id: 'p1',
        key: '1:0xabc:0',
        type: 'direct',
        amount: '10',
        amountRaw: '1000',
        paidAmount: '0.004',
        paidAmountRaw: '4000000000000000',
        feeAmount: '0',
        feeAmountRaw: '0',
        feeAddress: '0x0000000000000000000000000000000000000000',
        gasFee: '0.0001',
        txHash: `0x${'ab'.repeat(32)}`,
        blockNumber: 1,
        blockHash: `0x${'cd'.repeat(32)}`,
        logIndex: 0,
        chainId: 11155111,
        network: 'sepolia',
        proxy: '0x0000000000000000000000000000000000000001',
        timestamp: new Date().toISOString(),
        from: '0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570',
        to: request!.paymentAddress,
        conversionRate: null,
        amountInUsd: null,
      }
      const confirmed = paymentEventPayload(t.sandbox.shared, { ...request!, payments: [payment] }, payment)
      real.set('payment.confirmed', { event: 'payment.confirmed', ...confirmed })
      real.set('payment.partial', { event: 'payment.partial', ...confirmed })

      const hook = await client().call('POST', '/v2/webhook', { apiKey, body: { url: receiver.url } })
      receiver.secret = hook.body.secret
      receiver.received.length = 0
      for (const eventType of WEBHOOK_EVENT_TYPES) {
        const res = await client().call('POST', '/v2/webhook/test', { apiKey, body: { eventType } })
        expect(res.status, eventType).toBe(201)
      }
      const got = await receiver.waitFor(WEBHOOK_EVENT_TYPES.length)
      for (const eventType of WEBHOOK_EVENT_TYPES) {
        const test = got.find((r) => r.body.event === eventType)
        expect(test, eventType).toBeDefined()
        const expected = real.has(eventType) ? keyPaths(real.get(eventType)) : documented[eventType]!
        expect(expected.length, eventType).toBeGreaterThan(3)
        expect(keyPaths(test!.body), eventType).toEqual(expect.arrayContaining(expected))
      }
      const recurring = got.find((r) => r.body.event === 'request.recurring')!.body
      expect(recurring.originalRequestPaymentReference).toMatch(/^0x[0-9a-f]{16}$/)
      const refunded = got.find((r) => r.body.event === 'payment.refunded')!.body
      expect(refunded.refundedTo).toMatch(/^0x[0-9a-fA-F]{40}$/)
      expect(refunded.refundAmount).toMatch(/^\d+\.\d+$/)
    })
  },
)
