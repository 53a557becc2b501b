// The documented networks and tokens (issue 21 item 7). Pages: RequestNetwork/mintlify-docs
// resources/supported-chains-and-currencies.mdx (7 EVM chains with BNB Smart Chain `bsc`, chain id 56; USDT0 on
// Arbitrum One, Optimism and Polygon), resources/token-list.mdx (`bsc` among the destination networks),
// use-cases/quickstart.mdx (USDC and USDT addresses on BSC) and api-features/secure-payment-supported-networks-and-currencies.mdx;
// gasless approvals: api-features/secure-payment-pages.mdx#gasless-token-approvals-eip-2612 (release notes 2026-Q2).
import { type Address, type Hex, maxUint256 } from 'viem'
import { expect, it } from 'vitest'
import type { LiveChain } from '../../src/chain/index.ts'
import { freshAddress, until, untilPaid } from '../support/chain.ts'
import {
  type ApiClient,
  createRequestWith,
  describeTransports,
  newApiKey,
  useTransports,
} from '../support/clients.ts'
import { type CrosschainAnswer, signAnswer, walletOn } from '../support/crosschain.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { networks: ['bsc', 'optimism'] })

/** Creates a request in `currency` for a fresh payee, pays its calldata from `account` on `chain`, waits until paid. */
async function payOn(client: ApiClient, chain: LiveChain, account: number, currency: string, amount: string) {
  const apiKey = newApiKey()
  const payee = freshAddress()
  const created = await createRequestWith(client, apiKey, {
    amount,
    invoiceCurrency: currency,
    paymentCurrency: currency,
    payee,
  })
  const payer = walletOn(client, chain, account)
  const pay = await client.call('GET', `/v2/request/${created.requestId}/pay`, {
    apiKey,
    query: { wallet: payer.account.address },
  })
  expect(pay.status).toBe(200)
  for (const tx of pay.body.transactions) await payer.send(tx)
  const paid = await untilPaid(client, apiKey, created.requestId, { timeoutMs: 20_000 })
  return { apiKey, payee, created, pay: pay.body, paid: paid.value.body, payer }
}

