// Orchestrators (RequestNetwork/mintlify-docs orchestrators/*.mdx, 2026-Q2): x-orchestrator-key, client-ID links,
// link intents with the hosted onboarding page, KYT plans and paired authentication, through both transports. Fee
// configs, branding and the orchestrator's webhooks: orchestrator-settings.test.ts; fees moving money on chain:
// orchestrator-fees.test.ts.
import { expect, it } from 'vitest'
import { describeTransports, newApiKey } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { verify } from '../support/webhook-receiver.ts'
import { newOrchestratorKey, ORIGIN, orchestratorCalls, useOrchestratorSandbox, wallet } from './setup.ts'

const sb = useOrchestratorSandbox()

describeTransports(
  'orchestrators through %s',
  () => sb.t,
  (client) => {
    const { orc, platformClientId, link } = orchestratorCalls(client)

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
      const hookUrl = `${sb.receiver.url}/onboard-${client().transport}`
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

      const event = await sb.deliveryTo(new URL(hookUrl).pathname)
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
        sb.receiver.received.find(
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
  },
)
