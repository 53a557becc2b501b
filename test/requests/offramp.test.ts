// A crypto-to-fiat request is paid to the sandbox's off-ramp deposit address; once detected, the off-ramp
// walks through the documented sub-statuses on the tenant clock and ends as the world's rules say.
import { type Address, decodeFunctionData, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import { advance, execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { createPayer, payerBody, usBankDetails } from '../support/compliance.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

describeTransports(
  'crypto-to-fiat payments through %s',
  () => t,
  { http: 5, msw: 6 },
  (client, account) => {
    const world = (apiKey: string) => t.sandbox.shared.tenants.get(apiKey)

    const clientUserId = payerBody().clientUserId as string
    const payerPath = `/__sandbox/payers/${encodeURIComponent(clientUserId)}`

    /** A compliant payer with an approved bank account: what an off-ramp payment needs. */
    async function offrampPayer(apiKey: string, compliant = true, approved = true) {
      await createPayer(client(), apiKey)
      if (compliant)
        await client().call('POST', `${payerPath}/compliance`, {
          apiKey,
          body: { kycStatus: 'approved', agreementStatus: 'completed' },
        })
      const detail = await client().call(
        'POST',
        `/v2/payer/${encodeURIComponent(clientUserId)}/payment-details`,
        {
          apiKey,
          body: usBankDetails,
        },
      )
      const paymentDetailsId = detail.body.payment_detail.id as string
      if (approved)
        await client().call('POST', `${payerPath}/payment-details/${paymentDetailsId}`, {
          apiKey,
          body: { status: 'approved' },
        })
      return { clientUserId, paymentDetailsId }
    }

    async function payOfframp(apiKey: string, payee?: string) {
      const query = await offrampPayer(apiKey)
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: {
          amount: '50',
          invoiceCurrency: 'USDC-sepolia',
          paymentCurrency: 'USDC-sepolia',
          isCryptoToFiatAvailable: true,
          ...(payee ? { payee } : {}),
        },
      })
      const { requestId } = created.body
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, query })
      expect(pay.status).toBe(200)
      const call = decodeFunctionData({ abi: erc20FeeProxyAbi, data: pay.body.transactions.at(-1).data })
      expect(call.args[1]).toBe(t.sandbox.shared.offrampAddress)
      await execute(t.sandbox, pay.body.transactions, account)
      const status = () => client().call('GET', `/v2/request/${requestId}`, { apiKey })
      const { value } = await until(status, (r) => r.body.payments.length === 1)
      return { requestId: requestId as string, status, first: value }
    }
    const paymentEvents = (apiKey: string) =>
      world(apiKey).events.filter((e) => e.type.startsWith('payment.'))
    const processing = (apiKey: string) =>
      world(apiKey)
        .events.filter((e) => e.type === 'payment.processing')
        .map((e) => e.payload.subStatus)

    it('moves an off-ramp through its sub-statuses to fiat_sent, then confirms the request as crypto-to-fiat', async () => {
      const apiKey = newApiKey()
      const usdc = t.sandbox.chain!.tokens['USDC-sepolia']!
      const before = await t.sandbox.chain!.balanceOf(usdc, t.sandbox.shared.offrampAddress as Address)
      const { requestId, status, first } = await payOfframp(apiKey)
      expect(await t.sandbox.chain!.balanceOf(usdc, t.sandbox.shared.offrampAddress as Address)).toBe(
        before + parseUnits('50', 6),
      )
      expect(first.body).toMatchObject({
        hasBeenPaid: false,
        status: 'processing',
        subStatus: 'initiated',
        isListening: false,
      })
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, first.body)
      expect(processing(apiKey)).toEqual(['initiated'])
      expect(paymentEvents(apiKey)[0]!.payload).toMatchObject({
        event: 'payment.processing',
        requestId,
        requestID: requestId,
        subStatus: 'initiated',
        paymentProcessor: 'request-tech',
        offrampId: expect.stringMatching(/^offramp_/),
      })

      for (const expected of ['pending_internal_assessment', 'ongoing_checks', 'sending_fiat']) {
        await advance(client(), apiKey, 5)
        expect((await status()).body).toMatchObject({
          hasBeenPaid: false,
          status: 'processing',
          subStatus: expected,
        })
      }
      await advance(client(), apiKey, 5)
      const done = await status()
      expect(done.body).toMatchObject({ hasBeenPaid: true, status: 'paid', subStatus: 'fiat_sent' })
      expect(paymentEvents(apiKey).map((e) => e.type)).toEqual([
        ...Array(5).fill('payment.processing'),
        'payment.confirmed',
      ])
      expect(processing(apiKey)).toEqual([
        'initiated',
        'pending_internal_assessment',
        'ongoing_checks',
        'sending_fiat',
        'fiat_sent',
      ])
      expect(paymentEvents(apiKey)[0]!.payload.rawPayload).toMatchObject({
        fiatCurrency: 'usd',
        clientUserId,
      })
      expect(paymentEvents(apiKey).at(-1)!.payload).toMatchObject({
        event: 'payment.confirmed',
        requestId,
        isCryptoToFiat: true,
        subStatus: 'fiat_sent',
        amount: '50.0',
        paymentProcessor: 'request-tech',
      })
    })

    it.each(['failed', 'bounced'] as const)(
      'ends in %s when the world says so, with payment.failed',
      async (outcome) => {
        const apiKey = newApiKey()
        world(apiKey).rules.offrampOutcome = outcome
        const { status } = await payOfframp(apiKey)
        await advance(client(), apiKey, 30)
        expect((await status()).body).toMatchObject({
          hasBeenPaid: false,
          status: 'failed',
          subStatus: outcome,
        })
        expect(processing(apiKey).at(-1)).toBe(outcome)
        const failed = world(apiKey).events.filter((e) => e.type === 'payment.failed')
        expect(failed).toHaveLength(1)
        expect(failed[0]!.payload).toMatchObject({ subStatus: outcome, paymentProcessor: 'request-tech' })
        expect(world(apiKey).events.some((e) => e.type === 'payment.confirmed')).toBe(false)
      },
    )
    it('sends an off-ramp payment of a request with a payee to the off-ramp address, not to the payee', async () => {
      const apiKey = newApiKey()
      const payee = freshAddress()
      const { status } = await payOfframp(apiKey, payee)
      expect(await t.sandbox.chain!.balanceOf(t.sandbox.chain!.tokens['USDC-sepolia']!, payee)).toBe(0n)
      expect((await status()).body).toMatchObject({ status: 'processing', subStatus: 'initiated' })
    })

    it('refuses off-ramp parameters, one missing condition at a time, in the service shape', async () => {
      const apiKey = newApiKey()
      const create = async (body: Record<string, unknown>) =>
        (
          await client().call('POST', '/v2/request', {
            apiKey,
            body: { amount: '5', invoiceCurrency: 'USDC-sepolia', paymentCurrency: 'USDC-sepolia', ...body },
          })
        ).body.requestId as string
      const c2f = await create({ isCryptoToFiatAvailable: true })
      const plain = await create({ payee: freshAddress() })
      const pay = (requestId: string, query: Record<string, string>) =>
        client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, query })
      const ids = { clientUserId, paymentDetailsId: '6f1c1f43-9a4c-4a0e-9d55-1f1b2c3d4e5f' }

      const noDetails = await pay(c2f, {})
      expect(noDetails.status).toBe(400)
      expect(noDetails.body.errors[0].field).toBe('clientUserId')
      expect((await pay(c2f, { clientUserId })).status).toBe(400)
      expect((await pay(plain, ids)).body).toEqual({
        statusCode: 400,
        message: 'Crypto-to-fiat payment is not available for this request',
        error: 'Bad Request',
      })
      expect((await pay(c2f, ids)).body).toEqual({
        statusCode: 404,
        message: `Payer with client user ID ${clientUserId} not found`,
        error: 'Not Found',
      })
      const { paymentDetailsId } = await offrampPayer(apiKey, false, false)
      const notCompliant = await pay(c2f, { clientUserId, paymentDetailsId })
      expect(notCompliant.status).toBe(400)
      expect(notCompliant.body.message).toMatch(/is not compliant/)
      await client().call('POST', `${payerPath}/compliance`, {
        apiKey,
        body: { kycStatus: 'approved', agreementStatus: 'completed' },
      })
      expect((await pay(c2f, ids)).body).toEqual({
        statusCode: 404,
        message: `Payment details with ID ${ids.paymentDetailsId} not found`,
        error: 'Not Found',
      })
      const pending = await pay(c2f, { clientUserId, paymentDetailsId })
      expect(pending.status).toBe(400)
      expect(pending.body.message).toBe(
        `Payment details with ID ${paymentDetailsId} are not approved (status: pending)`,
      )
      await client().call('POST', `${payerPath}/payment-details/${paymentDetailsId}`, {
        apiKey,
        body: { status: 'approved' },
      })
      expect((await pay(c2f, { clientUserId, paymentDetailsId })).status).toBe(200)
    })
  },
)
