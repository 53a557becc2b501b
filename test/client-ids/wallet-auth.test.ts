// Wallet login and the Auth API with its session, through both transports. Pages (RequestNetwork/mintlify-docs):
// api-reference/wallet-authentication.mdx (SIWE challenge and verify, 5 minutes, httpOnly session cookie, logout),
// api-features/client-id-management.mdx (/v1/client-ids with the session; payeeDestinationId resolves the payee),
// api-features/payee-destinations.mdx (/v1/payee-destination: create, get, lookup, payout-lookup, PUT, deactivate).
// Tron wallets sign in with TronWeb's trx.signMessageV2 and register TRC-20 destinations (T… token, chain 728126428).
import { TronWeb, Trx } from 'tronweb'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.ts'
import { describeTransports, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

const FAU = '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C'
const USDT_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const TRON_CHAIN_ID = 728126428

describeTransports(
  'wallet login and the Auth API through %s',
  () => t,
  (client) => {
    /** Signs in a fresh wallet; answers it and the Cookie header of its session. */
    async function signIn() {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const challenge = await client().call('POST', '/v1/auth/wallet/challenge', {
        apiKey: null,
        body: { address: wallet.address },
      })
      expect(challenge.status).toBe(201)
      const signature = await wallet.signMessage({ message: challenge.body.message })
      const verified = await client().call('POST', '/v1/auth/wallet/verify', {
        apiKey: null,
        body: { ...challenge.body, signature },
      })
      expect(verified.status, verified.text).toBe(201)
      const setCookie = verified.headers.get('set-cookie')!
      expect(setCookie).toMatch(
        /^session_token=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=900(; Secure)?$/,
      )
      return { wallet, cookie: { apiKey: null, headers: { cookie: setCookie.split(';')[0]! } }, challenge }
    }

    /** The session's active destination is `destinationId`, and a lookup by that id finds the record `id`. */
    async function expectActiveDestination(
      cookie: { apiKey: null; headers: { cookie: string } },
      destinationId: string,
      id: string,
    ) {
      const active = await client().call('GET', '/v1/payee-destination', cookie)
      expect(active.body.destinationId).toBe(destinationId)
      const looked = await client().call('GET', '/v1/payee-destination/lookup', {
        ...cookie,
        query: { destinationId },
      })
      expect(looked.body.id).toBe(id)
    }

    it('keeps at most 20 live sessions per wallet: signing in again ends the oldest', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const cookies: { apiKey: null; headers: { cookie: string } }[] = []
      for (let i = 0; i < 21; i++) {
        const challenge = await client().call('POST', '/v1/auth/wallet/challenge', {
          apiKey: null,
          body: { address: wallet.address },
        })
        const signature = await wallet.signMessage({ message: challenge.body.message })
        const verified = await client().call('POST', '/v1/auth/wallet/verify', {
          apiKey: null,
          body: { ...challenge.body, signature },
        })
        expect(verified.status, verified.text).toBe(201)
        cookies.push({
          apiKey: null,
          headers: { cookie: verified.headers.get('set-cookie')!.split(';')[0]! },
        })
      }
      expect((await client().call('GET', '/v1/client-ids', cookies[0]!)).status).toBe(401)
      expect((await client().call('GET', '/v1/client-ids', cookies[1]!)).status).toBe(200)
      expect((await client().call('GET', '/v1/client-ids', cookies[20]!)).status).toBe(200)
    })

    it('issues a SIWE message valid 5 minutes, verifies its signature once, and opens an httpOnly session', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const challenge = await client().call('POST', '/v1/auth/wallet/challenge', {
        apiKey: null,
        body: { address: wallet.address },
      })
      expect(challenge.status).toBe(201)
      const { message, nonce, challengeId, expiresAt } = challenge.body
      const lines = message.split('\n')
      expect(lines[0]).toMatch(/ wants you to sign in with your Ethereum account:$/)
      expect(lines[1]).toBe(wallet.address)
      expect(message).toContain(`\nNonce: ${nonce}\n`)
      expect(message).toContain('\nVersion: 1\n')
      const issued = Date.parse(/Issued At: (\S+)/.exec(message)![1]!)
      expect(Date.parse(expiresAt) - issued).toBe(5 * 60_000)
      expect(message).toContain(`Expiration Time: ${expiresAt}`)
      const other = privateKeyToAccount(generatePrivateKey())
      const forged = await client().call('POST', '/v1/auth/wallet/verify', {
        apiKey: null,
        body: { challengeId, nonce, message, signature: await other.signMessage({ message }) },
      })
      expect(forged.status).toBe(401)
      // single use: the refused attempt consumed it
      const again = await client().call('POST', '/v1/auth/wallet/verify', {
        apiKey: null,
        body: { challengeId, nonce, message, signature: await wallet.signMessage({ message }) },
      })
      expect(again.status).toBe(401)
      expect(
        (
          await client().call('POST', '/v1/auth/wallet/challenge', {
            apiKey: null,
            body: { address: 'nope' },
          })
        ).status,
      ).toBe(400)
      const { cookie } = await signIn()
      expect((await client().call('GET', '/v1/client-ids', cookie)).status).toBe(200)
      const out = await client().call('POST', '/v1/auth/logout', cookie)
      expect(out.status).toBe(200)
      expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/)
      expect((await client().call('GET', '/v1/client-ids', cookie)).status).toBe(401)
    })

    it('signs a Tron wallet in with TronWeb (signMessageV2) and registers its TRC-20 destination (T-token, chain 728126428)', async () => {
      const key = generatePrivateKey().slice(2)
      const address = TronWeb.address.fromPrivateKey(key) as string
      const challenge = await client().call('POST', '/v1/auth/wallet/challenge', {
        apiKey: null,
        body: { address },
      })
      expect(challenge.status, challenge.text).toBe(201)
      const lines = challenge.body.message.split('\n')
      expect(lines[0]).toMatch(/ wants you to sign in with your Tron account:$/)
      expect(lines[1]).toBe(address)
      // signed by another Tron key, or the EVM way by the same key: refused (and the challenge is spent)
      const otherKey = generatePrivateKey().slice(2)
      const forged = await client().call('POST', '/v1/auth/wallet/verify', {
        apiKey: null,
        body: { ...challenge.body, signature: Trx.signMessageV2(challenge.body.message, otherKey) },
      })
      expect(forged.status).toBe(401)
      const evmWay = await client().call('POST', '/v1/auth/wallet/challenge', {
        apiKey: null,
        body: { address },
      })
      const evmSigned = await privateKeyToAccount(`0x${key}`).signMessage({ message: evmWay.body.message })
      expect(
        (
          await client().call('POST', '/v1/auth/wallet/verify', {
            apiKey: null,
            body: { ...evmWay.body, signature: evmSigned },
          })
        ).status,
      ).toBe(401)
      const fresh = await client().call('POST', '/v1/auth/wallet/challenge', {
        apiKey: null,
        body: { address },
      })
      const verified = await client().call('POST', '/v1/auth/wallet/verify', {
        apiKey: null,
        body: { ...fresh.body, signature: Trx.signMessageV2(fresh.body.message, key) },
      })
      expect(verified.status, verified.text).toBe(201)
      expect(verified.body).toMatchObject({ address, walletType: 'tron' })
      const cookie = { apiKey: null, headers: { cookie: verified.headers.get('set-cookie')!.split(';')[0]! } }
      // an EVM token on a Tron wallet, a Tron token in 0x form: 400
      const evmToken = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: { tokenAddress: FAU, chainId: 11155111 },
      })
      expect(evmToken.status).toBe(400)
      expect(evmToken.body.message).toMatch(/Tron wallet is paid on Tron only/)
      const hexToken = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: { tokenAddress: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c', chainId: TRON_CHAIN_ID },
      })
      expect(hexToken.status).toBe(400)
      const created = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: { tokenAddress: USDT_TRON, chainId: TRON_CHAIN_ID },
      })
      expect(created.status, created.text).toBe(201)
      const { destinationId } = created.body
      expect(created.body).toMatchObject({
        walletAddress: address,
        tokenAddress: USDT_TRON,
        chainId: TRON_CHAIN_ID,
        active: true,
      })
      expect(destinationId).toMatch(
        new RegExp(`^${address}@eip155:${TRON_CHAIN_ID}#[0-9A-F]{8}:${USDT_TRON}$`),
      )
      await expectActiveDestination(cookie, destinationId, created.body.id)
      const badChecksum = destinationId.replace(/#[0-9A-F]{8}:/, '#00000000:')
      expect(
        (
          await client().call('GET', '/v1/payee-destination/lookup', {
            ...cookie,
            query: { destinationId: badChecksum },
          })
        ).status,
      ).toBe(404)
      // an EVM wallet's session finds where the Tron recipient wants to be paid; an EVM wallet cannot take a Tron token
      const payer = await signIn()
      const lookup = await client().call('GET', '/v1/payee-destination/payout-lookup', {
        ...payer.cookie,
        query: { walletAddress: address },
      })
      expect(lookup.body).toEqual({
        destinationId,
        walletAddress: address,
        tokenAddress: USDT_TRON,
        chainId: TRON_CHAIN_ID,
        claimed: true,
      })
      const evmOnTron = await client().call('POST', '/v1/payee-destination', {
        ...payer.cookie,
        body: { tokenAddress: USDT_TRON, chainId: TRON_CHAIN_ID },
      })
      expect(evmOnTron.status).toBe(400)
      expect(evmOnTron.body.message).toMatch(/needs a Tron wallet/)
      // a client ID bound to the Tron destination: its USDT-tron requests without payee pay the T-wallet
      const id = await client().call('POST', '/v1/client-ids', {
        ...cookie,
        body: { label: 'tron checkout', allowedDomains: [], payeeDestinationId: destinationId },
      })
      expect(id.status, id.text).toBe(201)
      const asClient = { apiKey: null, headers: { 'x-client-id': id.body.clientId as string } }
      const request = await client().call('POST', '/v2/request', {
        ...asClient,
        body: { amount: '5', invoiceCurrency: 'USDT-tron', paymentCurrency: 'USDT-tron' },
      })
      expect(request.status, request.text).toBe(201)
      expect((await client().call('GET', `/v2/request/${request.body.requestId}`, asClient)).body.payee).toBe(
        address,
      )
      // a secure payment link to the Tron destination: on tron, in USDT-tron, to the T-wallet
      const link = await client().call('POST', '/v2/secure-payments', {
        ...asClient,
        body: { requests: [{ destinationId, amount: '7' }] },
      })
      expect(link.status, link.text).toBe(201)
      const linked = await client().call('GET', `/v2/request/${link.body.requestIds[0]}`, asClient)
      expect(linked.body).toMatchObject({ payee: address })
      const shown = await client().call('GET', `/v2/secure-payments/${link.body.token}`, asClient)
      expect(shown.status, shown.text).toBe(200)
      expect(shown.body).toMatchObject({ network: 'tron' })
      // the EIP-712 flow (/v2) is for EVM wallets: a Tron token there points to the session flow
      const typed = await client().call('GET', '/v2/payee-destination/signing-data', {
        apiKey: 'tron-typed-data',
        query: {
          walletAddress: payer.wallet.address,
          action: 'add',
          tokenAddress: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
          chainId: String(TRON_CHAIN_ID),
        },
      })
      expect(typed.status).toBe(400)
      expect(typed.body.message).toMatch(/POST \/v1\/payee-destination/)
      const done = await client().call('PATCH', '/v1/payee-destination/deactivate', {
        ...cookie,
        body: { destinationId },
      })
      expect(done.body).toEqual({ success: true, message: 'Destination deactivated' })
    })

    it('manages the wallet’s destination with the session, and a client ID bound to it resolves the payee', async () => {
      const { wallet, cookie } = await signIn()
      expect((await client().call('GET', '/v1/payee-destination', cookie)).body).toBeNull()
      const refused = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: { tokenAddress: FAU, chainId: 11155111, accessPolicy: { mode: 'kyt_all_wallets' } },
      })
      expect(refused.status).toBe(400)
      const offWithProvider = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: {
          tokenAddress: FAU,
          chainId: 11155111,
          accessPolicy: { mode: 'off', screeningProvider: 'hypernative' },
        },
      })
      expect(offWithProvider.status).toBe(400)
      const created = await client().call('POST', '/v1/payee-destination', {
        ...cookie,
        body: {
          tokenAddress: FAU,
          chainId: 11155111,
          accessPolicy: { mode: 'kyt_all_wallets', screeningProvider: 'merklescience' },
        },
      })
      expect(created.status, created.text).toBe(201)
      const { destinationId } = created.body
      expect(created.body).toMatchObject({
        walletAddress: wallet.address,
        tokenAddress: FAU,
        chainId: 11155111,
        claimed: true,
        active: true,
        accessPolicy: { mode: 'kyt_all_wallets', screeningProvider: 'merklescience' },
      })
      expect(destinationId).toMatch(/^0x[0-9a-fA-F]{40}@eip155:11155111#[0-9A-F]{8}:0x[0-9a-fA-F]{40}$/)
      expect(created.body.humanReadableInteropAddress).toBe(
        destinationId.slice(0, destinationId.lastIndexOf(':')),
      )
      await expectActiveDestination(cookie, destinationId, created.body.id)
      // another wallet's session finds where this one wants to be paid
      const payer = await signIn()
      const lookup = await client().call('GET', '/v1/payee-destination/payout-lookup', {
        ...payer.cookie,
        query: { walletAddress: wallet.address },
      })
      expect(lookup.body).toEqual({
        destinationId,
        walletAddress: wallet.address,
        tokenAddress: FAU,
        chainId: 11155111,
        claimed: true,
      })
      // a back-end client ID bound to the destination: its requests without payee pay the wallet
      const id = await client().call('POST', '/v1/client-ids', {
        ...cookie,
        body: { label: 'checkout', allowedDomains: [], payeeDestinationId: destinationId },
      })
      expect(id.status, id.text).toBe(201)
      expect(id.body.payeeDestinationId).toBe(destinationId)
      const listed = await client().call('GET', '/v1/client-ids', cookie)
      expect(listed.body.map((c: { id: string }) => c.id)).toEqual([id.body.id])
      expect((await client().call('GET', '/v1/client-ids', payer.cookie)).body).toEqual([])
      const asClient = { apiKey: null, headers: { 'x-client-id': id.body.clientId as string } }
      const request = await client().call('POST', '/v2/request', {
        ...asClient,
        body: { amount: '5', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' },
      })
      expect(request.status, request.text).toBe(201)
      const status = await client().call('GET', `/v2/request/${request.body.requestId}`, asClient)
      expect(status.body.payee).toBe(wallet.address)
      // PUT moves the destination to another token; deactivate ends it
      const usdc = t.sandbox.chain!.tokens['USDC-sepolia']!
      const moved = await client().call('PUT', '/v1/payee-destination', {
        ...cookie,
        body: { tokenAddress: usdc, chainId: 11155111 },
      })
      expect(moved.status).toBe(200)
      expect(moved.body).toMatchObject({ tokenAddress: usdc, active: true })
      expect(moved.body.accessPolicy).toMatchObject({ mode: 'kyt_all_wallets' })
      const done = await client().call('PATCH', '/v1/payee-destination/deactivate', {
        ...cookie,
        body: { destinationId: moved.body.destinationId },
      })
      expect(done.body).toEqual({ success: true, message: 'Destination deactivated' })
      expect((await client().call('GET', '/v1/payee-destination', cookie)).body).toBeNull()
    })
  },
)

