// A request on base paid from arbitrum-one: the payer signs the intent the pay endpoint answers, sends it, and the
// sandbox operator settles it for real on both chains. The payee is paid on base through ERC20FeeProxy with the
// request's reference, the detector marks the request paid from that log, and the payer's arbitrum-one balance goes
// down by exactly the amounts the intent named. Its webhooks are the documented outcome only (payment.confirmed):
// api-features/webhooks-events.mdx defines `payment.processing` for crypto-to-fiat alone, so the settlement's steps
// are announced only in a world that opts in (the `crosschain-progress` scenario, a sandbox addition).
import { type Address, type Hex, maxUint256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { PERMIT2_ADDRESS } from '../../src/chain/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { type CrosschainAnswer, erc20PaymentLogs, signAnswer, walletOn } from '../support/crosschain.ts'
import { waitFor } from '../support/wait.ts'

const t = useTransports(newApiKey, { networks: ['base', 'arbitrum-one'] })

describeTransports(
  'a base request paid from arbitrum-one through %s',
  () => t,
  { http: 1, msw: 2 },
  (client, accountIndex) => {
    const base = () => t.sandbox.chains.get('base')!
    const arbitrum = () => t.sandbox.chains.get('arbitrum-one')!

    async function payCrosschain(token: 'USDC' | 'USDT', amount: string, scenario = 'default') {
      const apiKey = newApiKey()
      const headers = { 'x-sandbox-scenario': scenario }
      const payee = privateKeyToAccount(generatePrivateKey()).address
      const payer = walletOn(client(), arbitrum(), accountIndex)
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        headers,
        body: { amount, invoiceCurrency: 'USDC-base', paymentCurrency: 'USDC-base', payee },
      })
      const { requestId, paymentReference } = created.body as { requestId: string; paymentReference: Hex }
      const pay = await client().call<CrosschainAnswer>('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        headers,
        query: { wallet: payer.account.address, chain: 'ARBITRUM', token },
      })
      expect(pay.status).toBe(200)
      return { apiKey, headers, scenario, payee, payer, requestId, paymentReference, answer: pay.body }
    }

    async function expectSettled(
      run: Awaited<ReturnType<typeof payCrosschain>>,
      sourceId: string,
      before: bigint,
    ) {
      const { answer, paymentReference, payee, payer, apiKey } = run
      const sourceToken = arbitrum().tokens[sourceId]!
      const [log] = await waitFor(async () => {
        const logs = await erc20PaymentLogs(base(), paymentReference)
        return logs.length ? logs : undefined
      })
      expect(log!.address.toLowerCase()).toBe(base().contracts.ERC20FeeProxy!.toLowerCase())
      expect(log!.args).toMatchObject({
        tokenAddress: base().tokens['USDC-base'],
        to: payee,
        amount: 25_500_000n,
      })
      expect(await base().balanceOf(base().tokens['USDC-base']!, payee)).toBe(25_500_000n)

      const intent = JSON.parse(answer.paymentIntent)
      const named = intent.values.permitted.reduce(
        (sum: bigint, p: { amount: string }) => sum + BigInt(p.amount),
        0n,
      )
      expect(named).toBe(25_500_000n + 25_500n)
      expect(BigInt(intent.values.witness.amount)).toBe(named)
      expect(await arbitrum().balanceOf(sourceToken, payer.account.address as Address)).toBe(before - named)

      const world = t.sandbox.shared.tenants.get(apiKey, run.scenario)
      expect(world.events.some((e) => e.type === 'payment.failed')).toBe(false)

      // The detector marks the request paid on base from that log, as for any payment.
      const status = await waitFor(async () => {
        const res = await client().call('GET', `/v2/request/${run.requestId}`, {
          apiKey,
          headers: run.headers,
        })
        return res.body.hasBeenPaid ? res.body : undefined
      })
      expect(status).toMatchObject({ hasBeenPaid: true, status: 'paid', txHash: log!.transactionHash })
      const confirmed = await waitFor(() => world.events.find((e) => e.type === 'payment.confirmed'))
      expect(confirmed.payload).toMatchObject({
        requestId: run.requestId,
        paymentReference,
        txHash: log!.transactionHash,
      })
      return { world, log: log! }
    }

    it('settles a USDC request on base paid with arbitrum-one USDC and an EIP-2612 permit', async () => {
      const run = await payCrosschain('USDC', '25.5')
      expect(run.answer.metadata.supportsEIP2612).toBe(true)
      const sourceToken = arbitrum().tokens['USDC-arbitrum-one']!
      const before = await arbitrum().balanceOf(sourceToken, run.payer.account.address)
      expect(await arbitrum().allowance(sourceToken, run.payer.account.address, PERMIT2_ADDRESS)).toBe(0n)
      const body = await signAnswer(run.payer.account, run.answer)
      expect(body.signedApprovalPermit).toBeDefined()
      const sent = await client().call('POST', `/v2/request/payment-intents/${run.answer.paymentIntentId}`, {
        apiKey: run.apiKey,
        body,
      })
      expect(sent.status).toBe(200)
      const { world } = await expectSettled(run, 'USDC-arbitrum-one', before)
      // api-features/webhooks-events.mdx: payment.processing is crypto-to-fiat's; the outcome alone is announced
      expect(world.events.map((e) => e.type)).toEqual(['payment.confirmed'])
      // the payer never sent a transaction on arbitrum-one: the operator submitted the signed permit
      expect(await arbitrum().allowance(sourceToken, run.payer.account.address, PERMIT2_ADDRESS)).toBe(
        maxUint256,
      )
      expect(await arbitrum().publicClient.getTransactionCount({ address: run.payer.account.address })).toBe(
        0,
      )
    })

    it('announces the settlement steps as payment.processing only when the world opts in (crosschain-progress)', async () => {
      const run = await payCrosschain('USDC', '25.5', 'crosschain-progress')
      const sourceToken = arbitrum().tokens['USDC-arbitrum-one']!
      const before = await arbitrum().balanceOf(sourceToken, run.payer.account.address)
      const sent = await client().call('POST', `/v2/request/payment-intents/${run.answer.paymentIntentId}`, {
        apiKey: run.apiKey,
        headers: run.headers,
        body: await signAnswer(run.payer.account, run.answer),
      })
      expect(sent.status).toBe(200)
      const { world, log } = await expectSettled(run, 'USDC-arbitrum-one', before)
      const processing = await waitFor(() => {
        const events = world.events.filter((e) => e.type === 'payment.processing')
        return events.length === 3 ? events : undefined
      })
      expect(processing.map((e) => e.payload.subStatus)).toEqual([
        'crosschain_initiated',
        'source_funds_received',
        'destination_payment_sent',
      ])
      expect(processing[2]!.payload).toMatchObject({
        requestId: run.requestId,
        paymentReference: run.paymentReference,
        paymentIntentId: run.answer.paymentIntentId,
        txHash: log.transactionHash,
      })
    })

    it('settles the same request paid with arbitrum-one USDT0, which has no permit: approval first', async () => {
      const run = await payCrosschain('USDT', '25.5')
      expect(run.answer.metadata.supportsEIP2612).toBe(false)
      expect(run.answer).not.toHaveProperty('approvalPermitPayload')
      const sourceToken = arbitrum().tokens['USDT0-arbitrum-one']!
      expect(run.answer.approvalCalldata!.to).toBe(sourceToken)
      await run.payer.send(run.answer.approvalCalldata!)
      const before = await arbitrum().balanceOf(sourceToken, run.payer.account.address)
      const body = await signAnswer(run.payer.account, run.answer)
      expect(body.signedApprovalPermit).toBeUndefined()
      const sent = await client().call('POST', `/v2/request/payment-intents/${run.answer.paymentIntentId}`, {
        apiKey: run.apiKey,
        body,
      })
      expect(sent.status).toBe(200)
      await expectSettled(run, 'USDT0-arbitrum-one', before)
    })
  },
)
