// A create's 201 is written from a text the route builds itself (not JSON.stringify): the bytes on the wire must be
// exactly what serialising its body gives, key order included, for POST /v2/request and /v1/request alike.
import { expect, it } from 'vitest'
import { newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

const create = async (path: string, more: Record<string, unknown> = {}) => {
  const res = await fetch(t.server.url + path, {
    method: 'POST',
    headers: { 'x-api-key': newApiKey(), 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      ...more,
    }),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await res.text()
  return { status: res.status, text, length: res.headers.get('content-length') }
}

it.each([
  ['a create', {}],
  // a recurring create waits for its schedule: the answer is built after a promise
  [
    'a recurring create',
    { recurrence: { startDate: new Date().toISOString().slice(0, 10), frequency: 'DAILY' } },
  ],
])(
  'answers %s on POST /v2/request with the JSON of { paymentReference, requestId }, byte for byte',
  async (_, more) => {
    const { status, text, length } = await create('/v2/request', more)
    expect(status).toBe(201)
    const body = JSON.parse(text) as { paymentReference: string; requestId: string }
    expect(body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/)
    expect(body.requestId).toMatch(/^01[0-9a-f]{64}$/)
    expect(text).toBe(JSON.stringify({ paymentReference: body.paymentReference, requestId: body.requestId }))
    expect(Number(length)).toBe(Buffer.byteLength(text))
  },
)

it('answers POST /v1/request with the JSON of { requestID, paymentReference }, byte for byte', async () => {
  const { status, text } = await create('/v1/request')
  expect(status).toBe(201)
  const body = JSON.parse(text) as { requestID: string; paymentReference: string }
  expect(body.requestID).toMatch(/^01[0-9a-f]{64}$/)
  expect(text).toBe(JSON.stringify({ requestID: body.requestID, paymentReference: body.paymentReference }))
})
