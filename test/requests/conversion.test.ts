// Requests invoiced in fiat and paid in a token or ETH go through Request Network's conversion proxies on the
// embedded chain; the rates come from fixtures/rates.json, or from the tenant's own POST /__sandbox/rates.
import { type Address, decodeFunctionData, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { erc20Abi, erc20ConversionProxyAbi, ethConversionProxyAbi } from '../../src/chain/index.ts'
import { execute, freshAddress, until, untilPaid } from '../support/chain.ts'
import {
  clientOf,
  createRequestWith,
  describeTransports,
  newApiKey,
  useTransports,
} from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

const USD_HASH = '0x775EB53d00DD0Acd3EC1696472105d579B9b386b'
const feeAddress = '0x1111111111111111111111111111111111111111'

describeTransports(
  'conversion payments through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    const chain = () => t.sandbox.chain!
    const create = (apiKey: string, body: Record<string, unknown>) =>
      createRequestWith(client(), apiKey, body)
    const status = (apiKey: string, requestId: string) =>
      client().call('GET', `/v2/request/${requestId}`, { apiKey })

    it('pays a USD invoice in USDC through Erc20ConversionProxy: padded amount, path, max to spend, approval of the proxy', async () => {
      const apiKey = newApiKey()
      const payee = freshAddress()
      const { requestId, paymentReference } = await create(apiKey, {
        amount: '100',
        invoiceCurrency: 'USD',
        paymentCurrency: 'USDC-sepolia',
        payee,
      })
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { feePercentage: '1', feeAddress, wallet: chain().accounts[account]!.address },
      })
      expect(pay.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}/pay', 200, pay.body)
      const proxy = chain().contracts.Erc20ConversionProxy!
      expect(proxy).toBe('0xaD61121DAfAAe495095Cd466022b519Cb7503a4E')
      const [approve, payment] = pay.body.transactions
      expect(decodeFunctionData({ abi: erc20Abi, data: approve.data }).args[0]).toBe(proxy)
      expect(payment.to).toBe(proxy)
      const call = decodeFunctionData({ abi: erc20ConversionProxyAbi, data: payment.data })
      const usdc = chain().tokens['USDC-sepolia']!
      expect(call.args).toEqual([
        payee,
        100n * 10n ** 8n,
        [USD_HASH, usdc],
        paymentReference,
        1n * 10n ** 8n,
        feeAddress,
        (101n * 10n ** 6n * 102n) / 100n,
        0n,
      ])
      expect(pay.body.metadata).toMatchObject({
        needsApproval: true,
        hasEnoughBalance: true,
        hasEnoughGas: true,
      })

      await execute(t.sandbox, pay.body.transactions, account)
      expect(await chain().balanceOf(usdc, payee)).toBe(parseUnits('100', 6))
      expect(await chain().balanceOf(usdc, feeAddress as Address)).toBeGreaterThanOrEqual(parseUnits('1', 6))
      const { value: res } = await untilPaid(client(), apiKey, requestId)
      expect(res.body).toMatchObject({
        status: 'paid',
        paidAmount: '100',
        amountInUsd: '100.00',
        conversionRate: '1',
        rateSource: 'chainlink',
        payments: [{ amount: '100', paidAmount: '100', fee: '1', type: 'conversion' }],
        conversionBreakdown: {
          paidAmount: '100',
          paidAmountInUsd: '100.00',
          remainingAmount: '0',
          payments: [{ amount: '100', amountInUsd: '100.00', conversionRate: '1', rateSource: 'chainlink' }],
        },
      })
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, res.body)
      const [event] = t.sandbox.shared.tenants.get(apiKey).events
      expect(event!.payload).toMatchObject({
        amount: '100.0',
        currency: 'USD',
        paymentCurrency: 'USDC',
        rateProvider: 'chainlink',
      })
    })

    it('pays a USD invoice in ETH through EthConversionProxy: the value covers the quote plus slippage and the excess comes back', async () => {
      const apiKey = newApiKey()
      const payee = freshAddress()
      const { requestId } = await create(apiKey, {
        amount: '100',
        invoiceCurrency: 'USD',
        paymentCurrency: 'ETH-sepolia-sepolia',
        payee,
      })
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      const [payment] = pay.body.transactions
      expect(pay.body.transactions).toHaveLength(1)
      expect(payment.to).toBe(chain().contracts.EthConversionProxy)
      expect(BigInt(payment.value.hex)).toBe((parseEther('0.04') * 102n) / 100n)
      const call = decodeFunctionData({ abi: ethConversionProxyAbi, data: payment.data })
      expect(call.args[1]).toBe(100n * 10n ** 8n)
      const before = await chain().balanceOf('native', chain().accounts[account]!.address)
      const [receipt] = await execute(t.sandbox, pay.body.transactions, account)
      const after = await chain().balanceOf('native', chain().accounts[account]!.address)
      expect(before - after - receipt!.gasUsed * receipt!.effectiveGasPrice).toBe(parseEther('0.04'))
      expect(await chain().balanceOf('native', payee)).toBe(parseEther('0.04'))
      const { value: res } = await untilPaid(client(), apiKey, requestId)
      expect(res.body.payments).toEqual([
        expect.objectContaining({ amount: '100', paidAmount: '0.04', conversionRate: '2500' }),
      ])
    })

    it('keeps a partly paid EUR invoice open with its breakdown and no single rate', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '100',
        invoiceCurrency: 'EUR',
        paymentCurrency: 'fUSDT-sepolia',
        payee: freshAddress(),
      })
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { amount: '50' },
      })
      await execute(t.sandbox, pay.body.transactions, account)
      const { value: res } = await until(
        () => status(apiKey, requestId),
        (r) => r.body.payments.length === 1,
      )
      expect(res.body).toMatchObject({
        hasBeenPaid: false,
        status: 'partially_paid',
        conversionRate: null,
        payments: [{ amount: '50', paidAmount: '54' }],
        conversionBreakdown: {
          paidAmount: '50',
          paidAmountInUsd: '54.00',
          remainingAmount: '50',
          currentMarketRate: '0.925925925926',
        },
      })
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, res.body)
      const rest = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      const call = decodeFunctionData({
        abi: erc20ConversionProxyAbi,
        data: rest.body.transactions.at(-1).data,
      })
      expect(call.args[1]).toBe(50n * 10n ** 8n)
    })

    it("applies a tenant's own rate on chain without changing another tenant's", async () => {
      const alice = newApiKey()
      const bob = newApiKey()
      const set = await client().call('POST', '/__sandbox/rates', {
        apiKey: alice,
        body: { rates: [{ from: 'ETH-sepolia-sepolia', to: 'USD', rate: '3000' }] },
      })
      expect(set.status).toBe(200)
      expect(set.body.overridden).toEqual(['ETH-sepolia-sepolia'])
      expect(set.body.routes).toContainEqual(
        expect.objectContaining({ from: 'USD', to: 'ETH-sepolia-sepolia', rate: '0.000333333333' }),
      )
      const body = {
        amount: '30',
        invoiceCurrency: 'USD',
        paymentCurrency: 'ETH-sepolia-sepolia',
        payee: freshAddress(),
      }
      const a = await create(alice, body)
      const b = await create(bob, { ...body, payee: freshAddress() })
      const payA = await client().call('GET', `/v2/request/${a.requestId}/pay`, { apiKey: alice })
      const payB = await client().call('GET', `/v2/request/${b.requestId}/pay`, { apiKey: bob })
      // The chain's own integer math may drop a wei or two on an inverted feed.
      const near = (value: bigint, expected: bigint) =>
        expect(value - expected < 10n && expected - value < 10n).toBe(true)
      near(BigInt(payA.body.transactions[0].value.hex), (parseEther('0.01') * 102n) / 100n)
      near(BigInt(payB.body.transactions[0].value.hex), (parseEther('0.012') * 102n) / 100n)
      expect(payA.body.transactions[0].to).not.toBe(payB.body.transactions[0].to)
      await execute(t.sandbox, payA.body.transactions, account)
      near(await chain().balanceOf('native', body.payee as Address), parseEther('0.01'))
      await untilPaid(client(), alice, a.requestId)
      const reset = await client().call('DELETE', '/__sandbox/rates', { apiKey: alice })
      expect(reset.body.overridden).toEqual([])
      const again = await create(alice, { ...body, payee: freshAddress() })
      const payAgain = await client().call('GET', `/v2/request/${again.requestId}/pay`, { apiKey: alice })
      expect(payAgain.body.transactions[0].to).toBe(chain().contracts.EthConversionProxy)
    })

    it.each([
      [{ rates: [{ from: 'XYZ', to: 'USD', rate: '1' }] }, 'rates.0.from'],
      [{ rates: [{ from: 'EUR', to: 'USD', rate: '0' }] }, 'rates.0.rate'],
      [{ rates: [{ from: 'EUR', to: 'EUR', rate: '2' }] }, 'rates.0.to'],
      [{ rates: [{ from: 'EUR', to: 'USD', rate: '1'.padEnd(60, '0') }] }, 'rates.0.rate'],
      [{ rates: [{ from: 'USD', to: 'EUR', rate: '0.0000000000000000001' }] }, 'rates.0.rate'],
      [{ rates: [] }, 'rates'],
      [{}, 'rates'],
    ])('rejects rates %j with 400 Validation failed naming %s', async (body, field) => {
      const res = await client().call('POST', '/__sandbox/rates', { body })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
    })

    it('answers 400 for a conversion the sandbox has no route for', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '10',
        invoiceCurrency: 'JPY',
        paymentCurrency: 'ETH-sepolia-sepolia',
        payee: freshAddress(),
      })
      const res = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        statusCode: 400,
        message: 'No conversion route from JPY to ETH-sepolia-sepolia',
        error: 'Bad Request',
      })
    })
  },
)

