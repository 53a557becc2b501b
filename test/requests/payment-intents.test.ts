// Sending signed payment intents: what is refused (unknown, forged, mismatched, expired, replayed) and that a
// refusal moves nothing on either chain; what is accepted (v2 200, v1 201) settles, or fails with payment.failed.
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { PERMIT2_ADDRESS } from '../../src/chain/index.ts'
import { intentState } from '../../src/resources/payment-intents/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { type CrosschainAnswer, erc20PaymentLogs, signAnswer, walletOn } from '../support/crosschain.ts'
import { assertMatchesDocument } from '../support/openapi.ts'
import { waitFor } from '../support/wait.ts'

const t = useTransports(newApiKey, { networks: ['base', 'arbitrum-one'] })

const SEND = '/v2/request/payment-intents/{paymentIntentId}'
const notFound = { statusCode: 404, message: 'Payment intent data not found', error: 'Not Found' }

describeTransports(
  'payment intents through %s',
  () => t,
  { http: 3, msw: 4 },
  (client, accountIndex) => {
    const base = () => t.sandbox.chains.get('base')!
    const arbitrum = () => t.sandbox.chains.get('arbitrum-one')!
    const payer = () => walletOn(client(), arbitrum(), accountIndex)
    const send = (apiKey: string, id: string, body: unknown, version: 'v1' | 'v2' = 'v2') =>
      client().call(
        'POST',
        version === 'v2' ? `/v2/request/payment-intents/${id}` : `/v1/request/${id}/send`,
        {
          apiKey,
          body,
        },
      )

    async function issue(token: 'USDC' | 'USDT' = 'USDC', wallet: Address = payer().account.address) {
      const apiKey = newApiKey()
      const payee = privateKeyToAccount(generatePrivateKey()).address
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '7', invoiceCurrency: 'USDC-base', paymentCurrency: 'USDC-base', payee },
      })
      const pay = await client().call<CrosschainAnswer>('GET', `/v2/request/${created.body.requestId}/pay`, {
        apiKey,
        query: { wallet, chain: 'ARBITRUM', token },
      })
      expect(pay.status).toBe(200)
      return { apiKey, payee, reference: created.body.paymentReference, answer: pay.body }
    }

    /** Everything a settlement would change on either chain. */
    async function chainState(payee: Address) {
      const owner = payer().account.address
      const usdc = arbitrum().tokens['USDC-arbitrum-one']!
      const operator = arbitrum().roles.operator.address
      return Promise.all([
        arbitrum().balanceOf(usdc, owner),
        arbitrum().allowance(usdc, owner, PERMIT2_ADDRESS),
        base().balanceOf(base().tokens['USDC-base']!, payee),
        arbitrum().publicClient.getTransactionCount({ address: operator }),
        base().publicClient.getTransactionCount({ address: operator }),
      ])
    }

    it('refuses an unknown intent, or another tenant one, with 404 Payment intent data not found (v2 and v1)', async () => {
      const { answer } = await issue()
      const body = await signAnswer(payer().account, answer)
      for (const version of ['v2', 'v1'] as const) {
        const unknown = await send(newApiKey(), '01JNZYZPK7B4YBPD44TM72NDNJ', body, version)
        expect(unknown.status).toBe(404)
        expect(unknown.body).toEqual(notFound)
        const foreign = await send(newApiKey(), answer.paymentIntentId, body, version)
        expect(foreign.body).toEqual(notFound)
      }
    })

    it('refuses a forged intent (signed by another key) and a forged permit with 400, and nothing moves', async () => {
      const { apiKey, payee, answer } = await issue()
      const before = await chainState(payee)
      const forger = privateKeyToAccount(generatePrivateKey())
      const forged = await signAnswer(forger, answer)
      const res = await send(apiKey, answer.paymentIntentId, forged)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('Bad Request')
      expect(res.body.message).toBe(
        `signedPaymentIntent.signature was signed by ${forger.address}, not by the paying wallet ${payer().account.address}`,
      )
      const genuine = await signAnswer(payer().account, answer)
      const forgedPermit = await send(apiKey, answer.paymentIntentId, {
        ...genuine,
        signedApprovalPermit: forged.signedApprovalPermit,
      })
      expect(forgedPermit.status).toBe(400)
      expect(forgedPermit.body.message).toMatch(/^signedApprovalPermit\.signature was signed by 0x/)
      const garbage = await send(apiKey, answer.paymentIntentId, {
        signedPaymentIntent: { ...genuine.signedPaymentIntent, signature: '0x1234' },
      })
      expect(garbage.status).toBe(400)
      expect(garbage.body.message).toMatch(/^signedPaymentIntent\.signature is not a valid signature/)
      await new Promise((r) => setTimeout(r, 100))
      expect(await chainState(payee)).toEqual(before)
      expect(t.sandbox.shared.tenants.get(apiKey).events).toEqual([])
    })

    it('refuses a nonce or deadline other than the ones issued, and a permit for a token without EIP-2612', async () => {
      const { apiKey, answer } = await issue()
      const body = await signAnswer(payer().account, answer)
      const nonce = BigInt(body.signedPaymentIntent.nonce)
      const wrongNonce = await send(apiKey, answer.paymentIntentId, {
        signedPaymentIntent: { ...body.signedPaymentIntent, nonce: String(nonce + 1n) },
      })
      expect(wrongNonce.status).toBe(400)
      expect(wrongNonce.body.message).toBe(
        `signedPaymentIntent.nonce ${nonce + 1n} does not match the nonce issued with this payment intent (${nonce})`,
      )
      const wrongDeadline = await send(apiKey, answer.paymentIntentId, {
        signedPaymentIntent: { ...body.signedPaymentIntent, deadline: '1742205771' },
      })
      expect(wrongDeadline.body.message).toMatch(/^signedPaymentIntent\.deadline 1742205771 does not match/)
      const wrongPermitNonce = await send(apiKey, answer.paymentIntentId, {
        ...body,
        signedApprovalPermit: { ...body.signedApprovalPermit!, nonce: '7' },
      })
      expect(wrongPermitNonce.body.message).toMatch(/^signedApprovalPermit\.nonce 7 does not match/)

      const usdt = await issue('USDT')
      const usdtBody = await signAnswer(payer().account, usdt.answer)
      const withPermit = await send(usdt.apiKey, usdt.answer.paymentIntentId, {
        ...usdtBody,
        signedApprovalPermit: body.signedApprovalPermit,
      })
      expect(withPermit.status).toBe(400)
      expect(withPermit.body.message).toBe(
        'USDT0-arbitrum-one does not support EIP-2612: send approvalCalldata on arbitrum-one instead of a signedApprovalPermit',
      )
      const missing = await send(apiKey, answer.paymentIntentId, {
        signedApprovalPermit: body.signedApprovalPermit,
      })
      expect(missing.status).toBe(400)
      expect(missing.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
      expect(missing.body.errors[0].field).toBe('signedPaymentIntent')
    })

    it('settles a sent intent once: v2 answers 200, a replay is refused with 400 and pays nothing twice', async () => {
      const { apiKey, payee, reference, answer } = await issue()
      const body = await signAnswer(payer().account, answer)
      const sent = await send(apiKey, answer.paymentIntentId, body)
      expect(sent.status).toBe(200)
      assertMatchesDocument('v2', 'POST', SEND, 200, sent.body)
      await waitFor(async () => ((await erc20PaymentLogs(base(), reference)).length ? true : undefined))
      const world = t.sandbox.shared.tenants.get(apiKey)
      await waitFor(() =>
        intentState(world).paymentIntents.get(answer.paymentIntentId)!.status === 'completed'
          ? true
          : undefined,
      )
      const after = await chainState(payee)
      for (const version of ['v2', 'v1'] as const) {
        const replay = await send(apiKey, answer.paymentIntentId, body, version)
        expect(replay.status).toBe(400)
        expect(replay.body.message).toBe(
          `Payment intent ${answer.paymentIntentId} has already been sent; an intent can be used once (get a new one from the pay endpoint)`,
        )
      }
      await new Promise((r) => setTimeout(r, 100))
      expect(await chainState(payee)).toEqual(after)
      expect(await erc20PaymentLogs(base(), reference)).toHaveLength(1)
    })

    it('accepts v1 /send with 201 and settles the payment on base', async () => {
      const { apiKey, reference, answer } = await issue()
      const sent = await send(apiKey, answer.paymentIntentId, await signAnswer(payer().account, answer), 'v1')
      expect(sent.status).toBe(201)
      const [log] = await waitFor(async () => {
        const logs = await erc20PaymentLogs(base(), reference)
        return logs.length ? logs : undefined
      })
      expect(log!.args.amount).toBe(7_000_000n)
    })

    it('accepts an intent signed by an empty wallet, then announces payment.failed insufficient_funds and moves nothing', async () => {
      const empty = privateKeyToAccount(generatePrivateKey())
      const { apiKey, reference, answer } = await issue('USDC', empty.address)
      const sent = await send(apiKey, answer.paymentIntentId, await signAnswer(empty, answer))
      expect(sent.status).toBe(200)
      const world = t.sandbox.shared.tenants.get(apiKey)
      const failed = await waitFor(() => world.events.find((e) => e.type === 'payment.failed'))
      // api-reference/webhooks.mdx's Payment Failed example: these fields (and the timestamp every event has), no
      // more; the intent, networks and reason are the crosschain-progress scenario's (a sandbox addition)
      expect(failed.payload).toEqual({
        event: 'payment.failed',
        requestId: expect.any(String),
        requestID: expect.any(String),
        paymentReference: reference,
        subStatus: 'insufficient_funds',
        paymentProcessor: 'request-network',
        timestamp: expect.any(String),
      })
      expect(intentState(world).paymentIntents.get(answer.paymentIntentId)!.status).toBe('failed')
      expect(await erc20PaymentLogs(base(), reference)).toHaveLength(0)
      expect(
        await arbitrum().allowance(arbitrum().tokens['USDC-arbitrum-one']!, empty.address, PERMIT2_ADDRESS),
      ).toBe(0n)
    })

    it('settles two intents issued together from one wallet, though both permits carry the same permit nonce', async () => {
      const wallet = walletOn(client(), arbitrum(), accountIndex + 2)
      const first = await issue('USDC', wallet.account.address)
      const second = await issue('USDC', wallet.account.address)
      const permitNonce = (answer: CrosschainAnswer) => JSON.parse(answer.approvalPermitPayload!).values.nonce
      expect(permitNonce(first.answer)).toBe(permitNonce(second.answer))
      for (const run of [first, second]) {
        const sent = await send(
          run.apiKey,
          run.answer.paymentIntentId,
          await signAnswer(wallet.account, run.answer),
        )
        expect(sent.status).toBe(200)
        const world = t.sandbox.shared.tenants.get(run.apiKey)
        const status = await waitFor(() => {
          const s = intentState(world).paymentIntents.get(run.answer.paymentIntentId)!.status
          return s === 'completed' || s === 'failed' ? s : undefined
        })
        expect(status).toBe('completed')
        expect(await erc20PaymentLogs(base(), run.reference)).toHaveLength(1)
      }
    })

    // Last: moving this tenant's clock moves every chain's time forward for the rest of the file.
    it('refuses an intent whose deadline has passed on the tenant clock, and nothing moves', async () => {
      const { apiKey, payee, answer } = await issue()
      const body = await signAnswer(payer().account, answer)
      const deadline = Number(body.signedPaymentIntent.deadline)
      const to = new Date((deadline + 60) * 1000).toISOString()
      const advanced = await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { to } })
      expect(advanced.status).toBe(200)
      const before = await chainState(payee)
      const res = await send(apiKey, answer.paymentIntentId, body)
      expect(res.status).toBe(400)
      expect(res.body.message).toMatch(/^Payment intent has expired: its deadline .* has passed/)
      await new Promise((r) => setTimeout(r, 100))
      expect(await chainState(payee)).toEqual(before)
    })
  },
)
