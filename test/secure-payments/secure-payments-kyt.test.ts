// KYT as documented (use-cases/compliance-gated-payments.mdx, api-features/payee-destinations.mdx): the accessPolicy
// rules, the payment's policy over the destination's default, deterministic screening of the sandbox's flagged test
// addresses (a flagged wallet never reaches the sign step), the lookup's payerKytResults, and no
// secure_payment.access_rejected for a KYT decision (api-reference/webhooks.mdx).
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KYT_FLAGGED_TEST_ADDRESSES, KYT_RESULTS_KEPT } from '../../src/resources/secure-payments/index.ts'
import { freshAddress } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

const FAU = '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C'
const flagged = KYT_FLAGGED_TEST_ADDRESSES[0]!

describeTransports(
  'KYT screening through %s',
  () => t,
  (client) => {
    const link = (apiKey: string, accessPolicy: unknown) =>
      client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee: freshAddress(), amount: '4', currency: 'FAU-sepolia' }], accessPolicy },
      })

    it('records at most KYT_RESULTS_KEPT screenings per link, and still refuses a flagged wallet past them', async () => {
      const apiKey = newApiKey()
      const created = await link(apiKey, { mode: 'kyt_all_wallets', screeningProvider: 'hypernative' })
      const { token, requestIds } = created.body
      // the page's public route: anyone holding the token names wallets
      const connect = (walletAddress: string) =>
        client().call('POST', `/__sandbox/secure-payments/${token}/user-events`, {
          apiKey: null,
          body: { userEvent: 'wallet_connected', walletAddress },
        })
      for (let i = 0; i < KYT_RESULTS_KEPT + 5; i++) expect((await connect(freshAddress())).status).toBe(201)
      expect((await connect(flagged)).status).toBe(403)
      const lookup = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: requestIds[0] },
      })
      expect(lookup.body.payerKytResults).toHaveLength(KYT_RESULTS_KEPT)
    })

    it('refuses the policies the page rules out, and screens every wallet of a kyt_all_wallets link', async () => {
      const apiKey = newApiKey()
      const noProvider = await link(apiKey, { mode: 'kyt_all_wallets' })
      expect(noProvider.status).toBe(400)
      expect(JSON.stringify(noProvider.body)).toContain(
        'screeningProvider is required when mode is kyt_all_wallets',
      )
      const offWithProvider = await link(apiKey, { mode: 'off', screeningProvider: 'merklescience' })
      expect(offWithProvider.status).toBe(400)
      const badProvider = await link(apiKey, { mode: 'kyt_all_wallets', screeningProvider: 'chainalysis' })
      expect(badProvider.status).toBe(400)
      const created = await link(apiKey, { mode: 'kyt_all_wallets', screeningProvider: 'hypernative' })
      expect(created.status).toBe(201)
      const { token, requestIds } = created.body
      const refused = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: flagged },
      })
      expect(refused.status).toBe(403)
      expect(refused.body.message).toBe('This wallet did not pass compliance screening for this payment')
      const connected = await client().call('POST', `/__sandbox/secure-payments/${token}/user-events`, {
        apiKey: null,
        body: { userEvent: 'wallet_connected', walletAddress: KYT_FLAGGED_TEST_ADDRESSES[1] },
      })
      expect(connected.status).toBe(403)
      const clean = freshAddress()
      const ok = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: clean },
      })
      expect(ok.status).toBe(200)
      const lookup = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: requestIds[0] },
      })
      expect(lookup.body.payerKytResults).toEqual([
        expect.objectContaining({
          walletAddress: flagged,
          status: 'rejected',
          provider: 'hypernative',
          walletType: 'eoa',
        }),
        expect.objectContaining({ walletAddress: KYT_FLAGGED_TEST_ADDRESSES[1], status: 'rejected' }),
        expect.objectContaining({ walletAddress: clean.toLowerCase(), status: 'approved', reasonCode: null }),
      ])
      const types = t.sandbox.shared.tenants.get(apiKey).events.map((e) => e.type)
      expect(types).not.toContain('secure_payment.access_rejected')
      // a link without a policy screens no one
      const open = await link(apiKey, undefined)
      const free = await client().call('GET', `/v2/secure-payments/${open.body.token}/pay`, {
        apiKey,
        query: { wallet: flagged },
      })
      expect(free.status).toBe(200)
    })

    it('takes the destination’s policy by default, and the payment’s own mode over it', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const challenge = await client().call('POST', '/v1/auth/wallet/challenge', {
        apiKey: null,
        body: { address: wallet.address },
      })
      const verified = await client().call('POST', '/v1/auth/wallet/verify', {
        apiKey: null,
        body: { ...challenge.body, signature: await wallet.signMessage({ message: challenge.body.message }) },
      })
      const cookie = { apiKey: null, headers: { cookie: verified.headers.get('set-cookie')!.split(';')[0]! } }
      const destination = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: {
          tokenAddress: FAU,
          chainId: 11155111,
          accessPolicy: { mode: 'kyt_all_wallets', screeningProvider: 'merklescience' },
        },
      })
      const id = await client().call('POST', '/v1/client-ids', {
        ...cookie,
        body: { label: 'backend', allowedDomains: [], payeeDestinationId: destination.body.destinationId },
      })
      const asClient = { apiKey: null, headers: { 'x-client-id': id.body.clientId as string } }
      const byDefault = await client().call('POST', '/v2/secure-payments', {
        ...asClient,
        body: { requests: [{ destinationId: destination.body.destinationId, amount: '2' }] },
      })
      expect(byDefault.status, byDefault.text).toBe(201)
      const gated = await client().call('GET', `/v2/secure-payments/${byDefault.body.token}/pay`, {
        ...asClient,
        query: { wallet: flagged },
      })
      expect(gated.status).toBe(403)
      const lookup = await client().call('GET', '/v2/secure-payments', {
        ...asClient,
        query: { requestId: byDefault.body.requestIds[0] },
      })
      expect(lookup.body.payerKytResults[0]).toMatchObject({ provider: 'merklescience', status: 'rejected' })
      const overridden = await client().call('POST', '/v2/secure-payments', {
        ...asClient,
        body: {
          requests: [{ destinationId: destination.body.destinationId, amount: '2' }],
          accessPolicy: { mode: 'off' },
        },
      })
      const open = await client().call('GET', `/v2/secure-payments/${overridden.body.token}/pay`, {
        ...asClient,
        query: { wallet: flagged },
      })
      expect(open.status).toBe(200)
    })
  },
)
