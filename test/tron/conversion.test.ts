// Tron payouts and requests priced in fiat (api-features/payouts.mdx, Tron tab: `invoiceCurrency: "USD"` paid in
// `USDT-tron`; resources/supported-chains-and-currencies.mdx: "Conversion payments (fiat-denominated)" on Tron),
// priced at the sandbox's rates, paid through ERC20FeeProxy with TronWeb unmodified, detected and read paid.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'
import { freshTronAddress, payWithTronWeb, type TronInfo, trc20Balance, tronInfo } from './steps.ts'

let t: Transports
let receiver: WebhookReceiver
let tron: TronInfo
beforeAll(async () => {
  ;[t, receiver] = await Promise.all([startTransports(newApiKey, { networks: ['tron'] }), startReceiver()])
  tron = await tronInfo(t.server.url)
})
afterAll(async () => {
  await t?.close()
  await receiver?.close()
})

describeTransports(
  'Tron conversion payments driven by TronWeb through %s',
  () => t,
  { http: 5, msw: 6 },
  (client, payerIndex) => {
    const call = (method: string, path: string, apiKey: string, body?: unknown) =>
      client().call(method, path, { apiKey, ...(body ? { body } : {}) })
    const untilPaid = (apiKey: string, requestId: string) =>
      waitFor(async () => {
        const res = await call('GET', `/v2/request/${requestId}`, apiKey)
        return res.body.hasBeenPaid ? res.body : undefined
      })

    it("pays payouts.mdx's Tron payout: 100 USD in USDT-tron, priced at the sandbox's rate, detected, read paid", async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const payee = freshTronAddress()
      const hook = await call('POST', '/v2/webhook', apiKey, { url: receiver.url })
      receiver.secret = hook.body.secret
      // the page's sample body (with a payee whose checksum is right), plus the payer's wallet
      const res = await call('POST', '/v2/payouts', apiKey, {
        amount: '100',
        invoiceCurrency: 'USD',
        paymentCurrency: 'USDT-tron',
        payee,
        reference: 'PAYOUT-001',
        payerWallet: payer.address,
      })
      expect(res.status, res.text).toBe(201)
      const payment = res.body.transactions.at(-1)
      expect(payment).toMatchObject({
        to: tron.contracts.ERC20FeeProxy,
        functionSelector: 'transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)',
      })
      expect(res.body.metadata).toMatchObject({ network: 'tron', hasEnoughBalance: true })
      const { txids } = await payWithTronWeb(tron, payer, res.body.transactions)
      const status = await untilPaid(apiKey, res.body.requestId)
      expect(status).toMatchObject({ status: 'paid', hasBeenPaid: true, conversionRate: '1' })
      expect(await trc20Balance(tron, tron.tokens['USDT-tron']!, payee)).toBe(100_000_000n)
      const payments = await call('GET', `/v2/payments?requestId=${res.body.requestId}`, apiKey)
      expect(payments.body.payments[0]).toMatchObject({
        sourceNetwork: 'tron',
        sourceTxHash: txids.at(-1),
      })
      const delivered = await waitFor(() =>
        receiver.received.find(
          (r) => r.body?.event === 'payment.confirmed' && r.body.requestId === res.body.requestId,
        ),
      )
      expect(delivered.signatureValid).toBe(true)
      expect(delivered.body).toMatchObject({ txHash: txids.at(-1), paymentCurrency: 'USDT' })
      expect(Number(delivered.body.amount)).toBe(100)
      // the payer in Tron form, as the payee and the transaction are (api-features/webhooks-events.mdx: payerAddress)
      expect(delivered.body).toMatchObject({ payerAddress: payer.address, payerEoaAddress: payer.address })
    })

    it('prices a EUR request in USDT-tron at the rate in force (a key that sets its own rate pays by it), partial then full', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const payee = freshTronAddress()
      const rates = await call('POST', '/__sandbox/rates', apiKey, {
        rates: [{ from: 'EUR', to: 'USD', rate: '1.25' }],
      })
      expect(rates.status, rates.text).toBeLessThan(300)
      const created = await call('POST', '/v2/request', apiKey, {
        payee,
        amount: '40',
        invoiceCurrency: 'EUR',
        paymentCurrency: 'USDT-tron',
      })
      expect(created.status, created.text).toBe(201)
      const { requestId } = created.body
      // 10 EUR now: 12.5 USDT
      const first = await call(
        'GET',
        `/v2/request/${requestId}/pay?wallet=${payer.address}&amount=10`,
        apiKey,
      )
      expect(first.status, first.text).toBe(200)
      await payWithTronWeb(tron, payer, first.body.transactions)
      await waitFor(async () => {
        const res = await call('GET', `/v2/request/${requestId}`, apiKey)
        return res.body.status === 'partially_paid' || res.body.conversionBreakdown ? res.body : undefined
      })
      expect(await trc20Balance(tron, tron.tokens['USDT-tron']!, payee)).toBe(12_500_000n)
      // the rest, 30 EUR: 37.5 USDT
      const rest = await call('GET', `/v2/request/${requestId}/pay?wallet=${payer.address}`, apiKey)
      expect(rest.status, rest.text).toBe(200)
      await payWithTronWeb(tron, payer, rest.body.transactions)
      const status = await untilPaid(apiKey, requestId)
      expect(status.hasBeenPaid).toBe(true)
      // each payment counts for the EUR it was quoted for: 1 USDT = 0.8 EUR
      const counted = status.conversionBreakdown.payments.map(
        (p: { amount: string; conversionRate: string }) => [Number(p.amount), Number(p.conversionRate)],
      )
      expect(counted).toEqual([
        [10, 0.8],
        [30, 0.8],
      ])
      expect(await trc20Balance(tron, tron.tokens['USDT-tron']!, payee)).toBe(50_000_000n)
      const again = await call('GET', `/v2/request/${requestId}/pay?wallet=${payer.address}`, apiKey)
      expect(again.status).toBe(400)
    })

    it("lists the Tron tokens among the fiat currencies' conversion routes (resources/supported-chains-and-currencies.mdx)", async () => {
      for (const fiat of ['USD', 'EUR', 'GBP', 'CNY', 'JPY']) {
        const res = await call('GET', `/v2/currencies/${fiat}/conversion-routes?network=tron`, newApiKey())
        expect(res.status).toBe(200)
        expect(res.body.conversionRoutes.map((c: { id: string; hash: string }) => [c.id, c.hash])).toEqual([
          ['USDT-tron', tron.tokens['USDT-tron']],
          ['USDC-tron', tron.tokens['USDC-tron']],
        ])
      }
    })

    it('refuses a Tron request invoiced in another token with a clear 400', async () => {
      const res = await call('POST', '/v2/request', newApiKey(), {
        payee: freshTronAddress(),
        amount: '1',
        invoiceCurrency: 'USDC-tron',
        paymentCurrency: 'USDT-tron',
      })
      expect(res.status).toBe(400)
      expect(JSON.stringify(res.body)).toMatch(/invoiced in fiat .* USDC-tron cannot be paid in USDT-tron/)
    })
  },
)
