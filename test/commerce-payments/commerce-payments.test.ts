// Commerce payments (preview): authorize → capture / void → refund through the sandbox's own escrow on anvil. Every
// step is executed on chain (by the payer, the merchant or the API operator) and checked by the token balances of
// payer, escrow and merchant; the status follows the escrow; each transition is one webhook event.
import { type Address, encodeFunctionData, parseUnits } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COMMERCE_ESCROW_ADDRESS, commerceEscrowAbi } from '../../src/chain/index.ts'
import { statusOf } from '../../src/resources/commerce-payments/index.ts'
import { type ApiTransaction, execute, freshAddress, untilPaid } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

let t: Transports
let receiver: WebhookReceiver
beforeAll(async () => {
  ;[t, receiver] = await Promise.all([startTransports(newApiKey), startReceiver()])
})
afterAll(async () => {
  await receiver?.close()
  await t?.close()
})

const BASE = '/v2/commerce-payments'
const units = (amount: string) => parseUnits(amount, 18)

it('derives the lifecycle from the hold (pure)', () => {
  const hold = {
    authorized: 10n,
    capturable: 10n,
    captured: 0n,
    refunded: 0n,
    voided: false,
    reclaimed: false,
  }
  expect(statusOf(null, 5, 10)).toBe('pending')
  expect(statusOf(null, 10, 10)).toBe('expired')
  expect(statusOf(hold, 0, 10)).toBe('authorized')
  expect(statusOf({ ...hold, capturable: 6n, captured: 4n }, 0, 10)).toBe('partially_captured')
  expect(statusOf({ ...hold, capturable: 0n, captured: 10n }, 0, 10)).toBe('captured')
  expect(statusOf({ ...hold, capturable: 0n, voided: true }, 0, 10)).toBe('voided')
  expect(statusOf({ ...hold, capturable: 0n, reclaimed: true }, 0, 10)).toBe('reclaimed')
  expect(statusOf({ ...hold, capturable: 0n, captured: 10n, refunded: 3n }, 0, 10)).toBe('partially_refunded')
  expect(statusOf({ ...hold, capturable: 0n, captured: 10n, refunded: 10n }, 0, 10)).toBe('refunded')
})

