import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { resolveDestination } from '../../src/resources/payee-destinations/index.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const t = useTransports(newApiKey, { chain: false })

const shop = 'https://shop.example.com'
const FAU = '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C'
const USDC = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238'
const sepolia = '11155111'
const newWallet = () => privateKeyToAccount(generatePrivateKey())
type Wallet = ReturnType<typeof newWallet>

describeTransports(
  'payee destinations through %s',
  () => t,
  (client) => {
    /** a tenant and a front-end client ID of it: the documented way to call these endpoints */
    const newClient = async () => {
      const apiKey = newApiKey()
      const res = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'checkout', allowedDomains: [shop] },
      })
      expect(res.status).toBe(201)
      const as = { apiKey: null, headers: { 'x-client-id': res.body.clientId as string, origin: shop } }
      return { apiKey, id: res.body.id as string, as }
    }
    type As = Awaited<ReturnType<typeof newClient>>['as']
    const signingData = async (as: As, wallet: Wallet, action: 'add' | 'deactivate', token = FAU) => {
      const res = await client().call('GET', '/v2/payee-destination/signing-data', {
        ...as,
        query: { walletAddress: wallet.address, action, tokenAddress: token, chainId: sepolia },
      })
      expect(res.status).toBe(200)
      return res.body
    }
    const sign = (wallet: Wallet, data: Loose) =>
      wallet.signTypedData({
        domain: data.domain,
        types: data.types,
        primaryType: data.primaryType,
        message: data.message,
      })
    const addDestination = async (as: As, wallet: Wallet, token = FAU) => {
      const data = await signingData(as, wallet, 'add', token)
      const res = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature: await sign(wallet, data), nonce: data.nonce },
      })
      expect(res.status).toBe(201)
      return res.body
    }

    it('returns EIP-712 signing data with a fresh nonce bound to the wallet, token, chain and action', async () => {
      const { as } = await newClient()
      const wallet = newWallet()
      const a = await signingData(as, wallet, 'add')
      const b = await signingData(as, wallet, 'add')
      expect(a.nonce).not.toBe(b.nonce)
      expect(a).toMatchObject({
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
        expiresAt: expect.any(String),
        domain: { name: 'Request Network Payee Destination', version: '1', chainId: 11155111 },
        primaryType: 'PayeeDestination',
        message: { action: 'add', walletAddress: wallet.address, tokenAddress: FAU, nonce: a.nonce },
      })
      const bad = await client().call('GET', '/v2/payee-destination/signing-data', {
        ...as,
        query: { walletAddress: 'nope', action: 'remove', tokenAddress: FAU, chainId: sepolia },
      })
      expect(bad.status).toBe(400)
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'action',
        'walletAddress',
      ])
      const unknownToken = await client().call('GET', '/v2/payee-destination/signing-data', {
        ...as,
        query: { walletAddress: wallet.address, action: 'add', tokenAddress: FAU, chainId: '1' },
      })
      expect(unknownToken.status).toBe(400)
      expect(unknownToken.body.message).toBe(`Token ${FAU} is not a supported ERC20 token on chain 1`)
    })

    it("creates a destination from the wallet's signature and finds it by wallet, by network:wallet:token and by its composite id", async () => {
      const { as } = await newClient()
      const wallet = newWallet()
      const none = await client().call('GET', '/v2/payee-destination', {
        ...as,
        query: { walletAddress: wallet.address },
      })
      expect(none.status).toBe(200)
      expect(none.body).toBeNull()
      const created = await addDestination(as, wallet)
      expect(created).toEqual({
        id: `sepolia:${wallet.address}:${FAU}`,
        destinationId: expect.stringMatching(
          new RegExp(`^${wallet.address}@eip155:11155111#[0-9A-F]{8}:${FAU}$`),
        ),
        walletAddress: wallet.address,
        tokenAddress: FAU,
        chainId: 11155111,
        network: 'sepolia',
        currency: 'FAU-sepolia',
        active: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })
      const active = await client().call('GET', '/v2/payee-destination', {
        ...as,
        query: { walletAddress: wallet.address.toLowerCase() },
      })
      expect(active.body).toEqual(created)
      const byId = await client().call(
        'GET',
        `/v2/payee-destination/${encodeURIComponent(`sepolia:${wallet.address.toLowerCase()}:${FAU.toLowerCase()}`)}`,
        as,
      )
      expect(byId.status).toBe(200)
      expect(byId.body).toEqual(created)
      const byComposite = await client().call(
        'GET',
        `/v2/payee-destination/${encodeURIComponent(created.destinationId)}`,
        as,
      )
      expect(byComposite.body).toEqual(created)
      const wrongChecksum = created.destinationId.replace(/#[0-9A-F]{8}/, '#00000000')
      const missing = await client().call(
        'GET',
        `/v2/payee-destination/${encodeURIComponent(wrongChecksum)}`,
        as,
      )
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({
        statusCode: 404,
        message: 'Payee destination not found',
        error: 'Not Found',
      })
    })

    it('refuses a wrong signer, a reused nonce, an unknown or expired nonce and a nonce issued for another action', async () => {
      const { apiKey, as } = await newClient()
      const wallet = newWallet()
      const data = await signingData(as, wallet, 'add')
      const forged = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature: await sign(newWallet(), data), nonce: data.nonce },
      })
      expect(forged.status).toBe(400)
      expect(forged.body).toEqual({
        statusCode: 400,
        message: `Invalid signature: the typed data was not signed by ${wallet.address}`,
        error: 'Bad Request',
      })
      const signature = await sign(wallet, data)
      const first = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature, nonce: data.nonce },
      })
      expect(first.status).toBe(201)
      const replay = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature, nonce: data.nonce },
      })
      expect(replay.status).toBe(400)
      expect(replay.body.message).toBe('Nonce has already been used')
      const unknown = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature, nonce: 'abc' },
      })
      expect(unknown.status).toBe(400)
      expect(unknown.body.message).toMatch(/^Invalid nonce/)
      const malformed = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature: '0x12', nonce: '' },
      })
      expect(malformed.status).toBe(400)
      expect(malformed.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'nonce',
        'signature',
      ])
      const deactivation = await signingData(as, wallet, 'deactivate')
      const wrongAction = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature: await sign(wallet, deactivation), nonce: deactivation.nonce },
      })
      expect(wrongAction.body.message).toBe('Nonce was issued for action deactivate, not add')
      const late = await signingData(as, wallet, 'add', USDC)
      expect(
        (await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 601 } })).status,
      ).toBe(200)
      const expired = await client().call('POST', '/v2/payee-destination', {
        ...as,
        body: { signature: await sign(wallet, late), nonce: late.nonce },
      })
      expect(expired.status).toBe(400)
      expect(expired.body.message).toBe('Nonce has expired')
    })

    it('deactivates with a signed nonce (the record stays, inactive); an inactive or unknown destination gets the documented 400', async () => {
      const { as } = await newClient()
      const wallet = newWallet()
      const created = await addDestination(as, wallet)
      const path = `/v2/payee-destination/${encodeURIComponent(created.id)}`
      const addNonce = await signingData(as, wallet, 'add')
      const withAddNonce = await client().call('DELETE', path, {
        ...as,
        body: { signature: await sign(wallet, addNonce), nonce: addNonce.nonce },
      })
      expect(withAddNonce.status).toBe(400)
      const data = await signingData(as, wallet, 'deactivate')
      const forged = await client().call('DELETE', path, {
        ...as,
        body: { signature: await sign(newWallet(), data), nonce: data.nonce },
      })
      expect(forged.status).toBe(400)
      const done = await client().call('DELETE', path, {
        ...as,
        body: { signature: await sign(wallet, data), nonce: data.nonce },
      })
      expect(done.status).toBe(200)
      expect(done.body).toMatchObject({ id: created.id, active: false })
      expect((await client().call('GET', path, as)).body.active).toBe(false)
      expect(
        (
          await client().call('GET', '/v2/payee-destination', {
            ...as,
            query: { walletAddress: wallet.address },
          })
        ).body,
      ).toBeNull()
      const again = await signingData(as, wallet, 'deactivate')
      const twice = await client().call('DELETE', path, {
        ...as,
        body: { signature: await sign(wallet, again), nonce: again.nonce },
      })
      expect(twice.status).toBe(400)
      expect(twice.body).toEqual({ statusCode: 400, message: 'Destination not found', error: 'Bad Request' })
    })

    it('keeps one active destination per wallet: a new token replaces the previous one', async () => {
      const { as } = await newClient()
      const wallet = newWallet()
      const fau = await addDestination(as, wallet, FAU)
      const usdc = await addDestination(as, wallet, USDC)
      expect(usdc.currency).toBe('USDC-sepolia')
      const active = await client().call('GET', '/v2/payee-destination', {
        ...as,
        query: { walletAddress: wallet.address },
      })
      expect(active.body.id).toBe(usdc.id)
      expect(
        (await client().call('GET', `/v2/payee-destination/${encodeURIComponent(fau.id)}`, as)).body.active,
      ).toBe(false)
    })

    it('stands in for payee on requests created through the client ID, and resolves for secure payments', async () => {
      const { apiKey, as } = await newClient()
      const invoice = { amount: '10', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' }
      const without = await client().call('POST', '/v2/request', { ...as, body: invoice })
      expect(without.status).toBe(400)
      const wallet = newWallet()
      const destination = await addDestination(as, wallet)
      const created = await client().call('POST', '/v2/request', { ...as, body: invoice })
      expect(created.status).toBe(201)
      const world = t.sandbox.shared.tenants.get(apiKey)
      expect(requestState(world).requests.get(created.body.requestId)?.payee).toBe(wallet.address)
      // an explicit payee still wins
      const other = newWallet().address
      const explicit = await client().call('POST', '/v2/request', {
        ...as,
        body: { ...invoice, payee: other },
      })
      expect(requestState(world).requests.get(explicit.body.requestId)?.payee).toBe(other)
      // an API-key call names its payee as before
      expect((await client().call('POST', '/v2/request', { apiKey, body: invoice })).status).toBe(400)
      expect(resolveDestination(world, destination.destinationId)).toEqual({
        id: destination.id,
        destinationId: destination.destinationId,
        payee: wallet.address,
        tokenAddress: FAU,
        chainId: 11155111,
        network: 'sepolia',
        currency: 'FAU-sepolia',
        accessPolicy: null,
      })
      expect(resolveDestination(world, `sepolia:${newWallet().address}:${FAU}`)).toBeUndefined()
    })
  },
)
