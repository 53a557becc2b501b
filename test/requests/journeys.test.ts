import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { chain: false })

const invoice = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}
/** the document's full example, with a txReference of its own (references are found across every tenant) */
const fullEvent = () => ({
  status: 'COMPLETED',
  amount: '1000.00',
  currency: 'USDT',
  txReference: `0x${randomBytes(16).toString('hex')}`,
  processedAt: '2024-06-10T14:23:00Z',
  rawPayload: { exchange: 'Binance', network: 'Ethereum', fee: '2.50', note: 'Withdrawal to bridge' },
})

describeTransports(
  'journeys through %s',
  () => t,
  (client) => {
    it('creates a journey linked to a request or standalone; an unknown request is refused', async () => {
      const apiKey = newApiKey()
      const request = await client().call('POST', '/v2/request', { apiKey, body: invoice })
      const linked = await client().call('POST', '/v2/journey', {
        apiKey,
        body: { requestId: request.body.requestId },
      })
      expect(linked.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/journey', 201, linked.body)
      expect(linked.body.journeyId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      const standalone = await client().call('POST', '/v2/journey', { apiKey, body: {} })
      expect(standalone.status).toBe(201)
      const timeline = await client().call('GET', `/v2/journey/${linked.body.journeyId}`, { apiKey: null })
      expect(timeline.body).toEqual({
        id: linked.body.journeyId,
        requestId: request.body.requestId,
        createdAt: expect.any(String),
        events: [],
      })
      expect(
        (await client().call('GET', `/v2/journey/${standalone.body.journeyId}`)).body.requestId,
      ).toBeNull()
      const unknown = await client().call('POST', '/v2/journey', {
        apiKey,
        body: { requestId: `01${'0'.repeat(64)}` },
      })
      expect(unknown.status).toBe(404)
      expect(unknown.body.message).toBe('Request not found')
      expect((await client().call('POST', '/v2/journey', { apiKey: null, body: {} })).status).toBe(401)
    })

    it("lets processors with their own keys report steps by journeyId or by an earlier step's txReference, and sorts the timeline by processing time", async () => {
      const owner = newApiKey()
      const request = await client().call('POST', '/v2/request', { apiKey: owner, body: invoice })
      const { journeyId } = (
        await client().call('POST', '/v2/journey', {
          apiKey: owner,
          body: { requestId: request.body.requestId },
        })
      ).body
      const exchange = newApiKey()
      const bridge = newApiKey()
      const step = fullEvent()
      const late = await client().call('POST', `/v2/journey/${journeyId}`, { apiKey: exchange, body: step })
      expect(late.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/journey/{queryId}', 201, late.body)
      expect(late.body).toEqual({
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        journeyId,
        processorId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        ...step,
      })
      // a later report with an earlier processing time, found through the first step's txReference
      const early = await client().call('POST', `/v2/journey/${step.txReference}`, {
        apiKey: bridge,
        body: { status: 'PENDING', amount: '500.00', currency: 'USDT', processedAt: '2024-06-10T13:00:00Z' },
      })
      expect(early.status).toBe(201)
      expect(early.body.journeyId).toBe(journeyId)
      expect(early.body.processorId).not.toBe(late.body.processorId)
      const timeline = await client().call('GET', `/v2/journey/${journeyId}`, { apiKey: null })
      expect(timeline.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v2/journey/{journeyId}', 200, timeline.body)
      expect(
        timeline.body.events.map((e: { stepIndex: number; status: string }) => [e.stepIndex, e.status]),
      ).toEqual([
        [1, 'PENDING'],
        [2, 'COMPLETED'],
      ])
      expect(timeline.body.events[1]).toEqual({ id: late.body.id, stepIndex: 2, ...step })
    })

    it('answers 404 for an unknown journey or txReference, and the zod issue list for invalid steps', async () => {
      const apiKey = newApiKey()
      const missing = await client().call('POST', '/v2/journey/01JOURNEYULID1234567890ABCD', {
        apiKey,
        body: fullEvent(),
      })
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({ statusCode: 404, message: 'Journey not found', error: 'Not Found' })
      expect((await client().call('GET', '/v2/journey/0xabc', { apiKey: null })).status).toBe(404)
      const { journeyId } = (await client().call('POST', '/v2/journey', { apiKey, body: {} })).body
      const invalid = await client().call('POST', `/v2/journey/${journeyId}`, {
        apiKey,
        body: { status: 'PENDING', processedAt: '2024-06-10T13:00:00+02:00', currency: 5 },
      })
      expect(invalid.status).toBe(400)
      expect(invalid.body.message).toEqual([
        expect.objectContaining({ code: 'invalid_type', path: ['amount'], message: 'Required' }),
        expect.objectContaining({
          path: ['processedAt'],
          message: expect.stringContaining("ending with 'Z'"),
        }),
        expect.objectContaining({
          code: 'invalid_type',
          path: ['currency'],
          message: 'Expected string, received number',
        }),
      ])
      const notADate = await client().call('POST', `/v2/journey/${journeyId}`, {
        apiKey,
        body: { status: 'PENDING', amount: '1', processedAt: '2024-13-45T99:00:00Z' },
      })
      expect(notADate.status).toBe(400)
      expect((await client().call('GET', `/v2/journey/${journeyId}`)).body.events).toEqual([])
    })
  },
)
