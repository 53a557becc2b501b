import { expect, it } from 'vitest'
import { describeTransports, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

describeTransports(
  'currencies through %s',
  () => t,
  (client) => {
    it('lists the seeded token list with real ids, decimals and chain ids', async () => {
      const res = await client().call('GET', '/v1/currencies')
      expect(res.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v1/currencies', 200, res.body)
      const ids = res.body.map((c: { id: string }) => c.id)
      for (const id of [
        'ETH-sepolia-sepolia',
        'FAU-sepolia',
        'USDC-sepolia',
        'fUSDC-sepolia',
        'USD',
        'EUR',
        'GBP',
        'CNY',
        'JPY',
      ]) {
        expect(ids).toContain(id)
      }
      const usdc = res.body.find((c: { id: string }) => c.id === 'USDC-sepolia')
      expect(usdc).toMatchObject({ decimals: 6, chainId: 11155111, type: 'ERC20', network: 'sepolia' })
      expect(res.body.some((c: Record<string, unknown>) => 'permit' in c)).toBe(false)
    })

    it('answers the list as UTF-8 with its exact length, and journals its size in bytes', async () => {
      const apiKey = `rn_test_bytes_${client().transport}_${Date.now()}`
      const res = await client().call('GET', '/v1/currencies', { apiKey })
      expect(res.status).toBe(200)
      // the list names tokens outside Latin-1 (₮): bytes and characters differ
      expect(res.text).toContain('₮')
      const bytes = Buffer.byteLength(res.text)
      if (res.headers.get('content-length') !== null)
        expect(Number(res.headers.get('content-length'))).toBe(bytes)
      const journal = await client().call('GET', '/__sandbox/journal', { apiKey })
      expect(journal.status).toBe(200)
      const entry = journal.body.entries.find((e: { path: string }) => e.path === '/v1/currencies')
      expect(entry.responseBody).toMatchObject({ truncated: true, bytes })
    })

    it('filters by network and symbol, case-insensitively', async () => {
      const res = await client().call('GET', '/v2/currencies', {
        query: { network: 'MAINNET', symbol: 'usdc' },
      })
      expect(res.status).toBe(200)
      expect(res.body).toHaveLength(1)
      expect(res.body[0].id).toBe('USDC-mainnet')
      assertMatchesDocument('v2', 'GET', '/v2/currencies', 200, res.body)
    })

    it('answers one object for id and for firstOnly', async () => {
      const byId = await client().call('GET', '/v1/currencies', { query: { id: 'USDC-mainnet' } })
      expect(byId.body).toMatchObject({
        id: 'USDC-mainnet',
        address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        decimals: 6,
      })
      assertMatchesDocument('full', 'GET', '/v1/currencies', 200, byId.body)
      const first = await client().call('GET', '/v1/currencies', {
        query: { network: 'sepolia', symbol: 'FAU', firstOnly: 'true' },
      })
      expect(Array.isArray(first.body)).toBe(false)
      expect(first.body.id).toBe('FAU-sepolia')
      const all = await client().call('GET', '/v1/currencies', {
        query: { network: 'sepolia', symbol: 'FAU', firstOnly: 'false' },
      })
      expect(all.body).toHaveLength(1)
    })

    it('rejects firstOnly as the service does: a zod issue list', async () => {
      const res = await client().call('GET', '/v1/currencies', {
        query: { network: 'mainnet', symbol: 'USDC', firstOnly: '1' },
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        statusCode: 400,
        message: [
          { code: 'custom', message: "firstOnly must be 'true' or 'false' if provided", path: ['firstOnly'] },
        ],
        error: 'Bad Request',
      })
      assertMatchesDocument('full', 'GET', '/v1/currencies', 400, res.body)
      const alone = await client().call('GET', '/v1/currencies', { query: { firstOnly: 'true' } })
      expect(alone.status).toBe(400)
      expect(alone.body.message[0].path).toEqual(['firstOnly'])
    })

    it('answers 404 Token not found for an unknown id', async () => {
      const res = await client().call('GET', '/v1/currencies', { query: { id: 'DOGE-mainnet' } })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ statusCode: 404, message: 'Token not found', error: 'Not Found' })
      assertMatchesDocument('full', 'GET', '/v1/currencies', 404, res.body)
    })

    it('lists conversion routes with lower-case hashes, by network and by networks', async () => {
      const all = await client().call('GET', '/v2/currencies/USD/conversion-routes')
      expect(all.status).toBe(200)
      expect(all.body.network).toBeNull()
      assertMatchesDocument('full', 'GET', '/v2/currencies/{currencyId}/conversion-routes', 200, all.body)
      const sepolia = await client().call('GET', '/v2/currencies/USD/conversion-routes', {
        query: { network: 'sepolia' },
      })
      const ids = sepolia.body.conversionRoutes.map((c: { id: string }) => c.id)
      expect(ids).toEqual(expect.arrayContaining(['ETH-sepolia-sepolia', 'FAU-sepolia', 'fUSDC-sepolia']))
      expect(
        sepolia.body.conversionRoutes.every(
          (c: { network: string; hash: string }) =>
            c.network === 'sepolia' && c.hash === c.hash.toLowerCase(),
        ),
      ).toBe(true)
      assertMatchesDocument('v2', 'GET', '/v2/currencies/{currencyId}/conversion-routes', 200, sepolia.body)
      const many = await client().call('GET', '/v2/currencies/USD/conversion-routes', {
        query: { networks: 'mainnet,matic' },
      })
      expect(many.body.networks).toEqual(['mainnet', 'matic'])
      expect(new Set(many.body.conversionRoutes.map((c: { network: string }) => c.network))).toEqual(
        new Set(['mainnet', 'matic']),
      )
      const missing = await client().call('GET', '/v2/currencies/XYZ/conversion-routes')
      expect(missing.status).toBe(404)
      assertMatchesDocument('full', 'GET', '/v2/currencies/{currencyId}/conversion-routes', 404, missing.body)
    })

    it('requires an API key: 401 in the service shape', async () => {
      const res = await client().call('GET', '/v1/currencies', { apiKey: null })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
    })
  },
)