describeTransports(
  'commerce payments through %s',
  () => t,
  { http: { payer: 1, merchant: 2, operator: 7 }, msw: { payer: 3, merchant: 4, operator: 8 } },
  (client, accounts) => {
    const chain = () => t.sandbox.chain!
    const token = () => chain().tokens['FAU-sepolia']!
    const address = (index: number) => chain().accounts[index]!.address
    const balances = async (who: { payer: Address; merchant: Address; escrow: Address }) =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(who).map(async ([k, a]) => [k, await chain().balanceOf(token(), a)] as const),
        ),
      ) as { payer: bigint; merchant: bigint; escrow: bigint }
    const parties = () => ({
      payer: address(accounts.payer),
      merchant: address(accounts.merchant),
      escrow: COMMERCE_ESCROW_ADDRESS,
    })
    const events = (apiKey: string, prefix = 'commerce_payment.') =>
      t.sandbox.shared.tenants
        .get(apiKey)
        .events.filter((e) => e.type.startsWith(prefix))
        .map((e) => ({ type: e.type, ...e.payload }) as { type: string } & Record<string, unknown>)
    const authorizeCalldata = (apiKey: string, body: Record<string, unknown>) =>
      client().call('POST', `${BASE}/authorize/calldata`, { apiKey, body })
    const post = (apiKey: string, path: string, body: unknown = {}) =>
      client().call('POST', `${BASE}${path}`, { apiKey, body })
    const status = async (apiKey: string, requestId: string) =>
      (await client().call('GET', `${BASE}/${requestId}/status`, { apiKey })).body

    it('payer authorizes with the calldata, the API operator captures in two parts, the merchant refunds part', async () => {
      const apiKey = newApiKey()
      const before = await balances(parties())
      const created = await authorizeCalldata(apiKey, {
        amount: '10',
        paymentCurrency: 'FAU-sepolia',
        payer: parties().payer,
        payee: parties().merchant,
      })
      expect(created.status, created.text).toBe(200)
      const { requestId, paymentReference, transactions, metadata } = created.body
      expect(metadata).toMatchObject({
        network: 'sepolia',
        escrowAddress: COMMERCE_ESCROW_ADDRESS,
        payer: parties().payer,
        merchant: parties().merchant,
        operator: t.sandbox.shared.operator!.address,
        amount: '10',
        maxAmount: '10',
        needsApproval: true,
        hasEnoughBalance: true,
        sender: parties().payer,
      })
      expect(transactions).toHaveLength(2)
      expect(transactions[1].to).toBe(COMMERCE_ESCROW_ADDRESS)
      expect((await status(apiKey, requestId)).status).toBe('pending')

      // authorize: the payer's tokens move into escrow
      const [, authorization] = await execute(t.sandbox, transactions as ApiTransaction[], accounts.payer)
      // the dashboard's transaction view decodes the escrow's call and event, linked to the request
      const read = await client().call('GET', `/__sandbox/transactions/${authorization!.transactionHash}`, {
        apiKey,
      })
      expect(read.body).toMatchObject({
        toName: 'CommerceEscrow',
        call: { functionName: 'authorizePayment' },
      })
      expect(read.body.logs).toContainEqual(
        expect.objectContaining({ event: 'PaymentAuthorized', contract: 'CommerceEscrow', requestId }),
      )
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('10'),
        merchant: before.merchant,
        escrow: before.escrow + units('10'),
      })
      expect(await status(apiKey, requestId)).toMatchObject({
        requestId,
        paymentReference,
        status: 'authorized',
        authorizedAmount: '10',
        capturableAmount: '10',
        capturedAmount: '0',
      })
      // the watcher saw the payer's own transaction
      await waitFor(() => (events(apiKey).length === 1 ? true : undefined), { what: 'authorized event' })
      expect(events(apiKey)[0]).toMatchObject({
        type: 'commerce_payment.authorized',
        requestId,
        status: 'authorized',
        amount: '10',
        capturableAmount: '10',
      })

      // a first capture of 4 by the API operator
      const first = await post(apiKey, `/${requestId}/capture`, { amount: '4' })
      expect(first.status, first.text).toBe(200)
      expect(first.body).toMatchObject({
        status: 'partially_captured',
        capturedAmount: '4',
        capturableAmount: '6',
      })
      expect(first.body.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('10'),
        merchant: before.merchant + units('4'),
        escrow: before.escrow + units('6'),
      })
      // more than is held is refused before anything is sent
      const tooMuch = await post(apiKey, `/${requestId}/capture`, { amount: '7' })
      expect([tooMuch.status, tooMuch.body.message]).toEqual([400, 'amount 7 is above what is held (6)'])

      // the rest: everything still held (no amount); the request reads as paid (capture pays through ERC20FeeProxy)
      const rest = await post(apiKey, `/${requestId}/capture`)
      expect(rest.body).toMatchObject({ status: 'captured', capturedAmount: '10', capturableAmount: '0' })
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('10'),
        merchant: before.merchant + units('10'),
        escrow: before.escrow,
      })
      await untilPaid(client(), apiKey, requestId)
      const voided = await post(apiKey, `/${requestId}/void`)
      expect([voided.status, voided.body.message]).toEqual([
        409,
        'Commerce payment is captured: nothing left to void',
      ])

      // refund 3: the merchant sends the refund calldata from its own tokens
      const refund = await post(apiKey, `/${requestId}/refund/calldata`, { amount: '3' })
      expect(refund.status, refund.text).toBe(200)
      expect(refund.body.metadata).toMatchObject({
        action: 'refund',
        sender: parties().merchant,
        amount: '3',
      })
      await execute(t.sandbox, refund.body.transactions, accounts.merchant)
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('7'),
        merchant: before.merchant + units('7'),
        escrow: before.escrow,
      })
      await waitFor(() => (events(apiKey).length === 4 ? true : undefined), { what: 'refunded event' })
      expect(events(apiKey).map((e) => [e.type, e.amount, e.status])).toEqual([
        ['commerce_payment.authorized', '10', 'authorized'],
        ['commerce_payment.captured', '4', 'partially_captured'],
        ['commerce_payment.captured', '6', 'captured'],
        ['commerce_payment.refunded', '3', 'partially_refunded'],
      ])
      const final = await status(apiKey, requestId)
      expect(final).toMatchObject({
        status: 'partially_refunded',
        refundedAmount: '3',
        refundableAmount: '7',
      })
      expect(final.transactions.map((x: { type: string }) => x.type)).toEqual([
        'authorize',
        'capture',
        'capture',
        'refund',
      ])
      // the capture was a Request Network payment of the request (detection's own event)
      expect(events(apiKey, 'payment.').some((e) => e.type === 'payment.confirmed')).toBe(true)
    })

    it('the API operator authorizes from the approval, captures with a fee, then voids the rest back to the payer', async () => {
      const apiKey = newApiKey()
      const feeReceiver = freshAddress()
      const before = await balances(parties())
      const created = await authorizeCalldata(apiKey, {
        amount: '5',
        paymentCurrency: 'FAU-sepolia',
        payer: parties().payer,
        payee: parties().merchant,
        preApprovalExpiry: 300,
        authorizationExpiry: 600,
        // the payer authorizes the fee: at most 5 %, to this receiver only
        maxFeeBps: 500,
        feeReceiver,
      })
      expect(created.status, created.text).toBe(200)
      expect(created.body.metadata).toMatchObject({ maxFeeBps: 500, feeReceiver })
      const { requestId, transactions } = created.body
      // without the payer's approval the operator cannot move the funds
      const early = await post(apiKey, `/${requestId}/authorize`)
      expect(early.status).toBe(400)
      expect(early.body.message).toMatch(/^The payer has not approved the escrow/)
      // the payer sends the approval only; the API operator executes the authorization
      await execute(t.sandbox, [transactions[0]], accounts.payer)
      const authorized = await post(apiKey, `/${requestId}/authorize`)
      expect(authorized.status, authorized.text).toBe(200)
      expect(authorized.body).toMatchObject({ status: 'authorized', capturableAmount: '5' })
      expect((await post(apiKey, `/${requestId}/authorize`)).status).toBe(409)
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('5'),
        merchant: before.merchant,
        escrow: before.escrow + units('5'),
      })

      // capture 2 with 5 % (500 bps) to the fee receiver
      const calldata = await post(apiKey, `/${requestId}/capture/calldata`, {
        amount: '2',
        feeBps: 500,
        feeReceiver,
      })
      expect(calldata.body.metadata).toMatchObject({
        action: 'capture',
        sender: t.sandbox.shared.operator!.address,
        amount: '2',
        feeAmount: '0.1',
        feeReceiver,
      })
      const captured = await post(apiKey, `/${requestId}/capture`, { amount: '2', feeBps: 500, feeReceiver })
      expect(captured.body).toMatchObject({ status: 'partially_captured', capturableAmount: '3' })
      expect(await chain().balanceOf(token(), feeReceiver)).toBe(units('0.1'))

      // void: the 3 still held go back to the payer
      const voidCalldata = await post(apiKey, `/${requestId}/void/calldata`)
      expect(voidCalldata.body.metadata).toMatchObject({ action: 'void', amount: '3' })
      const voided = await post(apiKey, `/${requestId}/void`)
      expect(voided.status, voided.text).toBe(200)
      expect(voided.body).toMatchObject({ capturedAmount: '2', capturableAmount: '0', status: 'captured' })
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('2'),
        merchant: before.merchant + units('1.9'),
        escrow: before.escrow,
      })
      expect(events(apiKey).map((e) => [e.type, e.amount])).toEqual([
        ['commerce_payment.authorized', '5'],
        ['commerce_payment.captured', '2'],
        ['commerce_payment.voided', '3'],
      ])
      const again = await post(apiKey, `/${requestId}/capture`)
      expect(again.status).toBe(409)
    })

    it('voids a whole authorization: the payer gets everything back; each step is a signed webhook', async () => {
      const apiKey = newApiKey()
      receiver.received.length = 0
      const hook = await client().call('POST', '/v2/webhook', { apiKey, body: { url: receiver.url } })
      expect(hook.status, hook.text).toBe(201)
      receiver.secret = hook.body.secret
      const before = await balances(parties())
      const created = await authorizeCalldata(apiKey, {
        amount: '1.5',
        paymentCurrency: 'FAU-sepolia',
        payer: parties().payer,
        payee: parties().merchant,
      })
      await execute(t.sandbox, created.body.transactions, accounts.payer)
      const voided = await post(apiKey, `/${created.body.requestId}/void`)
      expect(voided.body).toMatchObject({ status: 'voided', capturableAmount: '0', capturedAmount: '0' })
      expect(await balances(parties())).toEqual(before)
      await waitFor(() => (events(apiKey).length === 2 ? true : undefined), { what: 'voided event' })
      expect(events(apiKey).map((e) => e.type)).toEqual([
        'commerce_payment.authorized',
        'commerce_payment.voided',
      ])
      const deliveries = await receiver.waitFor(2)
      expect(deliveries.map((d) => [d.body.event, d.body.status, d.body.amount, d.signatureValid])).toEqual([
        ['commerce_payment.authorized', 'authorized', '1.5', true],
        ['commerce_payment.voided', 'voided', '1.5', true],
      ])
      expect(deliveries[1]!.body).toMatchObject({
        requestId: created.body.requestId,
        requestID: created.body.requestId,
        paymentReference: created.body.paymentReference,
        capturableAmount: '0',
        escrowAddress: COMMERCE_ESCROW_ADDRESS,
        txHash: voided.body.transactionHash,
      })
    })

    it('refuses a capture once the authorization expired; the payer then reclaims the hold', async () => {
      const apiKey = newApiKey()
      const before = await balances(parties())
      const created = await authorizeCalldata(apiKey, {
        amount: '2',
        paymentCurrency: 'FAU-sepolia',
        payer: parties().payer,
        payee: parties().merchant,
        preApprovalExpiry: 60,
        authorizationExpiry: 120,
      })
      const { requestId, paymentReference, transactions } = created.body
      await execute(t.sandbox, transactions, accounts.payer)
      const reclaim = {
        to: COMMERCE_ESCROW_ADDRESS,
        data: encodeFunctionData({
          abi: commerceEscrowAbi,
          functionName: 'reclaimPayment',
          args: [paymentReference],
        }),
        value: { type: 'BigNumber' as const, hex: '0x00' as const },
      }
      // before the expiry the escrow keeps the hold for the operator
      await expect(execute(t.sandbox, [reclaim], accounts.payer)).rejects.toThrow()
      // past the expiry (the shared chain's time may be ahead of this key's clock: move to the date itself)
      const past = new Date(Date.parse(created.body.metadata.authorizationExpiry) + 60_000).toISOString()
      const advanced = await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { to: past } })
      expect(advanced.status).toBe(200)
      const late = await post(apiKey, `/${requestId}/capture`)
      expect([late.status, late.body.message]).toEqual([
        409,
        'Authorization expired: the payment can no longer be captured',
      ])
      await execute(t.sandbox, [reclaim], accounts.payer)
      expect(await balances(parties())).toEqual(before)
      expect(await status(apiKey, requestId)).toMatchObject({ status: 'reclaimed', capturableAmount: '0' })
      await waitFor(() => (events(apiKey).length === 2 ? true : undefined), { what: 'reclaimed event' })
      expect(events(apiKey)[1]).toMatchObject({
        type: 'commerce_payment.reclaimed',
        amount: '2',
        status: 'reclaimed',
      })
    })

    it("takes a client ID's operator wallet and default expiry: that wallet, not the API operator, captures", async () => {
      const apiKey = newApiKey()
      const operatorWallet = address(accounts.operator)
      const made = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: {
          label: 'checkout',
          allowedDomains: ['https://shop.example'],
          operatorWalletAddress: operatorWallet,
          defaultAuthorizationExpiry: 7200,
        },
      })
      expect(made.status, made.text).toBe(201)
      const before = await balances(parties())
      const created = await client().call('POST', `${BASE}/authorize/calldata`, {
        apiKey: null,
        headers: { 'x-client-id': made.body.clientId, origin: 'https://shop.example' },
        // the client ID's default (7200 s) wins over the call's 600 s
        body: {
          amount: '3',
          paymentCurrency: 'FAU-sepolia',
          payer: parties().payer,
          payee: parties().merchant,
          authorizationExpiry: 600,
        },
      })
      expect(created.status, created.text).toBe(200)
      const { requestId, transactions, metadata } = created.body
      expect(metadata.operator).toBe(operatorWallet)
      const window = Date.parse(metadata.authorizationExpiry) - Date.parse(metadata.preApprovalExpiry)
      expect(window).toBe((7200 - 3600) * 1000)
      await execute(t.sandbox, transactions, accounts.payer)
      // the API operator is not this payment's operator: executing is refused, nothing is sent
      const refused = await post(apiKey, `/${requestId}/capture`)
      expect(refused.status).toBe(400)
      expect(refused.body.message).toBe(
        `The payment's operator is ${operatorWallet}, not the API operator ${t.sandbox.shared.operator!.address}: send the capture calldata from that wallet`,
      )
      const calldata = await post(apiKey, `/${requestId}/capture/calldata`)
      expect(calldata.body.metadata).toMatchObject({ sender: operatorWallet, amount: '3' })
      await execute(t.sandbox, calldata.body.transactions, accounts.operator)
      expect(await balances(parties())).toEqual({
        payer: before.payer - units('3'),
        merchant: before.merchant + units('3'),
        escrow: before.escrow,
      })
      expect((await status(apiKey, requestId)).status).toBe('captured')
      await waitFor(() => (events(apiKey).length === 2 ? true : undefined), { what: 'captured event' })
      expect(events(apiKey)[1]).toMatchObject({
        type: 'commerce_payment.captured',
        clientId: made.body.clientId,
      })
    })

    it("lets only the API key make the API operator capture or void: a client ID (public, in the checkout's page) cannot", async () => {
      const apiKey = newApiKey()
      const made = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'checkout', allowedDomains: ['https://shop.example'] },
      })
      const asClient = { 'x-client-id': made.body.clientId, origin: 'https://shop.example' }
      const created = await client().call('POST', `${BASE}/authorize/calldata`, {
        apiKey: null,
        headers: asClient,
        body: {
          amount: '1',
          paymentCurrency: 'FAU-sepolia',
          payer: parties().payer,
          payee: parties().merchant,
        },
      })
      expect(created.status, created.text).toBe(200)
      const { requestId } = created.body
      // a stranger holding the page's client ID would have the held funds sent to itself as the capture's fee
      for (const [path, body] of [
        ['capture', { feeBps: 10_000, feeReceiver: parties().payer }],
        ['void', {}],
      ] as const) {
        const res = await client().call('POST', `${BASE}/${requestId}/${path}`, {
          apiKey: null,
          headers: asClient,
          body,
        })
        expect(res.status, `${path} ${res.text}`).toBe(401)
      }
      // api-features/commerce-payments.mdx: "All endpoints require x-api-key or x-client-id authentication": the
      // authorize execute (terms fixed at creation, the payer's own approval) takes the client ID as the page says
      const authorize = await client().call('POST', `${BASE}/${requestId}/authorize`, {
        apiKey: null,
        headers: asClient,
        body: {},
      })
      // past authentication: refused only because the payer has not approved the escrow yet
      expect(authorize.status, authorize.text).toBe(400)
      expect(authorize.body.message).toMatch(/payer has not approved the escrow/)
      // the calldata (for the operator's own wallet to send) and the status stay open to the client ID
      const calldata = await client().call('POST', `${BASE}/${requestId}/void/calldata`, {
        apiKey: null,
        headers: asClient,
        body: {},
      })
      expect(calldata.status).not.toBe(401)
      expect((await status(apiKey, requestId)).status).toBe('pending')
    })

    it('answers 4xx for what the escrow would refuse', async () => {
      const apiKey = newApiKey()
      const base = {
        amount: '1',
        paymentCurrency: 'FAU-sepolia',
        payer: parties().payer,
        payee: parties().merchant,
      }
      const unknown = await client().call('GET', `${BASE}/01${'a'.repeat(64)}/status`, { apiKey })
      expect([unknown.status, unknown.body.message]).toEqual([404, 'Commerce payment not found'])
      const native = await authorizeCalldata(apiKey, { ...base, paymentCurrency: 'ETH-sepolia-sepolia' })
      expect(native.status).toBe(400)
      const max = await authorizeCalldata(apiKey, { ...base, maxAmount: '0.5' })
      expect([max.status, max.body.message]).toEqual([400, 'maxAmount must be at least amount'])
      const order = await authorizeCalldata(apiKey, {
        ...base,
        preApprovalExpiry: 600,
        authorizationExpiry: 60,
      })
      expect(order.status).toBe(400)
      expect((await authorizeCalldata(apiKey, { ...base, payer: 'nope' })).status).toBe(400)
      // a short authorization window alone shortens the default pre-approval window to fit in it
      const short = await authorizeCalldata(apiKey, { ...base, authorizationExpiry: 600 })
      expect(short.status, short.text).toBe(200)
      expect(short.body.metadata.preApprovalExpiry).toBe(short.body.metadata.authorizationExpiry)
      const created = await authorizeCalldata(apiKey, base)
      const capture = await post(apiKey, `/${created.body.requestId}/capture/calldata`)
      expect([capture.status, capture.body.message]).toEqual([409, 'Commerce payment is not authorized yet'])
      const fee = await post(apiKey, `/${created.body.requestId}/capture`, { feeBps: 100 })
      expect(fee.status).toBe(400)
      // another key does not see it
      const other = await client().call('GET', `${BASE}/${created.body.requestId}/status`, {
        apiKey: newApiKey(),
      })
      expect(other.status).toBe(404)
    })
  },
)
