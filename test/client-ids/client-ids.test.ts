import { expect, it } from 'vitest'
import { advance } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { payerBody } from '../support/compliance.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { chain: false })

const feeAddress = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const basic = { label: 'My Client ID', allowedDomains: ['https://example.com'] }
const withFees = {
  label: 'My Client ID with Fees',
  allowedDomains: ['https://example.com', 'https://app.example.com'],
  feePercentage: '2.5',
  feeAddress,
}

describeTransports(
  'client IDs through %s',
  () => t,
  (client) => {
    it('creates client IDs from the documented examples: 201, an internal id and a public clientId', async () => {
      const apiKey = newApiKey()
      const bodies: {
        label: string
        allowedDomains: string[]
        feePercentage?: string
        feeAddress?: string
      }[] = [basic, withFees]
      for (const body of bodies) {
        const res = await client().call('POST', '/v2/client-ids', { apiKey, body })
        expect(res.status).toBe(201)
        assertMatchesDocument('v2', 'POST', '/v2/client-ids', 201, res.body)
        expect(res.body.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
        expect(res.body.clientId).toMatch(/^cli_[0-9a-f]{12}$/)
        expect(res.body).toMatchObject({
          label: body.label,
          allowedDomains: body.allowedDomains,
          feePercentage: body.feePercentage ?? null,
          feeAddress: body.feeAddress ?? null,
          operatorWalletAddress: null,
          status: 'active',
        })
        expect(Object.keys(res.body)).not.toContain('updatedAt')
      }
    })

    it("lists and reads only the caller's client IDs", async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/client-ids', { apiKey, body: withFees })
      const list = await client().call('GET', '/v2/client-ids', { apiKey })
      expect(list.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/client-ids', 200, list.body)
      expect(list.body).toEqual([
        {
          id: created.body.id,
          clientId: created.body.clientId,
          label: withFees.label,
          allowedDomains: withFees.allowedDomains,
          status: 'active',
          createdAt: created.body.createdAt,
          lastUsedAt: null,
        },
      ])
      const one = await client().call('GET', `/v2/client-ids/${created.body.id}`, { apiKey })
      assertMatchesDocument('v2', 'GET', '/v2/client-ids/{id}', 200, one.body)
      expect(one.body).toMatchObject({ ...withFees, updatedAt: created.body.createdAt, lastUsedAt: null })
      expect((await client().call('GET', '/v2/client-ids')).body).toEqual([])
      const foreign = await client().call('GET', `/v2/client-ids/${created.body.id}`)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ statusCode: 404, message: 'Client ID not found', error: 'Not Found' })
    })

    it('normalises allowed domains to origins and accepts an empty list for back-end IDs', async () => {
      const res = await client().call('POST', '/v2/client-ids', {
        body: {
          label: 'shop',
          allowedDomains: [
            'HTTPS://Shop.Example.com:443/',
            'http://localhost:3000',
            'https://shop.example.com',
            'https://x.io:8443',
          ],
        },
      })
      expect(res.status).toBe(201)
      expect(res.body.allowedDomains).toEqual([
        'https://shop.example.com',
        'http://localhost:3000',
        'https://x.io:8443',
      ])
      const backend = await client().call('POST', '/v2/client-ids', {
        body: { label: 'server', allowedDomains: [] },
      })
      expect(backend.status).toBe(201)
    })

    it.each([
      ['plain http on a public host', { allowedDomains: ['http://example.com'] }, 'allowedDomains.0'],
      ['a path', { allowedDomains: ['https://example.com/shop'] }, 'allowedDomains.0'],
      ['another scheme', { allowedDomains: ['ftp://example.com'] }, 'allowedDomains.0'],
      ['not a URL', { allowedDomains: ['example'] }, 'allowedDomains.0'],
      [
        'eleven domains',
        { allowedDomains: Array.from({ length: 11 }, (_, i) => `https://d${i}.example.com`) },
        'allowedDomains',
      ],
      ['an empty label', { label: '' }, 'label'],
      ['a 101-character label', { label: 'x'.repeat(101) }, 'label'],
      ['a fee without address', { feePercentage: '1', feeAddress: undefined }, 'feeAddress'],
      ['three fee decimals', { feePercentage: '2.555', feeAddress }, 'feePercentage'],
      ['a fee above 100', { feePercentage: '100.01', feeAddress }, 'feePercentage'],
      ['a bad fee address', { feePercentage: '1', feeAddress: '0x1234' }, 'feeAddress'],
    ])('refuses a client ID with %s', async (_name, overrides, field) => {
      const res = await client().call('POST', '/v2/client-ids', { body: { ...basic, ...overrides } })
      expect(res.status).toBe(400)
      expect(res.body.message).toBe('Validation failed')
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
    })

    it('updates with PUT: absent fields stay, null unsets the fee, the fee needs its address', async () => {
      const apiKey = newApiKey()
      const { body: created } = await client().call('POST', '/v2/client-ids', { apiKey, body: basic })
      const path = `/v2/client-ids/${created.id}`
      const label = await client().call('PUT', path, { apiKey, body: { label: 'Updated Client ID Label' } })
      expect(label.status).toBe(200)
      assertMatchesDocument('v2', 'PUT', '/v2/client-ids/{id}', 200, label.body)
      expect(label.body).toMatchObject({
        label: 'Updated Client ID Label',
        allowedDomains: basic.allowedDomains,
      })
      expect(Object.keys(label.body)).not.toContain('createdAt')

      const noAddress = await client().call('PUT', path, { apiKey, body: { feePercentage: '1.5' } })
      expect(noAddress.status).toBe(400)
      expect(noAddress.body.errors).toEqual([
        { field: 'feeAddress', message: 'feeAddress is required when feePercentage is set' },
      ])
      const fee = await client().call('PUT', path, { apiKey, body: { feePercentage: '1.5', feeAddress } })
      expect(fee.body).toMatchObject({ feePercentage: '1.5', feeAddress })
      const dropAddress = await client().call('PUT', path, { apiKey, body: { feeAddress: null } })
      expect(dropAddress.status).toBe(400)
      const unset = await client().call('PUT', path, {
        apiKey,
        body: { feePercentage: null, feeAddress: null },
      })
      expect(unset.body).toMatchObject({
        feePercentage: null,
        feeAddress: null,
        label: 'Updated Client ID Label',
      })
      const noDomains = await client().call('PUT', path, { apiKey, body: { allowedDomains: [] } })
      expect(noDomains.status).toBe(400)
      const unknown = await client().call('PUT', '/v2/client-ids/01HXEXAMPLE123', {
        apiKey,
        body: { label: 'x' },
      })
      expect(unknown.status).toBe(404)
    })

    it('revokes with DELETE for good: no PUT can reactivate a revoked ID', async () => {
      const apiKey = newApiKey()
      const { body: created } = await client().call('POST', '/v2/client-ids', { apiKey, body: basic })
      const path = `/v2/client-ids/${created.id}`
      expect((await client().call('PUT', path, { apiKey, body: { status: 'inactive' } })).body.status).toBe(
        'inactive',
      )
      expect((await client().call('PUT', path, { apiKey, body: { status: 'active' } })).body.status).toBe(
        'active',
      )
      const revoked = await client().call('DELETE', path, { apiKey })
      expect(revoked.status).toBe(200)
      expect(revoked.body.status).toBe('revoked')
      for (const status of ['active', 'inactive']) {
        const res = await client().call('PUT', path, { apiKey, body: { status } })
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          statusCode: 400,
          message: 'Cannot reactivate a revoked client ID',
          error: 'Bad Request',
        })
      }
      expect((await client().call('DELETE', path, { apiKey })).status).toBe(200)
      expect((await client().call('GET', path, { apiKey })).body.status).toBe('revoked')
      expect((await client().call('DELETE', '/v2/client-ids/nope', { apiKey })).status).toBe(404)
    })

    it('accepts a session token instead of the API key, bound to the tenant that asked for it', async () => {
      const apiKey = newApiKey()
      await client().call('POST', '/v2/client-ids', { apiKey, body: basic })
      const session = await client().call('POST', '/__sandbox/sessions', { apiKey, body: { ttlSeconds: 60 } })
      expect(session.status).toBe(201)
      expect(session.body).toMatchObject({
        token: expect.stringMatching(/^sess_[0-9a-f]{48}$/),
        tokenType: 'Bearer',
      })
      const bearer = { authorization: `Bearer ${session.body.token}` }
      const list = await client().call('GET', '/v2/client-ids', { apiKey: null, headers: bearer })
      expect(list.status).toBe(200)
      expect(list.body).toHaveLength(1)
      const created = await client().call('POST', '/v2/client-ids', {
        apiKey: null,
        headers: bearer,
        body: basic,
      })
      expect(created.status).toBe(201)
      expect((await client().call('GET', '/v2/client-ids', { apiKey })).body).toHaveLength(2)

      // sessions do not open the payer endpoints, and client IDs do not open the client-ids endpoints
      expect(
        (await client().call('POST', '/v2/payer', { apiKey: null, headers: bearer, body: payerBody() }))
          .status,
      ).toBe(401)
      const cid = { 'x-client-id': created.body.clientId, origin: 'https://example.com' }
      expect((await client().call('GET', '/v2/client-ids', { apiKey: null, headers: cid })).status).toBe(401)

      const wrong = await client().call('GET', '/v2/client-ids', {
        apiKey: null,
        headers: { authorization: 'Bearer sess_nope' },
      })
      expect(wrong.status).toBe(401)
      expect(wrong.body).toEqual({
        statusCode: 401,
        message: 'Invalid or expired session token',
        error: 'Unauthorized',
      })
      await advance(client(), apiKey, 61)
      expect((await client().call('GET', '/v2/client-ids', { apiKey: null, headers: bearer })).status).toBe(
        401,
      )
    })

    it('ends a session with DELETE', async () => {
      const apiKey = newApiKey()
      const { body } = await client().call('POST', '/__sandbox/sessions', { apiKey })
      const bearer = { authorization: `Bearer ${body.token}` }
      expect((await client().call('GET', '/v2/client-ids', { apiKey: null, headers: bearer })).status).toBe(
        200,
      )
      expect((await client().call('DELETE', `/__sandbox/sessions/${body.token}`)).status).toBe(404)
      expect((await client().call('DELETE', `/__sandbox/sessions/${body.token}`, { apiKey })).status).toBe(
        200,
      )
      expect((await client().call('GET', '/v2/client-ids', { apiKey: null, headers: bearer })).status).toBe(
        401,
      )
    })
  },
)
