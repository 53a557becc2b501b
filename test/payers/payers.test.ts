import { expect, it } from 'vitest'
import { payerState } from '../../src/resources/payers/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { createPayer, payerBody } from '../support/compliance.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { chain: false })

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const complianceEvents = (apiKey: string) =>
  t.sandbox.shared.tenants
    .get(apiKey)
    .events.filter((e) => e.type === 'compliance.updated')
    .map((e) => e.payload)

describeTransports(
  'payer compliance through %s',
  () => t,
  (client) => {
    it('creates a payer (v2 and v1) in the documented shape, with the statuses real clients read at the top level', async () => {
      const apiKey = newApiKey()
      const res = await client().call('POST', '/v2/payer', { apiKey, body: payerBody() })
      expect(res.status).toBe(200)
      assertMatchesDocument('v2', 'POST', '/v2/payer', 200, res.body)
      assertMatchesDocument('full', 'POST', '/v2/payer', 200, res.body)
      expect(res.body).toMatchObject({
        status: { agreementStatus: 'not_started', kycStatus: 'not_started' },
        agreementStatus: 'pending',
        kycStatus: 'not_started',
        isCompliant: false,
      })
      expect(res.body.userId).toMatch(uuid)
      expect(res.body.agreementUrl).toMatch(
        new RegExp(`^${client().baseUrl}/__sandbox/payer-pages/[0-9a-f]+/agreement$`),
      )
      expect(res.body.kycUrl).toMatch(new RegExp(`^${client().baseUrl}/__sandbox/payer-pages/[0-9a-f]+/kyc$`))

      const business = payerBody({
        clientUserId: 'business-456',
        beneficiaryType: 'business',
        companyName: 'Acme Corporation Inc.',
        addressLine2: 'Suite 200',
        sourceOfFunds: 'Business revenue from software services',
        businessActivity: 'Software development and consulting',
      })
      const v1 = await client().call('POST', '/v1/payer', { apiKey, body: business })
      expect(v1.status).toBe(200)
      assertMatchesDocument('full', 'POST', '/v1/payer', 200, v1.body)
      expect(complianceEvents(apiKey).map((e) => [e.clientUserId, e.agreementStatus])).toEqual([
        ['john.doe@example.com', 'pending'],
        ['business-456', 'pending'],
      ])
    })

    it('accepts the easy-invoice form: empty optional fields and keys the interface does not know', async () => {
      const body = payerBody({
        companyName: '',
        addressLine2: '',
        sourceOfFunds: '',
        businessActivity: '',
        extra: 1,
      })
      const res = await client().call('POST', '/v2/payer', { body })
      expect(res.status).toBe(200)
    })

    it.each([
      ['email', { email: 'john.doe.example.com' }],
      ['dateOfBirth', { dateOfBirth: '1990-02-30' }],
      ['dateOfBirth', { dateOfBirth: '12/12/1985' }],
      ['dateOfBirth', { dateOfBirth: '2999-01-01' }],
      ['phone', { phone: '212-555-1234' }],
      ['phone', { phone: '+0123456' }],
      ['country', { country: 'XX' }],
      ['country', { country: 'USA' }],
      ['nationality', { nationality: 'UK' }],
      ['beneficiaryType', { beneficiaryType: 'person' }],
      ['firstName', { firstName: '' }],
      ['ssn', { ssn: undefined }],
      ['clientUserId', { clientUserId: '' }],
    ])('refuses a payer with an invalid %s (%j), naming the field', async (field, overrides) => {
      const res = await client().call('POST', '/v2/payer', { body: payerBody(overrides) })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
    })

    it('refuses a second payer with the same clientUserId and keeps the first one', async () => {
      const apiKey = newApiKey()
      const first = await createPayer(client(), apiKey)
      const again = await client().call('POST', '/v2/payer', {
        apiKey,
        body: payerBody({ firstName: 'Other' }),
      })
      expect(again.status).toBe(400)
      expect(again.body).toEqual({
        statusCode: 400,
        message: 'Payer with client user ID john.doe@example.com already exists',
        error: 'Bad Request',
      })
      const read = await client().call('GET', '/v2/payer/john.doe%40example.com', { apiKey })
      expect(read.body.userId).toBe(first.userId)
    })

    it('creates one payer when the same clientUserId is posted twice at once', async () => {
      const apiKey = newApiKey()
      const [a, b] = await Promise.all([
        client().call('POST', '/v2/payer', { apiKey, body: payerBody() }),
        client().call('POST', '/v2/payer', { apiKey, body: payerBody() }),
      ])
      expect([a.status, b.status].sort()).toEqual([200, 400])
      expect(payerState(t.sandbox.shared.tenants.get(apiKey)).payers.size).toBe(1)
    })

    it('reads a payer by its URL-encoded e-mail, statuses and links at the top level (v2 and v1)', async () => {
      const apiKey = newApiKey()
      const created = await createPayer(client(), apiKey)
      for (const version of ['v2', 'v1']) {
        const res = await client().call('GET', `/${version}/payer/john.doe%40example.com`, { apiKey })
        expect(res.status).toBe(200)
        assertMatchesDocument(
          version === 'v2' ? 'v2' : 'full',
          'GET',
          `/${version}/payer/{clientUserId}`,
          200,
          res.body,
        )
        expect(res.body).toEqual({
          kycStatus: 'not_started',
          agreementStatus: 'pending',
          isCompliant: false,
          userId: created.userId,
          agreementUrl: created.agreementUrl,
          kycUrl: created.kycUrl,
        })
      }
    })

    it("answers 404 in the documented words for unknown payers and for another tenant's payer", async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const expected = {
        statusCode: 404,
        message: 'Payer with client user ID john.doe@example.com not found',
        error: 'Not Found',
      }
      const other = await client().call('GET', '/v2/payer/john.doe%40example.com')
      expect(other.status).toBe(404)
      expect(other.body).toEqual(expected)
      assertMatchesDocument('v2', 'GET', '/v2/payer/{clientUserId}', 404, other.body)
      const patch = await client().call('PATCH', '/v1/payer/john.doe%40example.com', {
        body: { agreementCompleted: true },
      })
      expect(patch.status).toBe(404)
      expect(patch.body).toEqual(expected)
    })

    it('completes the agreement with PATCH, which initiates KYC; a second completion is harmless', async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      for (let i = 0; i < 2; i++) {
        const res = await client().call('PATCH', '/v2/payer/john.doe%40example.com', {
          apiKey,
          body: { agreementCompleted: true },
        })
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ success: true })
        assertMatchesDocument('v2', 'PATCH', '/v2/payer/{clientUserId}', 200, res.body)
      }
      const read = await client().call('GET', '/v2/payer/john.doe%40example.com', { apiKey })
      expect(read.body).toMatchObject({
        agreementStatus: 'completed',
        kycStatus: 'initiated',
        isCompliant: false,
      })
      const events = complianceEvents(apiKey)
      expect(events).toHaveLength(2)
      expect(events[1]).toMatchObject({
        event: 'compliance.updated',
        clientUserId: 'john.doe@example.com',
        agreementStatus: 'completed',
        kycStatus: 'initiated',
        isCompliant: false,
      })
      expect(Object.keys(events[1]!).sort()).toEqual(
        [
          'agreementStatus',
          'clientUserId',
          'event',
          'isCompliant',
          'kycStatus',
          'rawPayload',
          'timestamp',
        ].sort(),
      )
    })

    it('answers a PATCH without agreementCompleted, or with false, in the documented E1 shape', async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const path = '/v2/payer/john.doe%40example.com'
      const missing = await client().call('PATCH', path, { apiKey, body: {} })
      expect(missing.status).toBe(400)
      expect(missing.body).toEqual({
        statusCode: 400,
        message: 'agreementCompleted must be provided',
        error: 'Bad Request',
      })
      const wrongType = await client().call('PATCH', path, { apiKey, body: { agreementCompleted: 'yes' } })
      expect(wrongType.body.message).toBe('agreementCompleted must be a boolean')
      const withdrawn = await client().call('PATCH', path, { apiKey, body: { agreementCompleted: false } })
      expect(withdrawn.status).toBe(400)
      expect(withdrawn.body.message).toMatch(/must be true/)
    })

    it('requires an API key on the payer endpoints (no client ID, no session)', async () => {
      const res = await client().call('GET', '/v2/payer/someone', {
        apiKey: null,
        headers: { 'x-client-id': 'cli_x' },
      })
      expect(res.status).toBe(401)
    })
  },
)
