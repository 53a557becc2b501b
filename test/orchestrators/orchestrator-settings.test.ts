// Orchestrators (RequestNetwork/mintlify-docs orchestrators/*.mdx, 2026-Q2): what an orchestrator key configures
// (fee configs, branding, its webhooks) and its bad input, through both transports.
import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { describeTransports, newApiKey } from '../support/clients.ts'
import { verify } from '../support/webhook-receiver.ts'
import { newOrchestratorKey, ORIGIN, orchestratorCalls, useOrchestratorSandbox, wallet } from './setup.ts'

const sb = useOrchestratorSandbox()

describeTransports(
  'orchestrator settings through %s',
  () => sb.t,
  (client) => {
    const { orc, platformClientId, link } = orchestratorCalls(client)

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
      const url = `${sb.receiver.url}/hooks-${client().transport}-${randomBytes(3).toString('hex')}`
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
      const got = await sb.deliveryTo(new URL(url).pathname)
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

    it('refuses a webhook destination the operator does not allow, and one past --max-webhooks, as /v2/webhook does', async () => {
      const key = newOrchestratorKey()
      // the sandbox's own port is refused even on a developer's machine (no --webhook-hosts entry names it)
      const own = await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: `${sb.t.server.url}/hook` })
      expect(own.status).toBe(400)
      expect(own.body.message).toMatch(/destination not allowed: port \d+ of \S+ is the sandbox's own/)
      const max = sb.t.sandbox.shared.webhooks.maxPerKey
      for (let i = 0; i < max; i++)
        expect(
          (await orc(key, 'POST', '/v2/orchestrators/webhooks', { url: `${sb.receiver.url}/cap-${i}` }))
            .status,
        ).toBe(201)
      const over = await orc(key, 'POST', '/v2/orchestrators/webhooks', {
        url: `${sb.receiver.url}/cap-${max}`,
      })
      expect(over.status).toBe(400)
      expect(over.body.message).toMatch(/--max-webhooks/)
      expect((await orc(key, 'GET', '/v2/orchestrators/webhooks')).body.webhooks).toHaveLength(max)
    })
  },
)
