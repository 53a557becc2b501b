// GET /v2/payments finds the caller's detected payments by transaction, wallet, reference, request, type,
// currencies and dates, newest first, with the documented pagination and 400s.
import { beforeAll, expect, it } from 'vitest'
import { createAndPay, freshAddress, untilPaid } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

describeTransports(
  'payment search through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    const apiKey = newApiKey()
    const payee = freshAddress()
    const made: { requestId: string; paymentReference: string; txHash: string }[] = []
    const search = (query: Record<string, string>, key = apiKey) =>
      client().call('GET', '/v2/payments', { apiKey: key, query })

    beforeAll(async () => {
      const bodies = [
        {
          amount: '12',
          invoiceCurrency: 'USDC-sepolia',
          paymentCurrency: 'USDC-sepolia',
          payee,
          reference: 'ORDER-1',
        },
        {
          amount: '20',
          invoiceCurrency: 'USD',
          paymentCurrency: 'USDC-sepolia',
          payee,
          reference: 'ORDER-2',
        },
        {
          amount: '0.01',
          invoiceCurrency: 'ETH-sepolia-sepolia',
          paymentCurrency: 'ETH-sepolia-sepolia',
          payee: freshAddress(),
        },
      ]
      for (const body of bodies) {
        const { requestId, paymentReference, receipts } = await createAndPay(
          t.sandbox,
          client(),
          apiKey,
          body,
          account,
          { feePercentage: '1', feeAddress: '0x1111111111111111111111111111111111111111' },
        )
        made.push({ requestId, paymentReference, txHash: receipts.at(-1)!.transactionHash })
        await untilPaid(client(), apiKey, requestId)
      }
    })

    it('finds a payment by transaction hash, shaped as documented', async () => {
      const res = await search({ txHash: made[0]!.txHash })
      expect(res.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/payments', 200, res.body)
      expect(res.body.pagination).toEqual({ total: 1, limit: 20, offset: 0, hasMore: false })
      expect(res.body.payments[0]).toMatchObject({
        amount: '12',
        sourceNetwork: 'sepolia',
        destinationNetwork: 'sepolia',
        sourceTxHash: made[0]!.txHash,
        destinationTxHash: null,
        type: 'direct',
        currency: 'USDC',
        paymentCurrency: 'USDC',
        conversionRateSource: null,
        rateProvider: null,
        request: {
          requestId: made[0]!.requestId,
          paymentReference: made[0]!.paymentReference,
          hasBeenPaid: true,
          reference: 'ORDER-1',
        },
      })
      expect(res.body.payments[0].fees).toContainEqual(
        expect.objectContaining({
          type: 'platform',
          amount: '0.12',
          currency: 'USDC',
          receiverAddress: '0x1111111111111111111111111111111111111111',
        }),
      )
    })

    it('filters by wallet, reference, request, type, currencies and dates, and combines filters with AND', async () => {
      const ids = async (query: Record<string, string>) =>
        (await search(query)).body.payments.map(
          (p: { request: { requestId: string } }) => p.request.requestId,
        )
      const [direct, conversion, eth] = made.map((m) => m.requestId)
      expect(await ids({ walletAddress: payee })).toEqual([conversion, direct])
      expect(await ids({ walletAddress: t.sandbox.chain!.accounts[account]!.address })).toEqual([
        eth,
        conversion,
        direct,
      ])
      expect(await ids({ paymentReference: made[1]!.paymentReference })).toEqual([conversion])
      expect(await ids({ requestId: eth! })).toEqual([eth])
      expect(await ids({ reference: 'ORDER-1' })).toEqual([direct])
      expect(await ids({ type: 'conversion' })).toEqual([conversion])
      expect(await ids({ invoiceCurrency: 'USD' })).toEqual([conversion])
      expect(await ids({ paymentCurrency: 'USDC' })).toEqual([conversion, direct])
      expect(await ids({ paymentCurrency: 'USDC', type: 'direct' })).toEqual([direct])
      expect(
        await ids({
          walletAddress: payee,
          fromDate: '2001-01-01T00:00:00.000Z',
          toDate: '2001-01-02T00:00:00Z',
        }),
      ).toEqual([])
      const conv = (await search({ type: 'conversion' })).body.payments[0]
      expect(conv).toMatchObject({
        currency: 'USD',
        paymentCurrency: 'USDC',
        convertedAmountSource: '20',
        rateProvider: 'chainlink',
      })
      const other = await search({ walletAddress: payee }, newApiKey())
      expect(other.body).toEqual({
        payments: [],
        pagination: { total: 0, limit: 20, offset: 0, hasMore: false },
      })
    })

    it('pages with limit and offset', async () => {
      const first = await search({ walletAddress: t.sandbox.chain!.accounts[account]!.address, limit: '2' })
      expect(first.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true })
      const second = await search({
        walletAddress: t.sandbox.chain!.accounts[account]!.address,
        limit: '2',
        offset: '2',
      })
      expect(second.body.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false })
      expect(second.body.payments).toHaveLength(1)
    })

    it.each([
      [{}, 'query'],
      [{ txHash: '0x1234' }, 'txHash'],
      [{ walletAddress: 'nope' }, 'walletAddress'],
      [{ type: 'refund' }, 'type'],
      [{ reference: 'x', fromDate: '2024-01-01' }, 'fromDate'],
      [{ reference: 'x', fromDate: '2024-02-01T00:00:00Z', toDate: '2024-01-01T00:00:00Z' }, 'toDate'],
      [{ reference: 'x', limit: '0' }, 'limit'],
      [{ reference: 'x', offset: '-1' }, 'offset'],
    ])('answers 400 Validation failed for %j naming %s', async (query, field) => {
      const res = await search(query)
      expect(res.status).toBe(400)
      assertMatchesDocument('v2', 'GET', '/v2/payments', 400, res.body)
      expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
    })

    it('answers 401 in the documented shape without credentials', async () => {
      const res = await client().call('GET', '/v2/payments', { apiKey: null, query: { reference: 'x' } })
      expect(res.status).toBe(401)
      assertMatchesDocument('v2', 'GET', '/v2/payments', 401, res.body)
    })
  },
)