describe('conversion routes of the live chain', () => {
  it('lists exactly the sepolia routes whose calldata executes on the chain', async () => {
    const http = clientOf(t, 'http')
    const apiKey = newApiKey()
    let executed = 0
    for (const fiat of ['USD', 'EUR', 'GBP', 'CNY', 'JPY']) {
      const routes = await http.call('GET', `/v2/currencies/${fiat}/conversion-routes`, {
        query: { network: 'sepolia' },
      })
      const ids: string[] = routes.body.conversionRoutes.map((c: { id: string }) => c.id)
      expect(ids.sort()).toEqual(
        [
          ...t.sandbox.shared.conversion
            .routes('sepolia')
            .filter((r) => r.from.id === fiat)
            .map((r) => r.to.id),
        ].sort(),
      )
      for (const id of ids) {
        const payee = freshAddress()
        const created = await http.call('POST', '/v2/request', {
          apiKey,
          body: { amount: '3', invoiceCurrency: fiat, paymentCurrency: id, payee },
        })
        const pay = await http.call('GET', `/v2/request/${created.body.requestId}/pay`, { apiKey })
        expect(pay.status, `${fiat} -> ${id}`).toBe(200)
        await execute(t.sandbox, pay.body.transactions, 5)
        executed++
      }
    }
    expect(executed).toBeGreaterThanOrEqual(18)
  })
})
