// GET /v2/request?walletAddress=&limit=&offset=: the key's requests paid to a wallet, newest first, paged. Not in
// either published document: checked against the production document's shape (RequestControllerV2_listRequests_v2).
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

const nullable = (type: string, format?: string) => ({
  anyOf: [{ type, ...(format ? { format } : {}) }, { type: 'null' }],
})
/** The 200 of the production document (api-contract §2), as JSON Schema. */
const listSchema = {
  type: 'object',
  required: ['requests', 'pagination'],
  properties: {
    requests: {
      type: 'array',
      items: {
        type: 'object',
        required: ['requestId', 'paymentReference', 'invoiceCurrency', 'paymentCurrency', 'hasBeenPaid'],
        additionalProperties: false,
        properties: {
          requestId: { type: 'string' },
          paymentReference: { type: 'string' },
          amount: nullable('string'),
          invoiceCurrency: { type: 'string' },
          paymentCurrency: { type: 'string' },
          hasBeenPaid: { type: 'boolean' },
          status: nullable('string'),
          reference: nullable('string'),
          createdAt: nullable('string', 'date-time'),
          txHash: nullable('string'),
          payee: nullable('string'),
          payer: nullable('string'),
        },
      },
    },
    pagination: {
      type: 'object',
      required: ['total', 'limit', 'offset'],
      properties: { total: { type: 'number' }, limit: { type: 'number' }, offset: { type: 'number' } },
    },
  },
}
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats.default(ajv)
const validateList = ajv.compile(listSchema)

const wallet = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const other = '0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570'
const body = (payee: string, amount: string, extra: Record<string, unknown> = {}) => ({
  amount,
  invoiceCurrency: 'USD',
  paymentCurrency: 'ETH-sepolia-sepolia',
  payee,
  ...extra,
})

describeTransports(
  'GET /v2/request through %s',
  () => t,
  (client) => {
    const list = (apiKey: string | null, query: Record<string, string | undefined>) =>
      client().call('GET', '/v2/request', { apiKey, query })

    it("lists the key's requests paid to the wallet, newest first, in the documented shape", async () => {
      const apiKey = newApiKey()
      const ids: string[] = []
      for (const amount of ['1', '2', '3']) {
        const created = await client().call('POST', '/v2/request', {
          apiKey,
          body: body(wallet, amount, { reference: `INV-${amount}`, payer: other }),
        })
        ids.push(created.body.requestId)
        await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 60 } })
      }
      await client().call('POST', '/v2/request', { apiKey, body: body(other, '9') })
      // another key's request to the same wallet is not listed
      await client().call('POST', '/v2/request', { apiKey: newApiKey(), body: body(wallet, '7') })

      const res = await list(apiKey, { walletAddress: wallet.toLowerCase() })
      expect(res.status).toBe(200)
      expect(validateList(res.body), ajv.errorsText(validateList.errors)).toBe(true)
      expect(res.body.requests.map((r: { requestId: string }) => r.requestId)).toEqual([...ids].reverse())
      expect(res.body.pagination).toEqual({ total: 3, limit: 20, offset: 0 })
      const [newest] = res.body.requests
      const status = await client().call('GET', `/v2/request/${ids[2]}`, { apiKey })
      expect(newest).toEqual({
        requestId: ids[2],
        paymentReference: status.body.paymentReference,
        amount: '3',
        invoiceCurrency: 'USD',
        paymentCurrency: 'ETH-sepolia-sepolia',
        hasBeenPaid: false,
        status: 'pending',
        reference: 'INV-3',
        createdAt: expect.any(String),
        txHash: null,
        payee: wallet,
        payer: other,
      })
      expect(Date.parse(newest.createdAt)).toBeGreaterThan(Date.parse(res.body.requests[1].createdAt))
    })

    it('pages with limit and offset (string query parameters) and counts the total', async () => {
      const apiKey = newApiKey()
      const ids: string[] = []
      for (let i = 1; i <= 5; i++) {
        const created = await client().call('POST', '/v2/request', { apiKey, body: body(wallet, String(i)) })
        ids.push(created.body.requestId)
      }
      const newestFirst = [...ids].reverse()
      const page = await list(apiKey, { walletAddress: wallet, limit: '2', offset: '1' })
      expect(page.status).toBe(200)
      expect(page.body.requests.map((r: { requestId: string }) => r.requestId)).toEqual(
        newestFirst.slice(1, 3),
      )
      expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 1 })
      const past = await list(apiKey, { walletAddress: wallet, limit: '100', offset: '10' })
      expect(past.body).toEqual({ requests: [], pagination: { total: 5, limit: 100, offset: 10 } })
      const none = await list(apiKey, { walletAddress: other })
      expect(none.body).toEqual({ requests: [], pagination: { total: 0, limit: 20, offset: 0 } })
    })

    it.each([
      ['a malformed walletAddress', { walletAddress: '0x1234' }, 'walletAddress'],
      ['a limit over 100', { walletAddress: wallet, limit: '101' }, 'limit'],
      ['a limit of 0', { walletAddress: wallet, limit: '0' }, 'limit'],
      ['a non-numeric offset', { walletAddress: wallet, offset: 'ten' }, 'offset'],
      ['a negative offset', { walletAddress: wallet, offset: '-1' }, 'offset'],
    ])('answers %s with 400 Validation failed naming the field', async (_name, query, field) => {
      const res = await list(newApiKey(), query)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field])
    })

    it("answers a client ID (x-client-id + Origin) with its creator's requests", async () => {
      const apiKey = newApiKey()
      const shop = 'https://shop.example.com'
      const id = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'widget', allowedDomains: [shop] },
      })
      const created = await client().call('POST', '/v2/request', { apiKey, body: body(wallet, '5') })
      const res = await client().call('GET', '/v2/request', {
        apiKey: null,
        headers: { 'x-client-id': id.body.clientId, origin: shop },
        query: { walletAddress: wallet },
      })
      expect(res.status).toBe(200)
      expect(res.body.requests.map((r: { requestId: string }) => r.requestId)).toEqual([
        created.body.requestId,
      ])
    })

    it('needs a credential', async () => {
      const res = await list(null, { walletAddress: wallet })
      expect(res.status).toBe(401)
    })
  },
)
