// Secure payments as the 2026 documentation describes them, through both transports. Pages (RequestNetwork/mintlify-docs):
// api-reference/secure-payments.mdx (redirectUrl / redirectLabel refusals, multicall /pay fields and the
// multicall_validation_failed envelope), release-notes/request-api.mdx (2026-Q1: list filters and the `payout` flag,
// POST /v2/secure-payments/{token}/calldata), api-reference/webhooks.mdx (the secure_payment.user_event payload).
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshAddress } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

describeTransports(
  'secure payments (2026 pages) through %s',
  () => t,
  { http: 5, msw: 6 },
  (client, account) => {
    const wallet = () => t.sandbox.chain!.accounts[account]!.address
    const incoming = (apiKey: string, extra: Record<string, unknown> = {}) =>
      client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: {
          requests: [
            {
              payee: freshAddress(),
              amount: '3',
              invoiceCurrency: 'FAU-sepolia',
              paymentCurrency: 'FAU-sepolia',
            },
          ],
          ...extra,
        },
      })
    const payout = (apiKey: string, extra: Record<string, unknown> = {}) =>
      client().call('POST', '/v2/secure-payments/payouts', {
        apiKey,
        body: {
          recipient: freshAddress(),
          creatorWalletAddress: wallet(),
          network: 'sepolia',
          currency: 'FAU-sepolia',
          amount: '2',
          ...extra,
        },
      })

    it('refuses redirectLabel without redirectUrl and a redirectUrl with HTML payload characters (api-reference/secure-payments.mdx)', async () => {
      const apiKey = newApiKey()
      const label = await incoming(apiKey, { redirectLabel: 'Back to shop' })
      expect(label.status).toBe(400)
      expect(label.body).toMatchObject({
        statusCode: 400,
        message: 'redirectLabel cannot be provided without redirectUrl',
      })
      const payoutLabel = await payout(apiKey, { redirectLabel: 'Done' })
      expect(payoutLabel.status).toBe(400)
      expect(payoutLabel.body.message).toBe('redirectLabel cannot be provided without redirectUrl')
      // use-cases/programmatic-payment-links.mdx, "Validation rules": other schemes and HTML/script payload characters
      // "are rejected with `400 redirectUrl must be a safe http(s) URL with no script/HTML payload`"
      const documented = {
        statusCode: 400,
        message: 'redirectUrl must be a safe http(s) URL with no script/HTML payload',
        error: 'Bad Request',
      }
      for (const redirectUrl of [
        'https://shop.example.com/"><script>',
        'https://shop.example.com/a b',
        'javascript:fetch("/v2/key")',
        'data:text/html,<script>1</script>',
        'JAVASCRIPT:x',
        '/relative',
        'https://u:p@example.com/',
      ]) {
        const unsafe = await incoming(apiKey, { redirectUrl })
        expect(unsafe.status, redirectUrl).toBe(400)
        expect(unsafe.body, redirectUrl).toEqual(documented)
        // "The same fields are accepted on `POST /v2/secure-payments/payouts`"
        const unsafePayout = await payout(apiKey, { redirectUrl })
        expect(unsafePayout.body, redirectUrl).toEqual(documented)
      }
      const batch = await client().call('POST', '/v2/secure-payments/batch-payouts', {
        apiKey,
        body: { tokens: ['a', 'b'], redirectUrl: 'javascript:alert(1)' },
      })
      expect(batch.body).toEqual(documented)
      const fine = await incoming(apiKey, {
        redirectUrl: 'https://shop.example.com/thanks',
        redirectLabel: 'Back to shop',
      })
      expect(fine.status).toBe(201)
      // a refused create made no request: the caller's list holds only the accepted link
      const all = await client().call('GET', '/v2/secure-payments', { apiKey, query: { payout: 'false' } })
      expect(all.body.total).toBe(1)
    })

    it('lists the caller’s links by request id, payout flag and creation time, with the flag in the lookup (release-notes 2026-Q1)', async () => {
      const apiKey = newApiKey()
      const first = await incoming(apiKey)
      await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 3600 } })
      const out = await payout(apiKey)
      expect(out.status).toBe(201)
      const lookup = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: out.body.requestIds[0] },
      })
      expect(lookup.status).toBe(200)
      expect(lookup.body).toMatchObject({ token: out.body.token, payout: true })
      const incomingLookup = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: first.body.requestIds[0] },
      })
      expect(incomingLookup.body).toMatchObject({ token: first.body.token, payout: false })
      const payouts = await client().call('GET', '/v2/secure-payments', { apiKey, query: { payout: 'true' } })
      expect(payouts.body.securePayments.map((l: { token: string }) => l.token)).toEqual([out.body.token])
      const incomings = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { payout: 'false' },
      })
      expect(incomings.body.securePayments.map((l: { token: string }) => l.token)).toEqual([first.body.token])
      const recent = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: {
          createdAfter: new Date(
            Date.parse(first.body.feePlan ? incomingLookup.body.createdAt : '') + 1000,
          ).toISOString(),
        },
      })
      expect(recent.body.securePayments.map((l: { token: string }) => l.token)).toEqual([out.body.token])
      const both = await client().call('GET', '/v2/secure-payments', { apiKey })
      expect(both.body.securePayments.map((l: { token: string }) => l.token)).toEqual([
        out.body.token,
        first.body.token,
      ])
      const filteredOut = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: out.body.requestIds[0], payout: 'false' },
      })
      expect(filteredOut.status).toBe(404)
      const badDate = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { createdAfter: 'soon' },
      })
      expect(badDate.status).toBe(400)
    })

    it('answers multicall_validation_failed for ineligible children and the cap, and /pay with the multicall fields (api-reference/secure-payments.mdx)', async () => {
      const apiKey = newApiKey()
      const [a, b, inc] = await Promise.all([payout(apiKey), payout(apiKey), incoming(apiKey)])
      const refused = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: [a!.body.token, inc!.body.token, '01NOTATOKEN'] },
      })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({
        message: 'Multicall validation failed',
        code: 'multicall_validation_failed',
        failures: [
          { securePaymentToken: inc!.body.token, reason: 'not_outgoing' },
          { securePaymentToken: '01NOTATOKEN', reason: 'not_payable_child' },
        ],
      })
      for (const f of refused.body.failures)
        expect(Object.keys(f)).toEqual(expect.arrayContaining(['messageKey', 'context', 'recoveryAction']))
      const many = Array.from({ length: 151 }, (_, i) => `01CHILD${String(i).padStart(19, '0')}`)
      const capped = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: many },
      })
      expect(capped.status).toBe(400)
      expect(capped.body).toMatchObject({
        code: 'multicall_validation_failed',
        failures: [{ securePaymentToken: '*', reason: 'too_many_children' }],
        cap: { type: 'child_count', maximum: 150, actual: 151, reduceBy: 1 },
      })
      const multicall = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: [a!.body.token, b!.body.token] },
      })
      expect(multicall.status).toBe(201)
      const pay = await client().call('GET', `/v2/secure-payments/${multicall.body.token}/pay`, {
        apiKey,
        query: { wallet: wallet() },
      })
      expect(pay.status).toBe(200)
      const refs = await Promise.all(
        [a!, b!].map(
          async (l) => (await client().call('GET', `/v2/request/${l.body.requestIds[0]}`, { apiKey })).body,
        ),
      )
      expect(pay.body).toMatchObject({
        executionKind: 'evm_same_chain',
        children: [
          { securePaymentToken: a!.body.token, position: 0, requestId: a!.body.requestIds[0] },
          { securePaymentToken: b!.body.token, position: 1, requestId: b!.body.requestIds[0] },
        ],
      })
      expect(pay.body.references).toEqual(
        pay.body.children.map((c: { paymentReference: string }) => c.paymentReference),
      )
      expect(pay.body.references).toHaveLength(2)
      for (const r of pay.body.references) expect(r).toMatch(/^0x[0-9a-f]{16}$/)
      expect(refs).toHaveLength(2)
      expect(pay.body.batchPaymentTransaction.value).toBe(0)
      // an expired child: the documented reason
      const c = await payout(apiKey)
      await client().call('POST', '/__sandbox/clock/advance', {
        apiKey,
        body: { seconds: 7 * 24 * 3600 + 1 },
      })
      const d = await payout(apiKey)
      const expired = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey,
        body: { childTokens: [c.body.token, d.body.token] },
      })
      expect(expired.body.failures).toEqual([
        expect.objectContaining({ securePaymentToken: c.body.token, reason: 'secure_payment_expired' }),
      ])
    })

    it('answers POST /{token}/calldata as /pay for the chosen wallet, to the link’s own account only (release-notes 2026-Q1)', async () => {
      const apiKey = newApiKey()
      const link = await incoming(apiKey)
      const calldata = await client().call('POST', `/v2/secure-payments/${link.body.token}/calldata`, {
        apiKey,
        body: { wallet: wallet() },
      })
      expect(calldata.status).toBe(200)
      const pay = await client().call('GET', `/v2/secure-payments/${link.body.token}/pay`, {
        apiKey,
        query: { wallet: wallet() },
      })
      expect(calldata.body.transactions).toEqual(pay.body.transactions)
      expect(calldata.body.metadata).toMatchObject({
        routeType: 'samechain',
        paymentTransactionIndex: expect.any(Number),
      })
      const stranger = await client().call('POST', `/v2/secure-payments/${link.body.token}/calldata`, {
        apiKey: newApiKey(),
        body: { wallet: wallet() },
      })
      expect(stranger.status).toBe(401)
      const half = await client().call('POST', `/v2/secure-payments/${link.body.token}/calldata`, {
        apiKey,
        body: { chain: 'BASE' },
      })
      expect(half.status).toBe(400)
    })

    it('emits secure_payment.user_event once per link with the documented payload and a hashed wallet (api-reference/webhooks.mdx)', async () => {
      const apiKey = newApiKey()
      const single = await incoming(apiKey)
      const sent = await client().call(
        'POST',
        `/__sandbox/secure-payments/${single.body.token}/user-events`,
        {
          apiKey: null,
          body: {
            userEvent: 'payment_approved_in_wallet',
            walletAddress: wallet(),
            txHash: `0x${'ab'.repeat(32)}`,
            occurredAt: '2026-08-05T14:03:21.512Z',
            walletProvider: 'metamask',
          },
        },
      )
      expect(sent.status).toBe(201)
      const batch = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: {
          requests: [
            { payee: freshAddress(), amount: '1', currency: 'FAU-sepolia' },
            { payee: freshAddress(), amount: '2', currency: 'FAU-sepolia' },
          ],
        },
      })
      await client().call('POST', `/__sandbox/secure-payments/${batch.body.token}/user-events`, {
        apiKey: null,
        body: { userEvent: 'wallet_connected', walletAddress: wallet() },
      })
      const events = t.sandbox.shared.tenants
        .get(apiKey)
        .events.filter((e) => e.type === 'secure_payment.user_event')
        .map((e) => e.payload)
      expect(events).toHaveLength(2)
      expect(events[0]).toEqual({
        event: 'secure_payment.user_event',
        userEvent: 'payment_approved_in_wallet',
        securePaymentToken: single.body.token,
        requestId: single.body.requestIds[0],
        requestIds: single.body.requestIds,
        orchestratorId: null,
        occurredAt: '2026-08-05T14:03:21.512Z',
        timestamp: expect.any(String),
        properties: {
          wallet_provider: 'metamask',
          wallet_address_hashed: createHash('sha256').update(wallet().toLowerCase()).digest('hex'),
          payment_type: 'single',
          selected_source_chain: 'sepolia',
          payment_submission_id: `0x${'ab'.repeat(32)}`,
          payment_submission_id_type: 'evm_tx_hash',
        },
      })
      // a batch link: no single requestId, every request in requestIds; no raw wallet anywhere
      expect(events[1]).not.toHaveProperty('requestId')
      expect(events[1]!.requestIds).toEqual(batch.body.requestIds)
      expect(JSON.stringify(events).toLowerCase()).not.toContain(wallet().toLowerCase().slice(2))
    })
  },
)
