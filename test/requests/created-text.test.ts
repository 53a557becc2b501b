// A create's 201 is written from a text the route builds itself (not JSON.stringify): the bytes a client receives
// must be exactly what serialising its body gives, key order included, for POST /v2/request (a create, and a
// recurring one, whose answer is built after a promise) and POST /v1/request, over the server and MSW alike.
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

const invoice = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}
const today = () => new Date().toISOString().slice(0, 10)

describeTransports(
  'a create answered through %s',
  () => t,
  (client) => {
    it.each([
      ['a create', {}],
      ['a recurring create', { recurrence: { startDate: today(), frequency: 'DAILY' } }],
    ])(
      'answers %s on POST /v2/request with the JSON of { paymentReference, requestId }, byte for byte',
      async (_, more) => {
        const res = await client().call('POST', '/v2/request', {
          apiKey: newApiKey(),
          body: { ...invoice, ...more },
        })
        expect(res.status).toBe(201)
        const body = JSON.parse(res.text) as { paymentReference: string; requestId: string }
        expect(body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/)
        expect(body.requestId).toMatch(/^01[0-9a-f]{64}$/)
        expect(res.text).toBe(
          JSON.stringify({ paymentReference: body.paymentReference, requestId: body.requestId }),
        )
        expect(Number(res.headers.get('content-length') ?? Buffer.byteLength(res.text))).toBe(
          Buffer.byteLength(res.text),
        )
      },
    )

    it('answers POST /v1/request with the JSON of { requestID, paymentReference }, byte for byte', async () => {
      const res = await client().call('POST', '/v1/request', { apiKey: newApiKey(), body: invoice })
      expect(res.status).toBe(201)
      const body = JSON.parse(res.text) as { requestID: string; paymentReference: string }
      expect(body.requestID).toMatch(/^01[0-9a-f]{64}$/)
      expect(res.text).toBe(
        JSON.stringify({ requestID: body.requestID, paymentReference: body.paymentReference }),
      )
    })
  },
)
