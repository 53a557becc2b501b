// GET /v2/request/{requestId}/routes (and v1 by reference): what real clients ask before /pay. Every route listed
// must be one /pay accepts with the route's chain and token.
import { expect, it } from 'vitest'
import { createRequestWith, describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { networks: ['base', 'arbitrum-one', 'sepolia'] })

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const feeAddress = '0x1111111111111111111111111111111111111111'

describeTransports(
  'payment routes through %s',
  () => t,
  (client) => {
    const create = (apiKey: string, body: Record<string, unknown>) =>
      createRequestWith(client(), apiKey, body)

    it('offers the same-chain Request Network route first, shaped as documented', async () => {
      const apiKey = newApiKey()
      const { requestId, paymentReference } = await create(apiKey, {
        amount: '10',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/routes`, { apiKey, query: { wallet } })
      expect(res.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v2/request/{requestId}/routes', 200, res.body)
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}/routes', 200, res.body)
      expect(res.body.routes).toEqual([
        expect.objectContaining({
          id: 'REQUEST_NETWORK_PAYMENT',
          fee: 0,
          speed: 'FAST',
          price_impact: 0,
          chain: 'SEPOLIA',
          token: 'FAU',
          feeBreakdown: [],
        }),
      ])
      const v1 = await client().call('GET', `/v1/request/${paymentReference}/routes`, {
        apiKey,
        query: { wallet },
      })
      expect(v1.body).toEqual(res.body)
    })

    it('prices a platform fee as a fraction with its breakdown and USD value', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '200',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/routes`, {
        apiKey,
        query: { wallet, feePercentage: '2.5', feeAddress },
      })
      const [direct] = res.body.routes
      expect(direct).toMatchObject({
        id: 'REQUEST_NETWORK_PAYMENT',
        chain: 'BASE',
        token: 'USDC',
        fee: 0.025,
        feeInUSD: '5',
      })
      expect(direct.feeBreakdown).toEqual([
        {
          type: 'platform',
          stage: 'sending',
          provider: 'request-network',
          amount: '5',
          amountInUSD: '5',
          currency: 'USDC',
          receiverAddress: feeAddress,
          network: 'base',
        },
      ])
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}/routes', 200, res.body)
    })

    it('counts the fee of a conversion request in its invoice currency', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '100',
        invoiceCurrency: 'USD',
        paymentCurrency: 'USDC-sepolia',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/routes`, {
        apiKey,
        query: { wallet, feePercentage: '1', feeAddress },
      })
      expect(res.status).toBe(200)
      const [direct] = res.body.routes
      expect(direct).toMatchObject({
        id: 'REQUEST_NETWORK_PAYMENT',
        chain: 'SEPOLIA',
        token: 'USDC',
        fee: 0.01,
        feeInUSD: '1',
      })
      expect(direct.feeBreakdown[0]).toMatchObject({
        type: 'platform',
        amount: '1',
        amountInUSD: '1',
        currency: 'USD',
      })
    })

    it('lists cross-chain routes from the live mainnets, and /pay accepts each with its chain and token', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '20',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/routes`, { apiKey, query: { wallet } })
      const ids = res.body.routes.map((r: { id: string }) => r.id)
      // arbitrum-one's USDC and USDT(0), and base's own USDT swapped into the request's USDC
      expect(ids).toEqual([
        'REQUEST_NETWORK_PAYMENT',
        'BASE_BASE_USDT_USDC',
        'ARBITRUM_BASE_USDC_USDC',
        'ARBITRUM_BASE_USDT_USDC',
      ])
      for (const route of res.body.routes.slice(1)) {
        expect(route).toMatchObject({ chain: route.id.split('_')[0], fee: 0.001, speed: 5 })
        const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
          apiKey,
          query: { wallet, chain: route.chain, token: route.token },
        })
        expect(pay.status, `${route.id}: ${JSON.stringify(pay.body)}`).toBe(200)
        expect(pay.body.paymentIntentId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      }
      const direct = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, query: { wallet } })
      expect(direct.body.metadata.paymentTransactionIndex).toBe(1)
    })

    it('marks a crypto-to-fiat request and offers no cross-chain route for it, nor for testnets or amounts under 1', async () => {
      const apiKey = newApiKey()
      const offramp = await create(apiKey, {
        amount: '50',
        invoiceCurrency: 'fUSDC-sepolia',
        paymentCurrency: 'fUSDC-sepolia',
        isCryptoToFiatAvailable: true,
      })
      const res = await client().call('GET', `/v2/request/${offramp.requestId}/routes`, {
        apiKey,
        query: { wallet },
      })
      expect(res.body.routes).toEqual([
        expect.objectContaining({ id: 'REQUEST_NETWORK_PAYMENT', chain: 'SEPOLIA', isCryptoToFiat: true }),
      ])
      const small = await create(apiKey, {
        amount: '0.5',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee,
      })
      const few = await client().call('GET', `/v2/request/${small.requestId}/routes`, {
        apiKey,
        query: { wallet },
      })
      expect(few.body.routes.map((r: { id: string }) => r.id)).toEqual(['REQUEST_NETWORK_PAYMENT'])
    })

    it('refuses a missing or invalid wallet and bad fee parameters, and 404s an unknown request', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      for (const query of [{}, { wallet: '0x12' }]) {
        const res = await client().call('GET', `/v2/request/${requestId}/routes`, { apiKey, query })
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          statusCode: 400,
          message: 'Invalid or missing wallet address',
          error: 'Bad Request',
        })
      }
      const fee = await client().call('GET', `/v2/request/${requestId}/routes`, {
        apiKey,
        query: { wallet, feePercentage: '3' },
      })
      expect(fee.status).toBe(400)
      expect(fee.body.errors[0].field).toBe('feeAddress')
      const missing = await client().call('GET', `/v2/request/01${'ab'.repeat(32)}/routes`, {
        apiKey,
        query: { wallet },
      })
      expect(missing.status).toBe(404)
    })
  },
)
