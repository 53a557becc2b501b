import { keccak256, toHex } from 'viem'
import { expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const invoice = { amount: '10', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee }

describeTransports(
  'requests through %s',
  () => t,
  (client) => {
    it('creates a request with real id formats and a reference derived by the documented formula', async () => {
      const res = await client().call('POST', '/v2/request', { body: invoice })
      expect(res.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/request', 201, res.body)
      assertMatchesDocument('v2', 'POST', '/v2/request', 201, res.body)
      expect(res.body.requestId).toMatch(/^01[0-9a-f]{64}$/)
      expect(res.body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/)
      const record = [...t.sandbox.shared.tenants.all()]
        .map((w) => requestState(w).requests.get(res.body.requestId))
        .find(Boolean)!
      const expected = keccak256(toHex(`${res.body.requestId}${record.salt}${payee}`.toLowerCase())).slice(
        -16,
      )
      expect(res.body.paymentReference).toBe(`0x${expected}`)
    })

    it('reads a new request as unpaid and not listening, through v2 and v1', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/request', { apiKey, body: invoice })
      const v2 = await client().call('GET', `/v2/request/${created.body.requestId}`, { apiKey })
      expect(v2.status).toBe(200)
      expect(v2.body).toMatchObject({
        hasBeenPaid: false,
        isListening: false,
        txHash: null,
        status: 'pending',
        payments: [],
      })
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, v2.body)
      const v1 = await client().call('GET', `/v1/request/${created.body.paymentReference}`, { apiKey })
      expect(v1.body).toEqual({
        hasBeenPaid: false,
        paymentReference: created.body.paymentReference,
        requestId: created.body.requestId,
        isListening: false,
        txHash: null,
      })
      assertMatchesDocument('full', 'GET', '/v2/request/{requestId}', 200, v1.body)
    })

    it('accepts a crypto-to-fiat request without payee, long float amounts and a recurrence starting today', async () => {
      const today = new Date().toISOString().slice(0, 10)
      const res = await client().call('POST', '/v2/request', {
        body: {
          amount: '0.30000000000000004',
          invoiceCurrency: 'fUSDC-sepolia',
          paymentCurrency: 'fUSDC-sepolia',
          isCryptoToFiatAvailable: true,
          recurrence: { startDate: today, frequency: 'MONTHLY' },
          extraKey: 'ignored',
        },
      })
      expect(res.status).toBe(201)
    })

    it('answers v1 creation with requestID (capital D) and requires payee there', async () => {
      const res = await client().call('POST', '/v1/request', { body: invoice })
      expect(res.status).toBe(201)
      expect(Object.keys(res.body).sort()).toEqual(['paymentReference', 'requestID'])
      const noPayee = await client().call('POST', '/v1/request', { body: { ...invoice, payee: undefined } })
      expect(noPayee.status).toBe(400)
    })

    it.each([
      ['amount zero', { ...invoice, amount: '0' }, 'amount'],
      ['amount not a number', { ...invoice, amount: '1e3' }, 'amount'],
      ['amount as a number', { ...invoice, amount: 10 }, 'amount'],
      ['unknown invoice currency', { ...invoice, invoiceCurrency: 'XYZ' }, 'invoiceCurrency'],
      ['fiat payment currency', { ...invoice, paymentCurrency: 'USD' }, 'paymentCurrency'],
      ['bad payee', { ...invoice, payee: '0x1234' }, 'payee'],
      ['no payee', { ...invoice, payee: undefined }, 'payee'],
      [
        'past start date',
        { ...invoice, recurrence: { startDate: '2001-01-01', frequency: 'DAILY' } },
        'recurrence.startDate',
      ],
      [
        'impossible date',
        { ...invoice, recurrence: { startDate: '2031-02-30', frequency: 'DAILY' } },
        'recurrence.startDate',
      ],
      [
        'bad frequency',
        { ...invoice, recurrence: { startDate: '2031-02-03', frequency: 'HOURLY' } },
        'recurrence.frequency',
      ],
    ])('rejects %s with 400 Validation failed naming the field', async (_name, body, field) => {
      const res = await client().call('POST', '/v2/request', { body })
      expect(res.status).toBe(400)
      expect(res.body.statusCode).toBe(400)
      expect(res.body.message).toBe('Validation failed')
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
    })

    it('stops a recurrence with PATCH (200, no body)', async () => {
      const apiKey = newApiKey()
      const recurrence = { startDate: new Date().toISOString().slice(0, 10), frequency: 'MONTHLY' }
      const created = await client().call('POST', '/v2/request', { apiKey, body: { ...invoice, recurrence } })
      const patched = await client().call('PATCH', `/v2/request/${created.body.requestId}`, {
        apiKey,
        body: { isRecurrenceStopped: true },
      })
      expect(patched.status).toBe(200)
      const read = await client().call('GET', `/v2/request/${created.body.requestId}`, { apiKey })
      expect(read.body.isRecurrenceStopped).toBe(true)
    })

    it('keeps tenants apart: another API key gets 404 for the same request', async () => {
      const alice = newApiKey()
      const bob = newApiKey()
      const created = await client().call('POST', '/v2/request', { apiKey: alice, body: invoice })
      for (const path of [
        `/v2/request/${created.body.requestId}`,
        `/v2/request/${created.body.requestId}/pay`,
        `/v1/request/${created.body.paymentReference}`,
        `/v1/request/${created.body.paymentReference}/pay`,
      ]) {
        const res = await client().call('GET', path, { apiKey: bob })
        expect(res.status, path).toBe(404)
        expect(res.body).toEqual({ statusCode: 404, message: 'Request not found', error: 'Not Found' })
        const own = await client().call('GET', path, { apiKey: alice })
        expect(own.status, path).toBe(200)
      }
    })
  },
)