describe('wallet login on a shared demo', () => {
  const servers: RunningServer[] = []
  afterAll(async () => Promise.all(servers.map((s) => s.close())))
  async function start(options: StartServerOptions) {
    const server = await startServer({ chain: false, ...options })
    servers.push(server)
    return server
  }
  async function post(server: RunningServer, path: string, body: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }
  async function signIn(server: RunningServer, wallet: PrivateKeyAccount) {
    const challenge = await post(server, '/v1/auth/wallet/challenge', { address: wallet.address })
    if (challenge.status !== 201) return challenge
    const signature = await wallet.signMessage({ message: challenge.body.message })
    return post(server, '/v1/auth/wallet/verify', { ...challenge.body, signature })
  }

  it('is off with the portal (strict mode without --portal): 404, no account', async () => {
    const strict = await start({ apiKeys: ['keyA'] })
    const refused = await signIn(strict, privateKeyToAccount(generatePrivateKey()))
    expect(refused.status).toBe(404)
    expect(refused.body.message).toMatch(/portal is off/)
    expect(strict.sandbox.shared.portal.walletChallenges.size).toBe(0)
  })

  it('counts a new wallet account against the signup limit (a known wallet still signs in) and forgets stale challenges', async () => {
    const shared = await start({ signupsPerMinute: 1 })
    const first = privateKeyToAccount(generatePrivateKey())
    expect((await signIn(shared, first)).status).toBe(201)
    const second = await signIn(shared, privateKeyToAccount(generatePrivateKey()))
    expect(second.status).toBe(429)
    expect((await signIn(shared, first)).status).toBe(201)
    // an unanswered challenge is dropped once expired, when the next one is issued
    const challenges = shared.sandbox.shared.portal.walletChallenges
    const stale = await post(shared, '/v1/auth/wallet/challenge', { address: first.address })
    challenges.get(stale.body.challengeId)!.expiresAt = 0
    await post(shared, '/v1/auth/wallet/challenge', { address: first.address })
    expect(challenges.has(stale.body.challengeId)).toBe(false)
    expect(challenges.size).toBe(1)
  })
})
