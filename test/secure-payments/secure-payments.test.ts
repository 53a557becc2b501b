// /v2/secure-payments through both transports, on the local chain: links by payee + currency and by payee
// destination, display data, calldata paid with viem until the detector completes the link, the lookup by request,
// payout / batch / multicall links, fee preview, refresh, TRON and the documented errors.
import { privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

const shop = 'https://shop.example.com'
/** The batch endpoints' approvals carry `value: 0`; execute() reads BigNumber JSON. */
const zeroValue = (tx: { to: `0x${string}`; data: `0x${string}` }) => ({
  ...tx,
  value: { type: 'BigNumber' as const, hex: '0x0' as const },
})
const FAU = '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C'

describeTransports(
  'secure payments through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    const payerAddress = () => t.sandbox.chain!.accounts[account]!.address
    const create = async (apiKey: string, body: unknown) => {
      const res = await client().call('POST', '/v2/secure-payments', { apiKey, body })
      return res
    }
    const link = (apiKey: string, amount = '12.5', extra: Record<string, unknown> = {}) =>
      create(apiKey, {
        requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount }],
        feePercentage: '2',
        feeAddress: freshAddress(),
        reference: 'order-42',
        ...extra,
      })

    it('creates a link whose page follows the Host, shows it, pays it with viem, and completes once detected', async () => {
      const apiKey = newApiKey()
      const created = await link(apiKey)
      expect(created.status).toBe(201)
      assertMatchesDocument('v2', 'POST', '/v2/secure-payments', 201, created.body)
      const { token, requestIds, securePaymentUrl, feePlan } = created.body
      expect(new URL(securePaymentUrl).pathname).toBe('/__sandbox/secure-payment')
      expect(new URL(securePaymentUrl).searchParams.get('token')).toBe(token)
      expect(new URL(securePaymentUrl).origin).toBe(new URL(client().baseUrl).origin)
      expect(feePlan).toMatchObject({
        grossAmountUsd: '12.50',
        totalFeesUsd: '0.25',
        payerTotalAmountUsd: '12.75',
      })

      const shown = await client().call('GET', `/v2/secure-payments/${token}`, { apiKey })
      expect(shown.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/{token}', 200, shown.body)
      expect(shown.body).toMatchObject({
        paymentType: 'single',
        status: 'pending',
        amount: '12.5',
        paymentCurrency: 'FAU-sepolia',
        requestIds,
        reference: 'order-42',
      })

      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: payerAddress() },
      })
      expect(pay.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/{token}/pay', 200, pay.body)
      expect(pay.body.metadata).toMatchObject({
        paymentTransactionIndex: pay.body.transactions.length - 1,
        routeType: 'samechain',
        platformFee: { percentage: '2' },
        protocolFee: { percentage: '0' },
        costBreakdown: { fundingStatus: { hasEnoughPaymentToken: true } },
      })
      expect(Date.parse(pay.body.metadata.quoteExpiresAt)).toBeGreaterThan(Date.now() - 60_000)
      expect(pay.body.feeBundle.amountSummary).toMatchObject({
        grossAmount: '12.5',
        totalFees: '0.25',
        payerTotal: '12.75',
      })

      const receipts = await execute(t.sandbox, pay.body.transactions, account)
      const intent = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: {
          txHash: receipts.at(-1)!.transactionHash,
          chain: 'ETHEREUM',
          token: 'USDC',
          payerAddress: payerAddress(),
        },
      })
      expect(intent.status).toBe(200)
      assertMatchesDocument('v2', 'POST', '/v2/secure-payments/{token}/intent', 200, intent.body)
      // the detector may have seen the payment before this call: still recorded, then with nothing to listen for
      expect(intent.body).toMatchObject({ txHash: receipts.at(-1)!.transactionHash })
      expect(typeof intent.body.isListening).toBe('boolean')

      const { value: after } = await until(
        () => client().call('GET', `/v2/secure-payments/${token}`, { apiKey }),
        (res) => res.status === 409,
      )
      expect(after.body.message).toBe('Secure payment has already been completed')
      // once completed: the paying transaction can still be recorded (not listening), any other answers 409
      const late = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: {
          txHash: receipts.at(-1)!.transactionHash,
          chain: 'ETHEREUM',
          token: 'USDC',
          payerAddress: payerAddress(),
        },
      })
      expect(late.status).toBe(200)
      expect(late.body).toMatchObject({
        isListening: false,
        txHash: receipts.at(-1)!.transactionHash,
        intentId: intent.body.intentId,
      })
      const other = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: {
          txHash: `0x${'ab'.repeat(32)}`,
          chain: 'ETHEREUM',
          token: 'USDC',
          payerAddress: payerAddress(),
        },
      })
      expect(other.status).toBe(409)
      expect(other.body.message).toBe('Secure payment has already been completed')
      // the .checkout variant follows the base event (a listener of the event bus)
      const world = t.sandbox.shared.tenants.get(apiKey)
      await until(
        async () => world.events.map((e) => e.type),
        (types) => types.includes('payment.confirmed.checkout'),
      )
      const status = await client().call('GET', `/v2/request/${requestIds[0]}`, { apiKey })
      expect(status.body.hasBeenPaid).toBe(true)
      const byRequest = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: requestIds[0] },
      })
      expect(byRequest.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments', 200, byRequest.body)
      // the document's credential for the lookup: a session (Authorization: Bearer)
      const session = await client().call('POST', '/__sandbox/sessions', { apiKey, body: { ttlSeconds: 60 } })
      const bySession = await client().call('GET', '/v2/secure-payments', {
        apiKey: null,
        headers: { authorization: `Bearer ${session.body.token}` },
        query: { requestId: requestIds[0] },
      })
      expect(bySession.body).toEqual(byRequest.body)
      expect(byRequest.body).toMatchObject({
        token,
        status: 'completed',
        blockReason: 'already_paid',
        executionKind: 'evm_same_chain',
        payerAddress: expect.any(String),
      })
      expect(world.events.map((e) => e.type)).toContain('payment.confirmed')
      const paidAgain = await client().call('GET', `/v2/secure-payments/${token}/pay`, { apiKey })
      expect(paidAgain.status).toBe(409)
    })

    it('takes requests by payee destination (the caller’s own only) and answers documented errors', async () => {
      const apiKey = newApiKey()
      const ids = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'checkout', allowedDomains: [shop] },
      })
      const as = { apiKey: null, headers: { 'x-client-id': ids.body.clientId as string, origin: shop } }
      const wallet = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
      const data = await client().call('GET', '/v2/payee-destination/signing-data', {
        ...as,
        query: { walletAddress: wallet.address, action: 'add', tokenAddress: FAU, chainId: '11155111' },
      })
      const signature = await wallet.signTypedData({
        domain: data.body.domain,
        types: data.body.types,
        primaryType: data.body.primaryType,
        message: data.body.message,
      })
      const destination = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature, nonce: data.body.nonce },
      })
      expect(destination.status).toBe(201)
      const destinationId = destination.body.destinationId as string

      const created = await client().call('POST', '/v2/secure-payments', {
        ...as,
        body: { requests: [{ destinationId, amount: '3' }] },
      })
      expect(created.status).toBe(201)
      const shown = await client().call('GET', `/v2/secure-payments/${created.body.token}`, { ...as })
      expect(shown.body).toMatchObject({
        payee: wallet.address,
        paymentCurrency: 'FAU-sepolia',
        destination: { destinationId, payeeAddress: wallet.address },
      })
      // without destinationId nor payee: the client ID's destination
      const implicit = await client().call('POST', '/v2/secure-payments', {
        ...as,
        body: { requests: [{ amount: '1' }] },
      })
      expect(implicit.status).toBe(201)

      const other = await create(newApiKey(), { requests: [{ destinationId, amount: '3' }] })
      expect(other.status).toBe(403)
      const unknown = await create(apiKey, { requests: [{ destinationId: 'nope', amount: '3' }] })
      expect(unknown.status).toBe(400)
      expect(unknown.body.message).toBe('No active payment destination nope')
      const invalid = await create(apiKey, { requests: [] })
      expect(invalid.status).toBe(400)
      const missing = await client().call('GET', '/v2/secure-payments/01NOTATOKEN', { ...as })
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ statusCode: 404, message: 'Secure payment not found' })
      const byRequest = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: '01ab' },
      })
      expect(byRequest.status).toBe(404)
      const tron = await client().call('POST', `/v2/secure-payments/${created.body.token}/tron/broadcast`, {
        ...as,
        body: { signedTransaction: { raw_data_hex: 'ab', signature: ['cd'], raw_data: { contract: [{}] } } },
      })
      expect(tron.status).toBe(400)
      expect(tron.body.message).toMatch(/not on TRON/)
      const halfQuery = await client().call('GET', `/v2/secure-payments/${created.body.token}/pay`, {
        ...as,
        query: { chain: 'BASE' },
      })
      expect(halfQuery.status).toBe(400)
    })

    it('expires links after 7 days on the creator’s clock, and refuses a payer the link does not allow', async () => {
      const apiKey = newApiKey()
      const allowed = freshAddress()
      const created = await link(apiKey, '1', { accessPolicy: { allowedPayerAddresses: [allowed] } })
      const refused = await client().call('GET', `/v2/secure-payments/${created.body.token}/pay`, {
        apiKey,
        query: { wallet: payerAddress() },
      })
      expect(refused.status).toBe(403)
      // the payer recorded by /intent is a wallet address or nothing
      const notAWallet = await client().call('POST', `/v2/secure-payments/${created.body.token}/intent`, {
        apiKey,
        body: { txHash: `0x${'ab'.repeat(32)}`, chain: 'ETHEREUM', token: 'USDC', payerAddress: 'nobody' },
      })
      expect(notAWallet.status).toBe(400)
      expect(JSON.stringify(notAWallet.body)).toContain('payerAddress')
      const rejected = await client().call(
        'POST',
        `/__sandbox/secure-payments/${created.body.token}/user-events`,
        {
          apiKey: null,
          body: { userEvent: 'wallet_connected', walletAddress: payerAddress() },
        },
      )
      expect(rejected.status).toBe(403)
      const accepted = await client().call(
        'POST',
        `/__sandbox/secure-payments/${created.body.token}/user-events`,
        {
          apiKey: null,
          body: { userEvent: 'wallet_connected', walletAddress: allowed },
        },
      )
      expect(accepted.status).toBe(201)
      const events = t.sandbox.shared.tenants.get(apiKey).events
      expect(events.find((e) => e.type === 'secure_payment.access_rejected')!.payload).toMatchObject({
        requestId: created.body.requestIds[0],
        attemptedPayerWalletAddress: payerAddress().toLowerCase(),
        timestamp: expect.any(String),
      })
      expect(events.find((e) => e.type === 'secure_payment.user_event')!.payload).toMatchObject({
        userEvent: 'wallet_connected',
      })
      await client().call('POST', '/__sandbox/clock/advance', {
        apiKey,
        body: { seconds: 7 * 24 * 3600 + 1 },
      })
      const expired = await client().call('GET', `/v2/secure-payments/${created.body.token}`, {
        apiKey,
      })
      expect(expired.status).toBe(403)
      expect(expired.body.message).toBe('Secure payment token expired or invalid status')
    })

    it('makes payout links, combines them into a batch (the single tokens stop working) and a multicall selection', async () => {
      const apiKey = newApiKey()
      const payout = (amount: string) =>
        client().call('POST', '/v2/secure-payments/payouts', {
          apiKey,
          body: {
            recipient: freshAddress(),
            creatorWalletAddress: payerAddress(),
            network: 'sepolia',
            currency: 'FAU-sepolia',
            amount,
          },
        })
      const [a, b, c, d] = await Promise.all([payout('1'), payout('2'), payout('3'), payout('4')])
      expect(a!.status).toBe(201)
      assertMatchesDocument('v2', 'POST', '/v2/secure-payments/payouts', 201, a!.body)
      expect(a!.body.feePlan.flow).toBe('pay')
      const badNetwork = await client().call('POST', '/v2/secure-payments/payouts', {
        apiKey,
        body: {
          recipient: freshAddress(),
          creatorWalletAddress: payerAddress(),
          network: 'tron',
          currency: 'USDT',
          amount: '1',
        },
      })
      // an EVM recipient on Tron: the two address forms are not interchangeable
      expect(badNetwork.status).toBe(400)

      const batch = await client().call('POST', '/v2/secure-payments/batch-payouts', {
        apiKey,
        body: { tokens: [a!.body.token, b!.body.token] },
      })
      expect(batch.status).toBe(201)
      expect(batch.body.requestIds).toEqual([...a!.body.requestIds, ...b!.body.requestIds])
      const gone = await client().call('GET', `/v2/secure-payments/${a!.body.token}`, { apiKey })
      expect(gone.status).toBe(403)
      const again = await client().call('POST', '/v2/secure-payments/batch-payouts', {
        apiKey,
        body: { tokens: [a!.body.token, c!.body.token] },
      })
      expect(again.status).toBe(400)
      const shown = await client().call('GET', `/v2/secure-payments/${batch.body.token}`, { apiKey })
      expect(shown.body).toMatchObject({ paymentType: 'batch', amounts: ['1', '2'] })
      const batchPay = await client().call('GET', `/v2/secure-payments/${batch.body.token}/pay`, {
        apiKey,
        query: { wallet: payerAddress() },
      })
      expect(batchPay.status).toBe(200)
      expect(batchPay.body.metadata).toEqual({
        hasEnoughBalance: true,
        hasEnoughGas: true,
        canMakePayment: true,
      })
      const broke = await client().call('GET', `/v2/secure-payments/${batch.body.token}/pay`, {
        apiKey,
        query: { wallet: freshAddress() },
      })
      expect(broke.body.metadata).toEqual({
        hasEnoughBalance: false,
        hasEnoughGas: false,
        canMakePayment: false,
      })
      await execute(
        t.sandbox,
        [...batchPay.body.ERC20ApprovalTransactions.map(zeroValue), batchPay.body.batchPaymentTransaction],
        account,
      )
      await until(
        () => client().call('GET', `/v2/secure-payments/${batch.body.token}`, { apiKey }),
        (res) => res.status === 409,
      )

      const multicall = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: [c!.body.token, d!.body.token] },
      })
      expect(multicall.status).toBe(201)
      assertMatchesDocument('v2', 'POST', '/v2/secure-payments/multicall-payouts', 201, multicall.body)
      const state = await client().call(
        'GET',
        `/v2/secure-payments/multicall-payouts/${multicall.body.token}`,
        { apiKey },
      )
      expect(state.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/multicall-payouts/{token}', 200, state.body)
      expect(state.body).toMatchObject({ canExecute: true, totals: { childCount: 2, blockedChildCount: 0 } })
      const page = await client().call('GET', `/v2/secure-payments/${multicall.body.token}`, { apiKey })
      expect(page.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/{token}', 200, page.body)
      expect(page.body).toMatchObject({
        paymentType: 'multicall',
        children: [{ amount: '3' }, { amount: '4' }],
      })
      const multicallPay = await client().call('GET', `/v2/secure-payments/${multicall.body.token}/pay`, {
        apiKey,
        query: { wallet: payerAddress() },
      })
      expect(multicallPay.status).toBe(200)
      expect(multicallPay.body.metadata).toMatchObject({ canMakePayment: true })
      await execute(
        t.sandbox,
        [
          ...multicallPay.body.ERC20ApprovalTransactions.map(zeroValue),
          multicallPay.body.batchPaymentTransaction,
        ],
        account,
      )
      await until(
        () => client().call('GET', `/v2/secure-payments/${multicall.body.token}`, { apiKey }),
        (res) => res.status === 409,
      )
      const settled = await client().call(
        'GET',
        `/v2/secure-payments/multicall-payouts/${multicall.body.token}`,
        {
          apiKey,
        },
      )
      expect(settled.body).toMatchObject({ status: 'completed', canExecute: false })
      expect(settled.body.children.map((c: { blockReason: string }) => c.blockReason)).toEqual([
        'already_paid',
        'already_paid',
      ])
      const strict = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: [c!.body.token, d!.body.token], extra: 1 },
      })
      expect(strict.status).toBe(400)
      const unknown = await client().call('GET', '/v2/secure-payments/multicall-payouts/01NONE', { apiKey })
      expect(unknown.status).toBe(404)
    })

    it('previews the fee plan creation computes, and refreshes a step with a new deadline', async () => {
      const apiKey = newApiKey()
      const created = await link(apiKey, '40')
      const preview = await client().call('POST', '/v2/secure-payments/fees/preview', {
        apiKey,
        body: { amount: '40', currency: 'FAU-sepolia', flow: 'get_paid' },
      })
      expect(preview.status).toBe(200)
      assertMatchesDocument('v2', 'POST', '/v2/secure-payments/fees/preview', 200, preview.body)
      expect(preview.body).toMatchObject({
        grossAmountUsd: created.body.feePlan.grossAmountUsd,
        flow: 'get_paid',
      })
      // a link over requests in two currencies prices each in USD on its own
      const eth = { payee: freshAddress(), currency: 'ETH-sepolia-sepolia', amount: '0.5' }
      const fau = { payee: freshAddress(), currency: 'FAU-sepolia', amount: '40' }
      const [ethOnly, both] = await Promise.all([
        create(apiKey, { requests: [eth] }),
        create(apiKey, { requests: [eth, fau] }),
      ])
      expect(Number(both.body.feePlan.grossAmountUsd)).toBeCloseTo(
        Number(ethOnly.body.feePlan.grossAmountUsd) + Number(preview.body.grossAmountUsd),
        2,
      )
      const crossBatch = await client().call('GET', `/v2/secure-payments/${both.body.token}/pay`, {
        apiKey,
        query: { chain: 'BASE', token: 'USDC' },
      })
      expect(crossBatch.status).toBe(400)
      const unsupported = await client().call('POST', '/v2/secure-payments/fees/preview', {
        apiKey,
        body: { amount: '40', currency: 'NOPE', flow: 'pay' },
      })
      expect(unsupported.status).toBe(400)
      const step = {
        id: 's1',
        type: 'cross',
        tool: 'across',
        action: { toChainId: 11155111, toAddress: freshAddress() },
      }
      const refreshed = await client().call(
        'POST',
        `/v2/secure-payments/${created.body.token}/refresh-step-transaction`,
        { apiKey, body: { step } },
      )
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.executionDeadline).toBeGreaterThan(Date.now() / 1000)
      expect(refreshed.body.transactionRequest).toMatchObject({
        chainId: 11155111,
        to: expect.any(String),
        data: expect.stringMatching(/^0x/),
      })
      const wrongChain = await client().call(
        'POST',
        `/v2/secure-payments/${created.body.token}/refresh-step-transaction`,
        {
          apiKey,
          body: { step: { ...step, action: { ...step.action, toChainId: 8453 } } },
        },
      )
      expect(wrongChain.status).toBe(400)
    })

    it('refuses an expired multicall payout on every token route', async () => {
      const apiKey = newApiKey()
      const payout = () =>
        client().call('POST', '/v2/secure-payments/payouts', {
          apiKey,
          body: {
            recipient: freshAddress(),
            creatorWalletAddress: payerAddress(),
            network: 'sepolia',
            currency: 'FAU-sepolia',
            amount: '1',
          },
        })
      const [a, b] = await Promise.all([payout(), payout()])
      const multicall = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: [a!.body.token, b!.body.token] },
      })
      expect(multicall.status).toBe(201)
      const pay = () =>
        client().call('GET', `/v2/secure-payments/${multicall.body.token}/pay`, {
          apiKey,
          query: { wallet: payerAddress() },
        })
      expect((await pay()).status).toBe(200)
      await client().call('POST', '/__sandbox/clock/advance', {
        apiKey,
        body: { seconds: 7 * 24 * 3600 + 1 },
      })
      const expired = await pay()
      expect(expired.status).toBe(403)
      expect(expired.body.message).toBe('Secure payment token expired or invalid status')
      const shown = await client().call('GET', `/v2/secure-payments/${multicall.body.token}`, {
        apiKey,
      })
      expect(shown.status).toBe(403)
      const sent = await client().call(
        'POST',
        `/__sandbox/secure-payments/${multicall.body.token}/test-wallet/send`,
        { apiKey: null, body: { transaction: { to: FAU, data: '0x', value: '0' } } },
      )
      expect(sent.status).toBe(403)
    })

    it('has the test wallet send only what /pay answers, value included', async () => {
      const apiKey = newApiKey()
      const created = await create(apiKey, {
        requests: [{ payee: freshAddress(), currency: 'ETH-sepolia-sepolia', amount: '0.01' }],
      })
      expect(created.status).toBe(201)
      const { token } = created.body
      // the link owner's own test wallet (derived for its key), as the page reads it
      const chainInfo = await client().call('GET', `/__sandbox/secure-payments/${token}/chain`, {
        apiKey: null,
      })
      const testWallet = chainInfo.body.testWallet
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: testWallet },
      })
      const payment = pay.body.transactions.at(-1)
      const send = (transaction: unknown) =>
        client().call('POST', `/__sandbox/secure-payments/${token}/test-wallet/send`, {
          apiKey: null,
          body: { transaction },
        })
      const more = await send({ ...payment, value: (10n ** 18n).toString() })
      expect(more.status).toBe(400)
      expect(more.body.message).toBe('The test wallet only sends the transactions /pay returns for this link')
      const garbage = await send({ ...payment, value: 'lots' })
      expect(garbage.status).toBe(400)
      const sent = await send(payment)
      expect(sent.status).toBe(201)
      expect(sent.body.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    })
  },
)
