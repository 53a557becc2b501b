// Recurring requests: a request created with `recurrence` (v1 and v2) produces its child requests on the key's
// clock, each announced by request.recurring; stop-recurrence (v1) and PATCH (v2) stop and resume the series.
import { expect, it } from 'vitest'
import { advance } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { chain: false })

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const today = () => new Date().toISOString().slice(0, 10)
const invoice = (frequency = 'DAILY') => ({
  amount: '10',
  invoiceCurrency: 'USD',
  paymentCurrency: 'ETH-sepolia-sepolia',
  payee,
  reference: 'INV-2026-0001',
  customerInfo: { firstName: 'Ann', email: 'ann@example.com' },
  recurrence: { startDate: today(), frequency },
})
const badRequest = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' })
type RecurringEvent = {
  event: string
  requestId: string
  paymentReference: string
  originalRequestId: string
  originalRequestPaymentReference: string
  timestamp: string
}

describeTransports(
  'recurring requests through %s',
  () => t,
  (client) => {
    const call = (method: string, path: string, apiKey: string, body?: unknown) =>
      client().call(method, path, { apiKey, ...(body === undefined ? {} : { body }) })
    const advanceDays = (apiKey: string, days: number) => advance(client(), apiKey, days * 86_400)
    /** request.recurring events of the key, oldest first, read through the journal */
    const recurringEvents = async (apiKey: string) => {
      const journal = await client().call('GET', '/__sandbox/journal', {
        apiKey,
        query: { type: 'event', event: 'request.recurring' },
      })
      expect(journal.status).toBe(200)
      return (journal.body.entries as { payload: RecurringEvent }[]).map((e) => e.payload).reverse()
    }

    it('produces one linked child request per period as the clock moves, each announced by request.recurring', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/request', apiKey, invoice())
      expect(created.status).toBe(201)
      const { requestId, paymentReference } = created.body
      expect(await recurringEvents(apiKey)).toEqual([])

      await advanceDays(apiKey, 1)
      expect(await recurringEvents(apiKey)).toHaveLength(1)
      await advanceDays(apiKey, 2)
      const events = await recurringEvents(apiKey)
      expect(events).toHaveLength(3)
      const children = new Set<string>()
      for (const event of events) {
        expect(event).toMatchObject({
          event: 'request.recurring',
          originalRequestId: requestId,
          originalRequestPaymentReference: paymentReference,
        })
        expect(event.requestId).toMatch(/^01[0-9a-f]{64}$/)
        expect(event.paymentReference).toMatch(/^0x[0-9a-f]{16}$/)
        expect(event.requestId).not.toBe(requestId)
        expect(event.paymentReference).not.toBe(paymentReference)
        children.add(event.requestId)
        // each child is a request of its own, linked to the original, with the original's terms
        const child = await call('GET', `/v2/request/${event.requestId}`, apiKey)
        expect(child.status).toBe(200)
        expect(child.body).toMatchObject({
          requestId: event.requestId,
          paymentReference: event.paymentReference,
          originalRequestId: requestId,
          originalRequestPaymentReference: paymentReference,
          requestAmount: '10',
          invoiceCurrency: 'USD',
          paymentCurrency: 'ETH-sepolia-sepolia',
          reference: 'INV-2026-0001',
          hasBeenPaid: false,
          isRecurrenceStopped: false,
        })
        expect(child.body.recurrence).toBeUndefined()
        const v1 = await call('GET', `/v1/request/${event.paymentReference}`, apiKey)
        expect(v1.body.requestId).toBe(event.requestId)
      }
      expect(children.size).toBe(3)
      // the due dates follow the start date, one day apart
      const start = Date.parse(`${today()}T00:00:00Z`)
      expect(events.map((e) => Date.parse(e.timestamp) - start)).toEqual([1, 2, 3].map((d) => d * 86_400_000))
    })

    it('does the same for a v1-created request, and stop-recurrence (v1) stops it: 200, no more children, then 400', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v1/request', apiKey, invoice('WEEKLY'))
      expect(created.status).toBe(201)
      const { requestID, paymentReference } = created.body
      await advanceDays(apiKey, 7)
      const [first] = await recurringEvents(apiKey)
      expect(first).toMatchObject({
        originalRequestId: requestID,
        originalRequestPaymentReference: paymentReference,
      })

      const stopped = await call('PATCH', `/v1/request/${paymentReference}/stop-recurrence`, apiKey)
      expect(stopped.status).toBe(200)
      expect(stopped.text).toBe('')
      await advanceDays(apiKey, 21)
      expect(await recurringEvents(apiKey)).toHaveLength(1)
      for (const id of [requestID, first!.requestId]) {
        const status = await call('GET', `/v2/request/${id}`, apiKey)
        expect(status.body.isRecurrenceStopped, id).toBe(true)
      }
      const again = await call('PATCH', `/v1/request/${paymentReference}/stop-recurrence`, apiKey)
      expect([again.status, again.body]).toEqual([400, badRequest('Recurrence is already stopped')])
    })

    it('stops and resumes with PATCH /v2/request/{requestId}: periods missed while stopped are skipped', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/request', apiKey, invoice())
      const path = `/v2/request/${created.body.requestId}`
      const stop = await call('PATCH', path, apiKey, { isRecurrenceStopped: true })
      expect([stop.status, stop.text]).toEqual([200, ''])
      // setting the same value again is not an error on v2 (it sets a flag)
      expect((await call('PATCH', path, apiKey, { isRecurrenceStopped: true })).status).toBe(200)
      await advanceDays(apiKey, 3)
      expect(await recurringEvents(apiKey)).toEqual([])
      const status = await call('GET', path, apiKey)
      expect(status.body.isRecurrenceStopped).toBe(true)
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, status.body)

      const resume = await call('PATCH', path, apiKey, { isRecurrenceStopped: false })
      expect(resume.status).toBe(200)
      expect((await call('GET', path, apiKey)).body.isRecurrenceStopped).toBe(false)
      expect(await recurringEvents(apiKey)).toEqual([]) // nothing back-filled
      await advanceDays(apiKey, 1)
      const events = await recurringEvents(apiKey)
      expect(events).toHaveLength(1)
      const start = Date.parse(`${today()}T00:00:00Z`)
      expect(Date.parse(events[0]!.timestamp) - start).toBe(4 * 86_400_000)
    })

    it("stops the whole series through a child's id (the id a client holds for a generated invoice)", async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/request', apiKey, invoice())
      await advanceDays(apiKey, 1)
      const [child] = await recurringEvents(apiKey)
      const stop = await call('PATCH', `/v2/request/${child!.requestId}`, apiKey, {
        isRecurrenceStopped: true,
      })
      expect(stop.status).toBe(200)
      const original = await call('GET', `/v2/request/${created.body.requestId}`, apiKey)
      expect(original.body.isRecurrenceStopped).toBe(true)
      await advanceDays(apiKey, 2)
      expect(await recurringEvents(apiKey)).toHaveLength(1)
    })

    it('refuses to stop a request that does not recur (400) and an unknown one (404 Request not found)', async () => {
      const apiKey = newApiKey()
      const { recurrence: _, ...once } = invoice()
      const created = await call('POST', '/v2/request', apiKey, once)
      const v1 = await call('PATCH', `/v1/request/${created.body.paymentReference}/stop-recurrence`, apiKey)
      expect([v1.status, v1.body]).toEqual([400, badRequest('Request is not a recurring request')])
      const v2 = await call('PATCH', `/v2/request/${created.body.requestId}`, apiKey, {
        isRecurrenceStopped: true,
      })
      expect([v2.status, v2.body]).toEqual([400, badRequest('Request is not a recurring request')])
      const notFound = { statusCode: 404, message: 'Request not found', error: 'Not Found' }
      const unknownV1 = await call('PATCH', '/v1/request/0x0123456789abcdef/stop-recurrence', apiKey)
      expect([unknownV1.status, unknownV1.body]).toEqual([404, notFound])
      assertMatchesDocument(
        'full',
        'PATCH',
        '/v1/request/{paymentReference}/stop-recurrence',
        404,
        unknownV1.body,
      )
      const unknownV2 = await call('PATCH', `/v2/request/01${'0'.repeat(64)}`, apiKey, {
        isRecurrenceStopped: true,
      })
      expect([unknownV2.status, unknownV2.body]).toEqual([404, notFound])
      // another key cannot stop it either
      const other = await call(
        'PATCH',
        `/v1/request/${created.body.paymentReference}/stop-recurrence`,
        newApiKey(),
      )
      expect(other.status).toBe(404)
      const noKey = await client().call(
        'PATCH',
        `/v1/request/${created.body.paymentReference}/stop-recurrence`,
        {
          apiKey: null,
        },
      )
      expect(noKey.status).toBe(401)
    })
  },
)
