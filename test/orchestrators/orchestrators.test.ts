// Orchestrators (RequestNetwork/mintlify-docs orchestrators/*.mdx, 2026-Q2): x-orchestrator-key, client-ID links,
// link intents with the hosted onboarding page, KYT plans, paired authentication, fee configs, branding and the
// orchestrator's webhooks, through both transports. Fees moving money on chain: orchestrator-fees.test.ts.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, verify, type WebhookReceiver } from '../support/webhook-receiver.ts'

let t: Transports
let receiver: WebhookReceiver
beforeAll(async () => {
  t = await startTransports(newApiKey, { chain: false })
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await t?.close()
})

const newOrchestratorKey = () => `orc_test_${randomBytes(8).toString('hex')}`
const wallet = () => `0x${randomBytes(20).toString('hex')}`
const ORIGIN = 'https://shop.example.com'

/** The first delivery the receiver got on `path`. */
const deliveryTo = (path: string) =>
  waitFor(() => receiver.received.find((r) => r.path === path), { timeoutMs: 10_000, intervalMs: 10 })

describeTransports(
  'orchestrators through %s',
  () => t,
  (client) => {
    const orc = (key: string, method: string, path: string, body?: unknown, query?: Record<string, string>) =>
      client().call(method, path, {
        apiKey: null,
        headers: { 'x-orchestrator-key': key },
        ...(body !== undefined ? { body } : {}),
        ...(query ? { query } : {}),
      })
    /** The API key that made each client ID (its owner: a direct link needs it). */
    const ownerOf = new Map<string, string>()
    /** A platform's client ID (made with its API key). */
    const platformClientId = async (apiKey = newApiKey(), allowedDomains = [ORIGIN]) => {
      const res = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'Platform', allowedDomains },
      })
      expect(res.status).toBe(201)
      ownerOf.set(res.body.clientId, apiKey)
      return res.body.clientId as string
    }
    /** A direct link, with the client ID's owner's consent (its API key beside the orchestrator key). */
    const link = (key: string, clientId: string, owner = ownerOf.get(clientId) ?? null) =>
      client().call('POST', '/v2/orchestrators/client-ids', {
        apiKey: owner,
        headers: { 'x-orchestrator-key': key },
        body: { clientId },
      })

    it("an intent's onboarding page still opens after its orchestrator's snapshot is restored", async () => {
      const key = newOrchestratorKey()
      const created = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
        clientIdName: 'Restored Store',
        domains: [ORIGIN],
      })
      expect(created.status).toBe(201)
      const page = new URL(created.body.url)
      const path = `${page.pathname}${page.search}`
      const saved = await client().call('POST', '/__sandbox/snapshots', {
        apiKey: key,
        body: { name: 'before' },
      })
      expect(saved.status, saved.text).toBe(201)
      const restored = await client().call('POST', '/__sandbox/snapshots/before/restore', { apiKey: key })
      expect(restored.status, restored.text).toBe(200)
      const form = await client().call('GET', path, { apiKey: null })
      expect(form.status, form.text).toBe(200)
      expect(form.text).toContain('Restored Store')
    })

    it('takes any orc_ key as its own orchestrator; no key or a malformed one is 401', async () => {
      const none = await client().call('GET', '/v2/orchestrators/client-ids', { apiKey: null })
      expect(none.status).toBe(401)
      const malformed = await orc('not-an-orc-key', 'GET', '/v2/orchestrators/client-ids')
      expect(malformed.status).toBe(401)
      // an API key is not an orchestrator key
      const apiKey = await client().call('GET', '/v2/orchestrators/client-ids')
      expect(apiKey.status).toBe(401)
      const ok = await orc(newOrchestratorKey(), 'GET', '/v2/orchestrators/client-ids')
      expect(ok.status).toBe(200)
      expect(ok.body).toEqual({ links: [], total: 0, page: 1, limit: 20 })
    })

    it('links a client ID once: a second link (same or other orchestrator, or after unlink) is 409', async () => {
      const key = newOrchestratorKey()
      const other = newOrchestratorKey()
      const clientId = await platformClientId()
      // without its owner's API key: 403, and nothing recorded
      expect((await orc(key, 'POST', '/v2/orchestrators/client-ids', { clientId })).status).toBe(403)
      const linked = await link(key, clientId)
      expect(linked.status).toBe(201)
      expect(linked.body).toEqual({ link: { clientId, status: 'active' }, alreadyLinked: false })
      expect((await link(key, clientId)).status).toBe(409)
      expect((await link(other, clientId)).status).toBe(409)
      const unknown = await orc(key, 'POST', '/v2/orchestrators/client-ids', { clientId: 'cli_000000000000' })
      expect(unknown.status).toBe(404)
      const malformed = await orc(key, 'POST', '/v2/orchestrators/client-ids', { clientId: 'nope' })
      expect(malformed.status).toBe(400)

      // pagination over active links
      const more = [await platformClientId(), await platformClientId()]
      for (const id of more) await link(key, id)
      const page2 = await orc(key, 'GET', '/v2/orchestrators/client-ids', undefined, {
        page: '2',
        limit: '2',
      })
      expect(page2.body).toEqual({
        links: [{ clientId: more[1], status: 'active' }],
        total: 3,
        page: 2,
        limit: 2,
      })
      expect((await orc(key, 'GET', '/v2/orchestrators/client-ids', undefined, { limit: '0' })).status).toBe(
        400,
      )

      const unlinked = await orc(key, 'DELETE', `/v2/orchestrators/client-ids/${clientId}`)
      expect(unlinked.status).toBe(200)
      expect((await orc(key, 'DELETE', `/v2/orchestrators/client-ids/${clientId}`)).status).toBe(404)
      const list = await orc(key, 'GET', '/v2/orchestrators/client-ids')
      expect(list.body.links.map((l: { clientId: string }) => l.clientId)).toEqual(more)
      expect((await link(key, clientId)).status).toBe(409)
      expect((await link(other, clientId)).status).toBe(409)
    })

    it('refuses link intents outside the documented rules (domains, KYT plans)', async () => {
      const key = newOrchestratorKey()
      const bad = [
        {},
        { clientIdName: 'Acme', domains: ['http://app.example.com'] },
        { clientIdName: 'Acme', domains: ['https://app.example.com/path'] },
        { clientIdName: 'Acme', domains: ['https://app.example.com?x=1'] },
        { clientIdName: 'Acme', domains: ['https://a.example.com', 'https://a.example.com'] },
        { clientIdName: 'Acme', domains: Array.from({ length: 11 }, (_, i) => `https://d${i}.example.com`) },
        { clientIdName: 'Acme', kyt: { providers: [] } },
        { clientIdName: 'Acme', kyt: { providers: [{ provider: 'hypernative', priority: 1 }] } },
        {
          clientIdName: 'Acme',
          kyt: { providers: [{ provider: 'hypernative' }, { provider: 'hypernative' }] },
        },
        { clientIdName: 'Acme', kyt: { providers: [{ provider: 'chainalysis' }] } },
        { clientIdName: 'Acme', kyt: { providers: [{ provider: 'hypernative', policyId: 'not-a-uuid' }] } },
      ]
      for (const body of bad) {
        const res = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', body)
        expect(res.status, JSON.stringify(body)).toBe(400)
      }
      const local = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
        clientIdName: 'Dev',
        domains: [
          'http://localhost:3000',
          'http://127.0.0.1:8080',
          'http://[::1]:5173',
          'https://app.example.com/',
        ],
      })
      expect(local.status).toBe(201)
    })

    it('onboards a platform through the hosted page: a linked client ID, client_id.linked signed, single use', async () => {
      const key = newOrchestratorKey()
      const hookUrl = `${receiver.url}/onboard-${client().transport}`
      const hook = await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: hookUrl })
      expect(hook.status).toBe(201)
      const secret = hook.body.secret as string
      const created = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
        clientIdName: 'Acme Store',
        domains: [ORIGIN],
        externalId: 'user_123',
        kyt: {
          providers: [
            { provider: 'hypernative', policyId: '11111111-1111-4111-8111-111111111111' },
            { provider: 'merklescience' },
          ],
        },
      })
      expect(created.status).toBe(201)
      const { url, intent } = created.body
      expect(intent).toMatchObject({ clientIdName: 'Acme Store', externalId: 'user_123', used: false })
      const clock = await client().call('GET', '/__sandbox/clock', { apiKey: key })
      expect(Date.parse(intent.expiresAt) - Date.parse(clock.body.now)).toBeGreaterThan(2 * 86400_000 - 5000)
      expect(Date.parse(intent.expiresAt) - Date.parse(clock.body.now)).toBeLessThanOrEqual(2 * 86400_000)
      const page = new URL(url)
      expect(page.pathname).toBe('/__sandbox/orchestrator-onboarding')
      const path = `${page.pathname}${page.search}`
      const form = await client().call('GET', path, { apiKey: null })
      expect(form.status).toBe(200)
      expect(form.headers.get('content-type')).toContain('text/html')
      expect(form.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(form.text).not.toMatch(/<script/i)
      expect(form.text).toContain('Acme Store')
      expect(form.text).toContain('hypernative')

      const payee = wallet()
      const refused = await client().call('POST', path, {
        apiKey: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: new URLSearchParams({ walletAddress: payee, currency: 'USDC-sepolia' }).toString(),
      })
      expect(refused.status).toBe(400) // not confirmed
      const done = await client().call('POST', path, {
        apiKey: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: new URLSearchParams({
          walletAddress: payee,
          currency: 'USDC-sepolia',
          confirm: 'yes',
        }).toString(),
      })
      expect(done.status).toBe(200)
      const clientId = /id="client-id">(cli_[0-9a-f]+)</.exec(done.text)?.[1]
      expect(clientId).toBeDefined()
      const links = await orc(key, 'GET', '/v2/orchestrators/client-ids')
      expect(links.body.links).toEqual([{ clientId, status: 'active' }])

      const event = await deliveryTo(new URL(hookUrl).pathname)
      expect(verify(event.raw, event.headers['x-request-network-signature'] as string, secret)).toBe(true)
      expect(event.headers['x-request-network-test']).toBeUndefined()
      expect(event.body).toMatchObject({
        event: 'client_id.linked',
        clientId,
        linkId: expect.any(String),
        intentId: intent.id,
        externalId: 'user_123',
        destinationId: expect.stringMatching(
          /^0x[0-9a-fA-F]{40}@eip155:11155111#[0-9A-F]{8}:0x[0-9a-fA-F]{40}$/,
        ),
        destinationWalletAddress: payee.toLowerCase(),
        chain: 'sepolia',
        currency: 'USDC',
        timestamp: expect.any(String),
      })
      expect(event.body.orchestratorId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)

      // single use
      const again = await client().call('GET', path, { apiKey: null })
      expect(again.status).toBe(410)
      const reuse = await client().call('POST', path, {
        apiKey: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: new URLSearchParams({
          walletAddress: wallet(),
          currency: 'USDC-sepolia',
          confirm: 'yes',
        }).toString(),
      })
      expect(reuse.status).toBe(410)
      expect(
        (await client().call('GET', '/__sandbox/orchestrator-onboarding?token=nope', { apiKey: null }))
          .status,
      ).toBe(404)

      // the onboarded client ID pays through paired authentication only, to its bound destination
      const alone = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-client-id': clientId!, origin: ORIGIN },
        body: { requests: [{ amount: '10' }] },
      })
      expect(alone.status).toBe(403)
      const paired = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-client-id': clientId!, 'x-orchestrator-key': key, origin: ORIGIN },
        body: { requests: [{ amount: '10' }] },
      })
      expect(paired.status, paired.text).toBe(201)
      const named = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-client-id': clientId!, 'x-orchestrator-key': key, origin: ORIGIN },
        body: { requests: [{ amount: '3', destinationId: event.body.destinationId }] },
      })
      expect(named.status, named.text).toBe(201)
      // the orchestrator's screening plan cannot be overridden on the payment
      const override = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-client-id': clientId!, 'x-orchestrator-key': key, origin: ORIGIN },
        body: { requests: [{ amount: '3' }], accessPolicy: { screeningProvider: 'merklescience' } },
      })
      expect(override.status).toBe(400)
      const display = await client().call('GET', `/__sandbox/secure-payments/${paired.body.token}`, {
        apiKey: null,
      })
      expect(display.body.payee.toLowerCase()).toBe(payee.toLowerCase())
      expect(display.body.orchestratorId).toBe(event.body.orchestratorId)

      // the link's screening plan reports the payer's result to the orchestrator, once per wallet
      const payer = wallet()
      for (let i = 0; i < 2; i++) {
        const seen = await client().call(
          'POST',
          `/__sandbox/secure-payments/${paired.body.token}/user-events`,
          {
            apiKey: null,
            body: { userEvent: 'wallet_connected', walletAddress: payer },
          },
        )
        expect(seen.status).toBe(201)
      }
      const screened = await waitFor(() =>
        receiver.received.find(
          (r) => r.path === new URL(hookUrl).pathname && r.body.event === 'kyt.screening.completed',
        ),
      )
      expect(screened.body).toEqual({
        event: 'kyt.screening.completed',
        paymentToken: paired.body.token,
        walletAddress: payer.toLowerCase(),
        eoaAddress: payer.toLowerCase(),
        smartAccountAddress: null,
        status: 'approved',
        provider: 'hypernative',
        policyId: '11111111-1111-4111-8111-111111111111',
        timestamp: expect.any(String),
      })
      expect(verify(screened.raw, screened.headers['x-request-network-signature'] as string, secret)).toBe(
        true,
      )
      const events = await client().call('GET', '/__sandbox/events', {
        apiKey: key,
        query: { type: 'kyt.screening.completed' },
      })
      expect(events.body.events).toHaveLength(1)
    })

    it('lets the platform choose its screening when the intent has no plan: its provider reports, none sends nothing', async () => {
      const key = newOrchestratorKey()
      const onboard = async (kyt: string) => {
        const created = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
          clientIdName: `Shop ${kyt}`,
        })
        const page = new URL(created.body.url)
        const form = await client().call('GET', `${page.pathname}${page.search}`, { apiKey: null })
        expect(form.text).toContain('name="kyt"')
        const done = await client().call('POST', `${page.pathname}${page.search}`, {
          apiKey: null,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          rawBody: new URLSearchParams({
            walletAddress: wallet(),
            currency: 'USDC-sepolia',
            confirm: 'yes',
            kyt,
          }).toString(),
        })
        expect(done.status).toBe(200)
        const clientId = /id="client-id">(cli_[0-9a-f]+)</.exec(done.text)![1]!
        const link = await client().call('POST', '/v2/secure-payments', {
          apiKey: null,
          headers: { 'x-client-id': clientId, 'x-orchestrator-key': key },
          // the platform controls screening: the payment may set it
          body: {
            requests: [{ amount: '2' }],
            accessPolicy: { mode: 'kyt_all_wallets', screeningProvider: 'hypernative' },
          },
        })
        expect(link.status, link.text).toBe(201)
        await client().call('POST', `/__sandbox/secure-payments/${link.body.token}/user-events`, {
          apiKey: null,
          body: { userEvent: 'wallet_connected', walletAddress: wallet() },
        })
        return link.body.token as string
      }
      const chosen = await onboard('merklescience')
      await onboard('none')
      const events = await client().call('GET', '/__sandbox/events', {
        apiKey: key,
        query: { type: 'kyt.screening.completed' },
      })
      expect(events.body.events.map((e: { payload: Record<string, unknown> }) => e.payload)).toEqual([
        expect.objectContaining({
          paymentToken: chosen,
          provider: 'merklescience',
          policyId: null,
          status: 'approved',
        }),
      ])
    })

    it('expires an intent two days later on the orchestrator key clock', async () => {
      const key = newOrchestratorKey()
      const created = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
        clientIdName: 'Late',
      })
      const page = new URL(created.body.url)
      const path = `${page.pathname}${page.search}`
      await client().call('POST', '/__sandbox/clock/advance', {
        apiKey: key,
        body: { seconds: 2 * 86400 - 60 },
      })
      expect((await client().call('GET', path, { apiKey: null })).status).toBe(200)
      await client().call('POST', '/__sandbox/clock/advance', { apiKey: key, body: { seconds: 60 } })
      const expired = await client().call('GET', path, { apiKey: null })
      expect(expired.status).toBe(410)
      expect(expired.text).toContain('expired')
    })

    it('pairs x-orchestrator-key with the x-client-id it linked; other pairs and a linked ID alone are refused', async () => {
      const key = newOrchestratorKey()
      const apiKey = newApiKey()
      const clientId = await platformClientId(apiKey)
      const body = { requests: [{ payee: wallet(), currency: 'FAU-sepolia', amount: '5' }] }
      const headers = (h: Record<string, string>) => ({
        apiKey: null,
        headers: { origin: ORIGIN, ...h },
        body,
      })
      // not linked yet: the client ID alone works, the pair is refused
      expect(
        (await client().call('POST', '/v2/secure-payments', headers({ 'x-client-id': clientId }))).status,
      ).toBe(201)
      const early = await client().call(
        'POST',
        '/v2/secure-payments',
        headers({ 'x-client-id': clientId, 'x-orchestrator-key': key }),
      )
      expect(early.status).toBe(403)
      await link(key, clientId)
      const alone = await client().call('POST', '/v2/secure-payments', headers({ 'x-client-id': clientId }))
      expect(alone.status).toBe(403)
      expect(alone.body.message).toContain('x-orchestrator-key')
      const aloneOut = await client().call('POST', '/v2/secure-payments/payouts', {
        apiKey: null,
        headers: { origin: ORIGIN, 'x-client-id': clientId },
        body: {
          recipient: wallet(),
          creatorWalletAddress: wallet(),
          network: 'sepolia',
          currency: 'FAU-sepolia',
          amount: '1',
        },
      })
      expect(aloneOut.status).toBe(403)
      const stranger = await client().call(
        'POST',
        '/v2/secure-payments',
        headers({ 'x-client-id': clientId, 'x-orchestrator-key': newOrchestratorKey() }),
      )
      expect(stranger.status).toBe(403)
      const keyOnly = await client().call(
        'POST',
        '/v2/secure-payments',
        headers({ 'x-orchestrator-key': key }),
      )
      expect(keyOnly.status).toBe(401)
      const paired = await client().call(
        'POST',
        '/v2/secure-payments',
        headers({ 'x-client-id': clientId, 'x-orchestrator-key': key }),
      )
      expect(paired.status).toBe(201)
      const wrongOrigin = await client().call('POST', '/v2/secure-payments', {
        ...headers({ 'x-client-id': clientId, 'x-orchestrator-key': key }),
        headers: { origin: 'https://evil.example.com', 'x-client-id': clientId, 'x-orchestrator-key': key },
      })
      expect(wrongOrigin.status).toBe(403)
      // the platform's own API key still creates links, and the pair reaches nothing else of the platform
      expect((await client().call('POST', '/v2/secure-payments', { apiKey, body })).status).toBe(201)
      const other = await client().call('GET', '/v2/client-ids', {
        apiKey: null,
        headers: { 'x-client-id': clientId, 'x-orchestrator-key': key, origin: ORIGIN },
      })
      expect(other.status).toBe(401)
      // unlinking ends the pair
      await orc(key, 'DELETE', `/v2/orchestrators/client-ids/${clientId}`)
      const after = await client().call(
        'POST',
        '/v2/secure-payments',
        headers({ 'x-client-id': clientId, 'x-orchestrator-key': key }),
      )
      expect(after.status).toBe(403)
    })

    it('keeps fee configs by the documented rules: one payer- and one recipient-borne per flow, identity immutable', async () => {
      const key = newOrchestratorKey()
      const feeAddress = '0x742d35CC6634c0532925a3B844BC9e7595f8fA40'
      const base = { bps: 250, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: feeAddress }
      const created = await orc(key, 'POST', '/v2/orchestrators/fee-configs', base)
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        feeType: 'orchestrator_fee',
        clientId: null,
        bps: 250,
        usdCap: null,
        feeBearer: 'payer',
        flow: 'incoming',
        evmRecipientAddress: feeAddress,
        tronRecipientAddress: null,
        status: 'active',
      })
      const { id } = created.body
      expect((await orc(key, 'POST', '/v2/orchestrators/fee-configs', { ...base, bps: 100 })).status).toBe(
        409,
      )
      for (const body of [
        { ...base, bps: 10001 },
        { ...base, bps: 2.5 },
        { ...base, feeBearer: 'payee' },
        { ...base, flow: 'sideways' },
        { bps: 10, feeBearer: 'recipient', flow: 'incoming' },
        { ...base, usdCap: 'ten' },
        { ...base, evmRecipientAddress: '0x123' },
      ]) {
        const res = await orc(key, 'POST', '/v2/orchestrators/fee-configs', body)
        expect(res.status, JSON.stringify(body)).toBe(400)
      }
      const tron = await orc(key, 'POST', '/v2/orchestrators/fee-configs', {
        bps: 100,
        usdCap: '5',
        feeBearer: 'recipient',
        flow: 'incoming',
        tronRecipientAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      })
      expect(tron.status).toBe(201)
      const outgoing = await orc(key, 'POST', '/v2/orchestrators/fee-configs', { ...base, flow: 'outgoing' })
      expect(outgoing.status).toBe(201)
      // a client-specific config needs a linked client ID
      const clientId = await platformClientId()
      expect((await orc(key, 'POST', '/v2/orchestrators/fee-configs', { ...base, clientId })).status).toBe(
        404,
      )
      await link(key, clientId)
      const own = await orc(key, 'POST', '/v2/orchestrators/fee-configs', { ...base, bps: 50, clientId })
      expect(own.status).toBe(201)
      expect(own.body.clientId).toBe(clientId)
      const filtered = await orc(key, 'GET', '/v2/orchestrators/fee-configs', undefined, { clientId })
      expect(filtered.body.map((c: { id: string }) => c.id)).toEqual([own.body.id])
      expect((await orc(key, 'GET', '/v2/orchestrators/fee-configs')).body).toHaveLength(4)

      // immutable identity, mutable rest
      expect(
        (await orc(key, 'PATCH', `/v2/orchestrators/fee-configs/${id}`, { flow: 'outgoing' })).status,
      ).toBe(400)
      expect(
        (await orc(key, 'PATCH', `/v2/orchestrators/fee-configs/${id}`, { feeBearer: 'recipient' })).status,
      ).toBe(400)
      expect((await orc(key, 'PATCH', `/v2/orchestrators/fee-configs/${id}`, { clientId })).status).toBe(404)
      expect(
        (await orc(key, 'PATCH', `/v2/orchestrators/fee-configs/${id}`, { evmRecipientAddress: null }))
          .status,
      ).toBe(400)
      const patched = await orc(key, 'PATCH', `/v2/orchestrators/fee-configs/${id}`, {
        bps: 300,
        usdCap: '25.50',
      })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({
        id,
        bps: 300,
        usdCap: '25.50',
        flow: 'incoming',
        feeBearer: 'payer',
      })
      // disabling keeps the pair taken; reactivating is an update
      const disabled = await orc(key, 'DELETE', `/v2/orchestrators/fee-configs/${id}`)
      expect(disabled.status).toBe(200)
      expect(disabled.body.status).toBe('disabled')
      expect((await orc(key, 'POST', '/v2/orchestrators/fee-configs', base)).status).toBe(409)
      expect(
        (await orc(key, 'PATCH', `/v2/orchestrators/fee-configs/${id}`, { status: 'active' })).body.status,
      ).toBe('active')
      expect((await orc(key, 'DELETE', '/v2/orchestrators/fee-configs/nope')).status).toBe(404)
      // another orchestrator sees none of it
      expect(
        (await orc(newOrchestratorKey(), 'PATCH', `/v2/orchestrators/fee-configs/${id}`, { bps: 1 })).status,
      ).toBe(404)
    })

    it('manages branding: 409 on a second create, colour and path rules, partial PATCH, idempotent DELETE', async () => {
      const key = newOrchestratorKey()
      const brand = {
        pageBackgroundColor: '#101828',
        cardBackgroundColor: '#1d2939',
        primaryActionColor: '#7f56d9',
        primaryTextColor: '#fff',
        secondaryTextColor: '#98a2b3',
        logoPath: '/branding/sandbox/logo.png',
        termsPath: '/branding/sandbox/terms.html',
        privacyPath: '/branding/sandbox/privacy.html',
      }
      expect((await orc(key, 'GET', '/v2/orchestrators/branding')).status).toBe(404)
      const created = await orc(key, 'POST', '/v2/orchestrators/branding', brand)
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ ...brand, displayRequestBranding: false })
      expect((await orc(key, 'POST', '/v2/orchestrators/branding', brand)).status).toBe(409)
      for (const body of [
        { primaryActionColor: 'purple' },
        { primaryActionColor: '#12345' },
        { logoPath: '/branding/acme/logo.svg' },
        { logoPath: 'https://cdn.example.com/branding/logo.png' },
        { logoPath: '//cdn.example.com/branding/logo.png' },
        { logoPath: '/branding/../secret/logo.png' },
        { logoPath: '/branding/acme/logo.png?v=2' },
        { termsPath: '/branding/acme/terms.pdf' },
        { privacyPath: '/assets/privacy.html' },
      ]) {
        const res = await orc(key, 'PATCH', '/v2/orchestrators/branding', body)
        expect(res.status, JSON.stringify(body)).toBe(400)
      }
      const patched = await orc(key, 'PATCH', '/v2/orchestrators/branding', { primaryActionColor: '#ff0066' })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({ ...brand, primaryActionColor: '#ff0066' })

      // per client ID: needs a link; replaces the orchestrator row entirely on the payment
      const apiKey = newApiKey()
      const clientId = await platformClientId(apiKey)
      expect(
        (await orc(key, 'POST', '/v2/orchestrators/branding', { clientId, primaryActionColor: '#00ff00' }))
          .status,
      ).toBe(404)
      await link(key, clientId)
      const pay = async () => {
        const created = await client().call('POST', '/v2/secure-payments', {
          apiKey: null,
          headers: { 'x-client-id': clientId, 'x-orchestrator-key': key, origin: ORIGIN },
          body: { requests: [{ payee: wallet(), currency: 'FAU-sepolia', amount: '1' }] },
        })
        return (
          await client().call('GET', `/__sandbox/secure-payments/${created.body.token}`, { apiKey: null })
        ).body
      }
      const withOrchestratorRow = await pay()
      expect(withOrchestratorRow.branding).toMatchObject({ ...brand, primaryActionColor: '#ff0066' })
      expect(withOrchestratorRow.orchestratorId).toBe(created.body.orchestratorId)
      const own = await orc(key, 'POST', '/v2/orchestrators/branding', {
        clientId,
        primaryActionColor: '#00ff00',
      })
      expect(own.status).toBe(201)
      expect(own.body.clientIdId).toBe(clientId)
      const withClientRow = await pay()
      expect(withClientRow.branding.primaryActionColor).toBe('#00ff00')
      expect(withClientRow.branding.logoPath).toBeUndefined() // unset fields fall back to the page defaults
      expect((await orc(key, 'GET', '/v2/orchestrators/branding', undefined, { clientId })).body.id).toBe(
        own.body.id,
      )

      expect((await orc(key, 'DELETE', '/v2/orchestrators/branding', undefined, { clientId })).status).toBe(
        200,
      )
      expect((await orc(key, 'DELETE', '/v2/orchestrators/branding', undefined, { clientId })).status).toBe(
        200,
      )
      expect((await pay()).branding.primaryActionColor).toBe('#ff0066')
      expect((await orc(key, 'DELETE', '/v2/orchestrators/branding')).body).toEqual({ deleted: true })
      expect((await orc(key, 'DELETE', '/v2/orchestrators/branding')).body).toEqual({ deleted: false })
      const plain = await pay()
      expect(plain.branding.primaryActionColor).toBeUndefined()

      // the bundled brand's files are served where the paths point
      const logo = await client().call('GET', '/branding/sandbox/logo.png', { apiKey: null })
      expect(logo.status).toBe(200)
      expect(logo.headers.get('content-type')).toBe('image/png')
      expect((await client().call('GET', '/branding/acme/logo.png', { apiKey: null })).status).toBe(404)
    })

    it('answers bad input with a 4xx, never a 500', async () => {
      const key = newOrchestratorKey()
      const cases: [string, string, unknown, Record<string, string>?][] = [
        ['POST', '/v2/orchestrators/client-ids', { clientId: 42 }],
        ['POST', '/v2/orchestrators/client-ids', [1, 2]],
        ['GET', '/v2/orchestrators/client-ids', undefined, { page: 'abc' }],
        [
          'POST',
          '/v2/orchestrators/client-id-link-intents',
          { clientIdName: 'x', domains: 'https://a.example.com' },
        ],
        ['POST', '/v2/orchestrators/client-id-link-intents', { clientIdName: 'x', domains: ['::::'] }],
        ['POST', '/v2/orchestrators/client-id-link-intents', { clientIdName: 'x', kyt: 'hypernative' }],
        ['POST', '/v2/orchestrators/fee-configs', { bps: '250', feeBearer: 'payer', flow: 'incoming' }],
        ['PATCH', '/v2/orchestrators/fee-configs/x', { bps: -1 }],
        ['POST', '/v2/orchestrators/branding', { clientId: 7 }],
        ['POST', '/v2/orchestrators/branding', { displayRequestBranding: 'yes' }],
        ['GET', '/v2/orchestrators/branding', undefined, { clientId: 'cli_nobody' }],
        ['POST', '/v2/orchestrators/webhooks', { url: 'ftp://example.com/hook' }],
        ['POST', '/v2/orchestrators/webhooks/test', { eventType: 12 }],
      ]
      for (const [method, path, body, query] of cases) {
        const res = await orc(key, method, path, body, query)
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400)
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500)
        expect(res.body.statusCode ?? res.status).toBe(res.status)
      }
      const form = await client().call('POST', '/__sandbox/orchestrator-onboarding', {
        apiKey: null,
        query: { token: 'x'.repeat(300) },
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: '%%%',
      })
      expect(form.status).toBe(400)
      const created = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
        clientIdName: 'Fuzz',
      })
      const page = new URL(created.body.url)
      const garbage = await client().call('POST', `${page.pathname}${page.search}`, {
        apiKey: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: 'walletAddress=0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7&currency=NOPE&confirm=yes',
      })
      expect(garbage.status).toBe(400)
      expect(garbage.text).toContain('not a supported ERC20 token')
    })

    it('registers webhooks (secret once), refuses a duplicate URL, deactivates, reactivates and sends signed tests', async () => {
      const key = newOrchestratorKey()
      const url = `${receiver.url}/hooks-${client().transport}-${randomBytes(3).toString('hex')}`
      const created = await orc(key, 'POST', '/v2/orchestrators/webhooks', { url })
      expect(created.status).toBe(201)
      expect(created.body.webhook).toMatchObject({ url, isActive: true })
      expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/)
      const { id } = created.body.webhook
      expect((await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: 'not a url' })).status).toBe(400)
      expect((await orc(key, 'POST', '/v2/orchestrators/webhooks', { url })).status).toBe(409)
      const list = await orc(key, 'GET', '/v2/orchestrators/webhooks')
      expect(list.body).toEqual({ webhooks: [created.body.webhook] })
      expect(list.text).not.toContain(created.body.secret)

      const test = await orc(key, 'POST', '/v2/orchestrators/webhooks/test', {
        eventType: 'kyt.screening.completed',
      })
      expect(test.status).toBe(201)
      expect(test.body).toEqual({ sent: 1, failed: 0 })
      const got = await deliveryTo(new URL(url).pathname)
      expect(verify(got.raw, got.headers['x-request-network-signature'] as string, created.body.secret)).toBe(
        true,
      )
      expect(got.headers['x-request-network-test']).toBe('true')
      expect(got.body).toMatchObject({
        event: 'kyt.screening.completed',
        status: 'approved',
        provider: expect.any(String),
        smartAccountAddress: null,
      })

      const off = await orc(key, 'DELETE', `/v2/orchestrators/webhooks/${id}`)
      expect(off.status).toBe(200)
      expect(off.body.webhook.isActive).toBe(false)
      expect(off.text).not.toContain(created.body.secret)
      expect((await orc(key, 'POST', '/v2/orchestrators/webhooks/test', {})).body).toEqual({
        sent: 0,
        failed: 0,
      })
      expect((await orc(key, 'POST', '/v2/orchestrators/webhooks', { url })).status).toBe(409)
      const on = await orc(key, 'PATCH', `/v2/orchestrators/webhooks/${id}`)
      expect(on.body.webhook.isActive).toBe(true)
      expect((await orc(key, 'PATCH', '/v2/orchestrators/webhooks/unknown')).status).toBe(404)
      expect(
        (await orc(key, 'POST', '/v2/orchestrators/webhooks/test', { eventType: 'payment.confirmed' }))
          .status,
      ).toBe(400)
      // another orchestrator sees none of them
      expect((await orc(newOrchestratorKey(), 'GET', '/v2/orchestrators/webhooks')).body).toEqual({
        webhooks: [],
      })
    })

    it('uses an onboarding link once even when two forms are posted at the same time', async () => {
      const key = newOrchestratorKey()
      const created = await orc(key, 'POST', '/v2/orchestrators/client-id-link-intents', {
        clientIdName: 'Race',
      })
      const page = new URL(created.body.url)
      const post = () =>
        client().call('POST', `${page.pathname}${page.search}`, {
          apiKey: null,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          rawBody: new URLSearchParams({
            walletAddress: wallet(),
            currency: 'USDC-sepolia',
            confirm: 'yes',
          }).toString(),
        })
      const answers = await Promise.all([post(), post(), post()])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 410, 410])
      expect((await orc(key, 'GET', '/v2/orchestrators/client-ids')).body.links).toHaveLength(1)
    })

    it('refuses a webhook destination the operator does not allow, and one past --max-webhooks, as /v2/webhook does', async () => {
      const key = newOrchestratorKey()
      // the sandbox's own port is refused even on a developer's machine (no --webhook-hosts entry names it)
      const own = await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: `${t.server.url}/hook` })
      expect(own.status).toBe(400)
      expect(own.body.message).toMatch(/destination not allowed: port \d+ of \S+ is the sandbox's own/)
      const max = t.sandbox.shared.webhooks.maxPerKey
      for (let i = 0; i < max; i++)
        expect(
          (await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: `${receiver.url}/cap-${i}` })).status,
        ).toBe(201)
      const over = await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: `${receiver.url}/cap-${max}` })
      expect(over.status).toBe(400)
      expect(over.body.message).toMatch(/--max-webhooks/)
      expect((await orc(key, 'GET', '/v2/orchestrators/webhooks')).body.webhooks).toHaveLength(max)
    })
  },
)
