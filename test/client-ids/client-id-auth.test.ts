import { decodeFunctionData, getAddress } from 'viem'
import { expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import { CORS_ALLOWED_HEADERS } from '../../src/pipeline/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

const shop = 'https://shop.example.com'
const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const platformFee = '0x1111111111111111111111111111111111111111'
const apiFee = '0x2222222222222222222222222222222222222222'
const invoice = { amount: '100', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee }

describeTransports(
  'client-ID authentication through %s',
  () => t,
  (client) => {
    const newClientId = async (apiKey: string, body: Record<string, unknown> = {}) => {
      const res = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'widget', allowedDomains: [shop], ...body },
      })
      expect(res.status).toBe(201)
      return res.body as { id: string; clientId: string }
    }
    const asClient = (clientId: string, origin: string | null = shop) => ({
      apiKey: null,
      headers: { 'x-client-id': clientId, ...(origin ? { origin } : {}) },
    })

    it("lets an active client ID, from an allowed Origin, act as its creator's tenant on requests, pay and currencies", async () => {
      const apiKey = newApiKey()
      const { id, clientId } = await newClientId(apiKey)
      const created = await client().call('POST', '/v2/request', { ...asClient(clientId), body: invoice })
      expect(created.status).toBe(201)
      const asOwner = await client().call('GET', `/v2/request/${created.body.requestId}`, { apiKey })
      expect(asOwner.status).toBe(200)
      const pay = await client().call('GET', `/v2/request/${created.body.requestId}/pay`, asClient(clientId))
      expect(pay.status).toBe(200)
      const routes = await client().call('GET', '/v2/currencies/USD/conversion-routes', asClient(clientId))
      expect(routes.status).toBe(200)
      // the payment widget's payout (A26): x-client-id, no API key
      const payout = await client().call('POST', '/v2/payouts', {
        ...asClient(clientId),
        body: { ...invoice, reference: 'order-1', customerInfo: { email: 'buyer@example.com' } },
      })
      expect(payout.status).toBe(201)
      expect(payout.body.transactions.length).toBeGreaterThanOrEqual(1)
      expect((await client().call('GET', `/v2/request/${payout.body.requestId}`, { apiKey })).status).toBe(
        200,
      )
      const record = await client().call('GET', `/v2/client-ids/${id}`, { apiKey })
      expect(record.body.lastUsedAt).toEqual(expect.any(String))
    })

    it('answers 401 to an unknown client ID and 403 to a missing Origin or one outside allowedDomains', async () => {
      const { clientId } = await newClientId(newApiKey())
      const unknown = await client().call('GET', '/v2/currencies', asClient('cli_000000000000'))
      expect(unknown.status).toBe(401)
      expect(unknown.body).toEqual({ statusCode: 401, message: 'Invalid client ID', error: 'Unauthorized' })
      const elsewhere = await client().call(
        'GET',
        '/v2/currencies',
        asClient(clientId, 'https://evil.example.com'),
      )
      expect(elsewhere.status).toBe(403)
      expect(elsewhere.body).toEqual({
        statusCode: 403,
        message: 'Origin https://evil.example.com is not allowed for this client ID',
        error: 'Forbidden',
      })
      expect(
        (await client().call('GET', '/v2/currencies', asClient(clientId, 'http://shop.example.com'))).status,
      ).toBe(403)
      expect((await client().call('GET', '/v2/currencies', asClient(clientId, null))).status).toBe(403)
      expect(
        (await client().call('GET', '/v2/currencies', asClient(clientId, 'https://SHOP.example.com'))).status,
      ).toBe(200)
    })

    it('answers 403 to an inactive ID, and a revoked ID can never be used again', async () => {
      const apiKey = newApiKey()
      const { id, clientId } = await newClientId(apiKey)
      await client().call('PUT', `/v2/client-ids/${id}`, { apiKey, body: { status: 'inactive' } })
      const inactive = await client().call('GET', '/v2/currencies', asClient(clientId))
      expect(inactive.status).toBe(403)
      expect(inactive.body.message).toBe('Client ID is inactive')
      await client().call('PUT', `/v2/client-ids/${id}`, { apiKey, body: { status: 'active' } })
      expect((await client().call('GET', '/v2/currencies', asClient(clientId))).status).toBe(200)

      await client().call('DELETE', `/v2/client-ids/${id}`, { apiKey })
      expect(
        (await client().call('PUT', `/v2/client-ids/${id}`, { apiKey, body: { status: 'active' } })).status,
      ).toBe(400)
      for (const [method, path] of [
        ['GET', '/v2/currencies'],
        ['POST', '/v2/request'],
      ] as const) {
        const res = await client().call(method, path, { ...asClient(clientId), body: invoice })
        expect(res.status).toBe(403)
        expect(res.body).toEqual({
          statusCode: 403,
          message: 'Client ID has been revoked',
          error: 'Forbidden',
        })
      }
    })

    it("answers 401 once the client ID's tenant has been reset", async () => {
      const apiKey = newApiKey()
      const { clientId } = await newClientId(apiKey)
      expect((await client().call('GET', '/v2/currencies', asClient(clientId))).status).toBe(200)
      t.sandbox.reset(apiKey)
      expect((await client().call('GET', '/v2/currencies', asClient(clientId))).status).toBe(401)
    })

    it('lets a back-end client ID (no allowed domains) call without Origin', async () => {
      const { clientId } = await newClientId(newApiKey(), { allowedDomains: [] })
      expect(
        (await client().call('POST', '/v2/request', { ...asClient(clientId, null), body: invoice })).status,
      ).toBe(201)
    })

    it('keeps client IDs off the endpoints that require the API key (payer, client-ids, v1)', async () => {
      const { clientId } = await newClientId(newApiKey())
      for (const path of ['/v2/payer/someone', '/v2/client-ids', '/v1/currencies', '/__sandbox/clock']) {
        expect((await client().call('GET', path, asClient(clientId))).status).toBe(401)
      }
    })

    it("applies the client ID's fee to pay calldata: 0 lets the API-passed fee win, any other value overrides it", async () => {
      const apiKey = newApiKey()
      const { body: request } = await client().call('POST', '/v2/request', { apiKey, body: invoice })
      const zero = await newClientId(apiKey, { feePercentage: '0', feeAddress: platformFee })
      const two = await newClientId(apiKey, { feePercentage: '2', feeAddress: platformFee })
      const none = await newClientId(apiKey)
      const query = { feePercentage: '1', feeAddress: apiFee }
      const feeOf = async (options: { apiKey?: string | null; headers?: Record<string, string> }) => {
        const res = await client().call('GET', `/v2/request/${request.requestId}/pay`, { ...options, query })
        expect(res.status).toBe(200)
        const tx = res.body.transactions[res.body.metadata.paymentTransactionIndex]
        const { args } = decodeFunctionData({ abi: erc20FeeProxyAbi, data: tx.data })
        return { amount: args[2], fee: args[4], feeAddress: getAddress(args[5]) }
      }
      const apiPassed = { amount: 100n * 10n ** 18n, fee: 10n ** 18n, feeAddress: getAddress(apiFee) }
      expect(await feeOf({ apiKey })).toEqual(apiPassed)
      expect(await feeOf(asClient(zero.clientId))).toEqual(apiPassed)
      expect(await feeOf(asClient(none.clientId))).toEqual(apiPassed)
      expect(await feeOf(asClient(two.clientId))).toEqual({
        amount: 100n * 10n ** 18n,
        fee: 2n * 10n ** 18n,
        feeAddress: getAddress(platformFee),
      })
    })

    it('answers CORS preflights allowing the headers browser apps send', async () => {
      const res = await fetch(`${client().baseUrl}/v2/request`, {
        method: 'OPTIONS',
        headers: {
          origin: shop,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-client-id,content-type',
        },
      })
      expect(res.status).toBe(204)
      const allowed = res.headers.get('access-control-allow-headers')!.split(',')
      for (const header of ['x-api-key', 'x-client-id', 'content-type', 'authorization']) {
        expect(allowed).toContain(header)
        expect(CORS_ALLOWED_HEADERS).toContain(header)
      }
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    })
  },
)
