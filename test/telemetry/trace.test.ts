// OpenTelemetry traces (docs/telemetry.md): a payment's trace holds the call that created the request, the pay
// calldata's call (linked), the transaction sent through /rpc, the detected transfer and each webhook delivery attempt.
// Spans go to an in-memory exporter: the same spans an OTLP exporter would send.
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendApiTransactions } from '../../src/chain/index.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { startTelemetry, type Telemetry } from '../../src/telemetry/index.ts'
import type { Loose } from '../support/loose.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const apiKey = 'otel-trace'
const exporter = new InMemorySpanExporter()
let telemetry: Telemetry
let receiver: WebhookReceiver
let server: RunningServer

beforeAll(async () => {
  telemetry = (await startTelemetry({}, { exporter }))!
  receiver = await startReceiver()
  server = await startServer({
    telemetry,
    webhooks: { url: receiver.url, secret: receiver.secret, retryDelaysMs: [50] },
  })
})
afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await telemetry?.shutdown()
})

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as Loose }
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name)
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

describe('OpenTelemetry traces', () => {
  it('puts the create call, the transaction, the detected transfer and each delivery attempt in one trace', async () => {
    const payer = server.sandbox.chain!.accounts[1]!
    // the first delivery answers 500: its retry is a second attempt of the same delivery
    receiver.script = [500]
    const created = await api('POST', '/v2/request', {
      amount: '12',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7' as Address,
    })
    expect(created.status).toBe(201)
    const requestId = created.body.requestId as string
    const pay = await api('GET', `/v2/request/${requestId}/pay?wallet=${payer.address}`)
    expect(pay.status).toBe(200)
    const receipts = await sendApiTransactions(
      server.sandbox.chain!,
      payer.privateKey as Hex,
      pay.body.transactions,
      {
        rpcUrl: `${server.url}/rpc`,
      },
    )
    const paidHash = receipts.at(-1)!.transactionHash.toLowerCase()
    await waitFor(
      async () => (await api('GET', `/v2/request/${requestId}`)).body.hasBeenPaid === true || undefined,
      {
        timeoutMs: 20_000,
        what: 'the request paid',
      },
    )
    const deliveries = () => named(exporter.getFinishedSpans(), 'webhook.delivery')
    await waitFor(
      () => deliveries().some((s) => s.attributes['http.response.status_code'] === 200) || undefined,
      {
        timeoutMs: 10_000,
        what: 'a delivery answered 200',
      },
    )
    await telemetry.flush()
    const spans = exporter.getFinishedSpans()

    const create = named(spans, 'POST /v2/request').find(
      (s) => s.attributes['sandbox.request.id'] === requestId,
    )!
    expect(create, 'the create call is a span').toBeDefined()
    expect(create.attributes['http.response.status_code']).toBe(201)
    const trace = create.spanContext().traceId
    const inTrace = spans.filter((s) => s.spanContext().traceId === trace)

    // the pay calldata's call: a span of its own, linked from the detection
    const payCall = named(spans, 'GET /v2/request/:requestId/pay').find(
      (s) => s.attributes['sandbox.request.id'] === requestId,
    )!
    expect(payCall).toBeDefined()
    // the transaction that paid, sent through /rpc: in the create's trace, linked to the /rpc call that sent it
    const tx = named(inTrace, 'chain.transaction').find((s) => s.attributes['sandbox.tx.hash'] === paidHash)!
    expect(tx, 'the paying transaction is in the trace').toBeDefined()
    expect(parentOf(tx)).toBe(create.spanContext().spanId)
    const rpcCalls = named(spans, 'POST /rpc').map((s) => s.spanContext().spanId)
    expect(tx.links.map((l) => l.context.spanId).some((id) => rpcCalls.includes(id))).toBe(true)
    // the detected transfer: a child of the create call, linked to the pay call and to the /rpc call
    const detected = named(inTrace, 'payment.detected').find(
      (s) => s.attributes['sandbox.tx.hash'] === paidHash,
    )!
    expect(detected, 'the detection is in the trace').toBeDefined()
    expect(parentOf(detected)).toBe(create.spanContext().spanId)
    const linked = detected.links.map((l) => l.context.spanId)
    expect(linked).toContain(payCall.spanContext().spanId)
    expect(linked.some((id) => rpcCalls.includes(id))).toBe(true)
    // each delivery attempt of the payment's webhook: children of the detection, the 500 and its retry
    const attempts = named(inTrace, 'webhook.delivery').filter(
      (s) => parentOf(s) === detected.spanContext().spanId,
    )
    expect(attempts.length).toBeGreaterThanOrEqual(1)
    expect(attempts.some((s) => s.attributes['http.response.status_code'] === 200)).toBe(true)
    const everyAttempt = named(inTrace, 'webhook.delivery')
    const failed = everyAttempt.find((s) => s.attributes['http.response.status_code'] === 500)!
    expect(failed, 'the failed first attempt is in the trace').toBeDefined()
    const retry = everyAttempt.find(
      (s) =>
        s.attributes['sandbox.webhook.delivery_id'] === failed.attributes['sandbox.webhook.delivery_id'] &&
        s.attributes['sandbox.webhook.retry_count'] === 1,
    )
    expect(retry?.attributes['http.response.status_code']).toBe(200)
    expect(parentOf(retry!)).toBe(parentOf(failed))
  }, 60_000)

  it('continues a caller’s trace sent as traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const res = await fetch(`${server.url}/v2/request`, {
      method: 'POST',
      headers: {
        'x-api-key': apiKey,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify({
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      }),
    })
    expect(res.status).toBe(201)
    await telemetry.flush()
    const span = named(exporter.getFinishedSpans(), 'POST /v2/request').find(
      (s) => s.spanContext().traceId === traceId,
    )
    expect(span && parentOf(span)).toBe('00f067aa0ba902b7')
  })
})
