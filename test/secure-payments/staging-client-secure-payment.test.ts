// Acceptance of issue 21: a client written for the hosted service's staging environment (test/support/staging-client.ts)
// pays a secure payment link through GET /v2/secure-payments/{token}/pay with a plain viem wallet and sees the
// request paid. Pages: api-reference/secure-payments.mdx (Authentication: the token routes take `x-client-id` +
// Origin; the `/pay` answers' `value` is `0` same-chain and for a batch, `"0x0"` cross-chain) and
// api-features/secure-payment-integration-guide.mdx (items as {payee, amount, invoiceCurrency, paymentCurrency}).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshAddress, payer, until } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { stagingClient } from '../support/staging-client.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

const shop = 'https://shop.example.com'

describeTransports(
  'a staging client pays a secure payment link through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    const clientIdOf = async (apiKey: string) => {
      const created = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'checkout', allowedDomains: [shop] },
      })
      expect(created.status).toBe(201)
      return created.body.clientId as string
    }

    it('creates the link with its client ID, pays /pay as answered with viem, and sees the request paid', async () => {
      const apiKey = newApiKey()
      const staging = stagingClient({
        baseUrl: client().baseUrl,
        clientId: await clientIdOf(apiKey),
        origin: shop,
      })
      const link = await staging.createSecurePayment([
        {
          payee: freshAddress(),
          amount: '7.25',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
        },
      ])
      expect(await staging.securePayment(link.token)).toMatchObject({ status: 'pending' })
      const { wallet, publicClient } = payer(t.sandbox, account)
      const hashes = await staging.pay(link.token, wallet, publicClient)
      expect(hashes.length).toBeGreaterThanOrEqual(1)
      await until(
        () => staging.isCompleted(link.token),
        (done) => done,
      )
      expect(await staging.requestStatus(link.requestIds[0]!)).toMatchObject({ hasBeenPaid: true })
    })

    it('answers the token routes to the link’s own account only, with the documented value shapes', async () => {
      const apiKey = newApiKey()
      const clientId = await clientIdOf(apiKey)
      const own = { apiKey: null, headers: { 'x-client-id': clientId, origin: shop } }
      const created = await client().call('POST', '/v2/secure-payments', {
        ...own,
        body: {
          requests: [
            {
              payee: freshAddress(),
              amount: '2',
              invoiceCurrency: 'FAU-sepolia',
              paymentCurrency: 'FAU-sepolia',
            },
          ],
        },
      })
      expect(created.status).toBe(201)
      const { token } = created.body
      const wallet = t.sandbox.chain!.accounts[account]!.address
      // no credential, another account's client ID or API key: 401; its own client ID from a foreign Origin: 403
      const anonymous = await client().call('GET', `/v2/secure-payments/${token}`, { apiKey: null })
      expect(anonymous.status).toBe(401)
      const stranger = await clientIdOf(newApiKey())
      for (const path of [`/v2/secure-payments/${token}`, `/v2/secure-payments/${token}/pay`]) {
        const other = await client().call('GET', path, {
          apiKey: null,
          headers: { 'x-client-id': stranger, origin: shop },
        })
        expect(other.status).toBe(401)
        expect(other.body).toMatchObject({ statusCode: 401 })
      }
      const otherIntent = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey: null,
        headers: { 'x-client-id': stranger, origin: shop },
        body: { txHash: `0x${'ab'.repeat(32)}`, chain: 'ETHEREUM', token: 'USDC' },
      })
      expect(otherIntent.status).toBe(401)
      expect(
        (await client().call('GET', `/v2/secure-payments/${token}`, { apiKey: newApiKey() })).status,
      ).toBe(401)
      const foreignOrigin = await client().call('GET', `/v2/secure-payments/${token}`, {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: 'https://evil.example.com' },
      })
      expect(foreignOrigin.status).toBe(403)
      // the owner: by client ID (the documents) or by API key (their curl examples)
      const byClientId = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        ...own,
        query: { wallet },
      })
      expect(byClientId.status).toBe(200)
      expect(byClientId.body.transactions.map((tx: { value: unknown }) => tx.value)).toEqual(
        byClientId.body.transactions.map(() => 0),
      )
      const byKey = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet },
      })
      expect(byKey.status).toBe(200)
      // a native payment carries its wei as a hex string; a batch's values are 0 (ERC-20) as the reference shows
      const native = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee: freshAddress(), amount: '0.5', currency: 'ETH-sepolia-sepolia' }] },
      })
      const nativePay = await client().call('GET', `/v2/secure-payments/${native.body.token}/pay`, {
        apiKey,
        query: { wallet },
      })
      expect(nativePay.body.transactions.at(-1).value).toBe(`0x${(5n * 10n ** 17n).toString(16)}`)
      const batch = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: {
          requests: [
            { payee: freshAddress(), amount: '1', currency: 'FAU-sepolia' },
            { payee: freshAddress(), amount: '2', currency: 'FAU-sepolia' },
          ],
        },
      })
      const batchPay = await client().call('GET', `/v2/secure-payments/${batch.body.token}/pay`, {
        apiKey,
        query: { wallet: freshAddress() },
      })
      expect(batchPay.status).toBe(200)
      expect(batchPay.body.batchPaymentTransaction.value).toBe(0)
      for (const approval of batchPay.body.ERC20ApprovalTransactions) expect(approval.value).toBe(0)
      // the request's own /pay keeps the BigNumber JSON its page documents (api-setup/getting-started.mdx)
      const requestPay = await client().call('GET', `/v2/request/${created.body.requestIds[0]}/pay`, {
        apiKey,
        query: { wallet },
      })
      expect(requestPay.body.transactions.at(-1).value).toMatchObject({ type: 'BigNumber' })
      // the sandbox's hosted page reads the same answers without a client ID
      const page = await client().call('GET', `/__sandbox/secure-payments/${token}/pay`, {
        apiKey: null,
        query: { wallet },
      })
      expect(page.status).toBe(200)
      expect(page.body.transactions).toEqual(byClientId.body.transactions)
      // items need a payee with a currency; an invoice currency other than the payment currency is refused
      const mixed = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: {
          requests: [
            { payee: freshAddress(), amount: '1', invoiceCurrency: 'USD', paymentCurrency: 'FAU-sepolia' },
          ],
        },
      })
      expect(mixed.status).toBe(400)
      expect(mixed.body.message).toMatch(/invoiceCurrency must equal paymentCurrency/)
    })
  },
)