describeTransports(
  'documented networks and tokens through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, account) => {
    it('lists bsc (USDC and USDT with 18 decimals) and USDT0 on arbitrum-one, optimism and matic', async () => {
      const bsc = await client().call('GET', '/v2/currencies', { query: { network: 'bsc' } })
      expect(bsc.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/currencies', 200, bsc.body)
      const byId = Object.fromEntries(bsc.body.map((c: { id: string }) => [c.id, c]))
      expect(Object.keys(byId).sort()).toEqual(['BNB-bsc', 'USDC-bsc', 'USDT-bsc'])
      expect(byId['USDC-bsc']).toMatchObject({
        address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
        decimals: 18,
        chainId: 56,
        type: 'ERC20',
      })
      expect(byId['USDT-bsc']).toMatchObject({
        address: '0x55d398326f99059fF775485246999027B3197955',
        decimals: 18,
        chainId: 56,
        type: 'ERC20',
      })
      const usdt0 = await client().call('GET', '/v2/currencies', { query: { symbol: 'USDT0' } })
      expect(usdt0.body.map((c: { id: string }) => c.id).sort()).toEqual([
        'USDT0-arbitrum-one',
        'USDT0-matic',
        'USDT0-optimism',
      ])
      for (const c of usdt0.body) expect(c).toMatchObject({ decimals: 6, type: 'ERC20' })
    })

    it('pays a USDT request on bsc on chain: the 18-decimal amount is transferred and the request is paid', async () => {
      const bsc = t.sandbox.shared.chains.get('bsc')!
      expect(bsc.chainId).toBe(56)
      const { paid, payee } = await payOn(client(), bsc, account, 'USDT-bsc', '12.5')
      expect(paid.hasBeenPaid).toBe(true)
      const usdt = '0x55d398326f99059fF775485246999027B3197955'
      expect(await bsc.balanceOf(usdt, payee)).toBe(12_500_000_000_000_000_000n)
    })

    it('pays a USDC payout link on bsc on chain (18 decimals): the link completes', async () => {
      const apiKey = newApiKey()
      const bsc = t.sandbox.shared.chains.get('bsc')!
      const payer = walletOn(client(), bsc, account)
      const recipient = freshAddress()
      const created = await client().call('POST', '/v2/secure-payments/payouts', {
        apiKey,
        body: {
          recipient,
          creatorWalletAddress: payer.account.address,
          network: 'bsc',
          currency: 'USDC-bsc',
          amount: '4',
        },
      })
      expect(created.status).toBe(201)
      const pay = await client().call('GET', `/v2/secure-payments/${created.body.token}/pay`, {
        apiKey,
        query: { wallet: payer.account.address },
      })
      expect(pay.status).toBe(200)
      expect(pay.body.approvalPermitPayload).toBeUndefined()
      for (const tx of pay.body.transactions) await payer.send(tx)
      await until(
        () => client().call('GET', `/v2/secure-payments/${created.body.token}`, { apiKey }),
        (res) => res.status === 409,
        { timeoutMs: 20_000 },
      )
      expect(await bsc.balanceOf(bsc.tokens['USDC-bsc']!, recipient)).toBe(4_000_000_000_000_000_000n)
    })

    it('pays an optimism USDC link cross-chain from bsc (chain=BNB, USDT with 18 decimals)', async () => {
      const apiKey = newApiKey()
      const bsc = t.sandbox.shared.chains.get('bsc')!
      const optimism = t.sandbox.shared.chains.get('optimism')!
      const payee = freshAddress()
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee, currency: 'USDC-optimism', amount: '5' }] },
      })
      const { token } = created.body
      const payer = walletOn(client(), bsc, account)
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { chain: 'BNB', token: 'USDT', wallet: payer.account.address },
      })
      expect(pay.status, pay.text).toBe(200)
      expect(pay.body.metadata).toMatchObject({ routeType: 'crosschain', supportsEIP2612: false })
      const intent = JSON.parse(pay.body.paymentIntent)
      expect(intent.domain.chainId).toBe(56)
      // 5 USDC (6 decimals) is 5 USDT of 18 decimals on bsc
      expect(intent.values.permitted[0].amount).toBe('5000000000000000000')
      await payer.send(pay.body.approvalCalldata)
      const recorded = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: {
          chain: 'BNB',
          token: 'USDT',
          paymentIntentId: pay.body.paymentIntentId,
          payerAddress: payer.account.address,
          ...(await signAnswer(payer.account, pay.body as CrosschainAnswer)),
        },
      })
      expect(recorded.status, recorded.text).toBe(200)
      await until(
        () => client().call('GET', `/v2/secure-payments/${token}`, { apiKey }),
        (res) => res.status === 409,
        { timeoutMs: 20_000 },
      )
      expect(await optimism.balanceOf(optimism.tokens['USDC-optimism']!, payee)).toBe(5_000_000n)
    })

    it('pays a batch on bsc (batch payments are EVM-wide) through BatchConversionPayments', async () => {
      const apiKey = newApiKey()
      const bsc = t.sandbox.shared.chains.get('bsc')!
      const payer = walletOn(client(), bsc, account)
      const payees = [freshAddress(), freshAddress()]
      const res = await client().call('POST', '/v2/payouts/batch', {
        apiKey,
        body: {
          requests: [
            { payee: payees[0], amount: '1.5', invoiceCurrency: 'USDT-bsc', paymentCurrency: 'USDT-bsc' },
            { payee: payees[1], amount: '2', invoiceCurrency: 'USDC-bsc', paymentCurrency: 'USDC-bsc' },
          ],
          payer: payer.account.address,
        },
      })
      expect(res.status, res.text).toBe(201)
      expect(res.body.batchPaymentTransaction.to).toBe(bsc.contracts.BatchConversionPayments)
      for (const approval of res.body.ERC20ApprovalTransactions) await payer.send(approval)
      await payer.send(res.body.batchPaymentTransaction)
      expect(await bsc.balanceOf(bsc.tokens['USDT-bsc']!, payees[0]!)).toBe(1_500_000_000_000_000_000n)
      expect(await bsc.balanceOf(bsc.tokens['USDC-bsc']!, payees[1]!)).toBe(2_000_000_000_000_000_000n)
    })

    it('pays a USDT0 request on optimism on chain', async () => {
      const optimism = t.sandbox.shared.chains.get('optimism')!
      const { paid, payee } = await payOn(client(), optimism, account, 'USDT0-optimism', '3')
      expect(paid.hasBeenPaid).toBe(true)
      expect(await optimism.balanceOf('0x01bFF41798a0BcF287b996046Ca68b395DbC1071', payee)).toBe(3_000_000n)
    })

    it('approves USDC gaslessly: the payer signs the permit /pay carries, sends no approve and the link is paid', async () => {
      const apiKey = newApiKey()
      const optimism = t.sandbox.shared.chains.get('optimism')!
      const payer = walletOn(client(), optimism, account)
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee: freshAddress(), currency: 'USDC-optimism', amount: '7' }] },
      })
      expect(created.status).toBe(201)
      const { token, requestIds } = created.body
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: payer.account.address },
      })
      expect(pay.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/{token}/pay', 200, pay.body)
      expect(pay.body.metadata).toMatchObject({ needsApproval: true, supportsEIP2612: true })
      const permit = JSON.parse(pay.body.approvalPermitPayload)
      const usdc = optimism.tokens['USDC-optimism']!
      const feeProxy = optimism.contracts.ERC20FeeProxy!
      expect(permit.domain).toEqual({
        name: 'USD Coin',
        version: '2',
        chainId: optimism.chainId,
        verifyingContract: usdc,
      })
      expect(permit.values).toMatchObject({
        owner: payer.account.address,
        spender: feeProxy,
        value: maxUint256.toString(),
      })
      const signature = await payer.account.signTypedData({
        domain: permit.domain,
        types: permit.types,
        primaryType: 'Permit',
        message: {
          ...permit.values,
          value: BigInt(permit.values.value),
          nonce: BigInt(permit.values.nonce),
          deadline: BigInt(permit.values.deadline),
        },
      })
      const sentBefore = await payer.publicClient.getTransactionCount({ address: payer.account.address })

      const forged = await client().call('POST', `/v2/secure-payments/${token}/permit`, {
        apiKey,
        body: { wallet: freshAddress(), signature, deadline: permit.values.deadline },
      })
      expect(forged.status).toBe(400)
      // the same permit twice at once: one is submitted, the replay answers 400 (never a 500)
      const submit = () =>
        client().call('POST', `/v2/secure-payments/${token}/permit`, {
          apiKey,
          body: { wallet: payer.account.address, signature, deadline: permit.values.deadline },
        })
      const both = await Promise.all([submit(), submit()])
      expect(both.map((r) => r.status).sort()).toEqual([200, 400])
      const submitted = both.find((r) => r.status === 200)!
      expect(submitted.body.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await optimism.allowance(usdc, payer.account.address as Address, feeProxy)).toBe(maxUint256)

      // only the payment: the approval transaction of the answer is not sent
      const payment = pay.body.transactions[pay.body.metadata.paymentTransactionIndex]
      expect(pay.body.transactions[pay.body.metadata.approvalTransactionIndex].to).toBe(usdc)
      await payer.send(payment as { to: Address; data: Hex; value: { type: 'BigNumber'; hex: Hex } })
      expect(await payer.publicClient.getTransactionCount({ address: payer.account.address })).toBe(
        sentBefore + 1,
      )
      await until(
        () => client().call('GET', `/v2/secure-payments/${token}`, { apiKey }),
        (res) => res.status === 409,
        { timeoutMs: 20_000 },
      )
      expect((await client().call('GET', `/v2/request/${requestIds[0]}`, { apiKey })).body.hasBeenPaid).toBe(
        true,
      )
    })

    it('keeps the approve transaction for USDT (no permit): no permit payload, and /permit answers 400', async () => {
      const apiKey = newApiKey()
      const optimism = t.sandbox.shared.chains.get('optimism')!
      const payer = walletOn(client(), optimism, account)
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee: freshAddress(), currency: 'USDT-optimism', amount: '2' }] },
      })
      const { token } = created.body
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: payer.account.address },
      })
      expect(pay.status).toBe(200)
      expect(pay.body.approvalPermitPayload).toBeUndefined()
      expect(pay.body.metadata.needsApproval).toBe(true)
      expect(pay.body.metadata.supportsEIP2612).toBeUndefined()
      const refused = await client().call('POST', `/v2/secure-payments/${token}/permit`, {
        apiKey,
        body: { wallet: payer.account.address, signature: `0x${'11'.repeat(65)}`, deadline: 4_000_000_000 },
      })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toContain('does not support EIP-2612 permit')
    })
  },
)
