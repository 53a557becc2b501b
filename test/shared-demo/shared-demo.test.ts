// Issue 20: a shared demo environment nobody can break into. Each reproduction of the issue, as it now answers:
// strict mode without the portal, safe links and page headers, webhooks only where the operator allows (checked
// after DNS, at registration and at each attempt), per-key caps, keys not listed on a shared listener, control
// writes refused to other origins, per-address signup limits and bounded bodies.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../../src/routes.ts'
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { waitFor } from '../support/wait.ts'

const servers: RunningServer[] = []
let receiver: Server
const received: string[] = []
let receiverPort = 0
/** host names the exposed sandbox resolves (instead of the system resolver), changed by the tests */
const dns = new Map<string, string>()

async function start(options: StartServerOptions): Promise<RunningServer> {
  const server = await startServer({ chain: false, ...options })
  servers.push(server)
  return server
}

async function call(
  server: RunningServer,
  method: string,
  path: string,
  options: { apiKey?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  })
  const text = await res.text()
  let body: Loose = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, headers: res.headers, body }
}

let strict: RunningServer
let strictPortal: RunningServer
let shared: RunningServer
let local: RunningServer

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.url ?? '')
    req.resume()
    res.end('ok')
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverPort = (receiver.address() as AddressInfo).port
  ;[strict, strictPortal, shared, local] = await Promise.all([
    start({ apiKeys: ['keyA', 'keyB'] }),
    start({ apiKeys: ['keyA'], portal: true }),
    // a shared listener (as HOST=0.0.0.0), with the operator's flags
    start({
      exposed: true,
      adminKey: 'admin-secret',
      signupsPerMinute: 3,
      webhooks: {
        hosts: [`localhost:${receiverPort}`],
        maxPerKey: 3,
        attemptsPerMinute: 2,
        resolve: async (host) => {
          if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }]
          const address = dns.get(host)
          if (!address) throw new Error('ENOTFOUND')
          return [{ address, family: address.includes(':') ? 6 : 4 }]
        },
      },
    }),
    start({}),
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await new Promise((resolve) => receiver?.close(resolve))
})

describe('strict mode is strict', () => {
  it('has no portal unless --portal: an anonymous caller cannot register, log in or make a key', async () => {
    const register = await call(strict, 'POST', '/v2/auth/register', {
      body: { email: 'anon@example.com', password: 'a long password' },
    })
    expect(register.status).toBe(404)
    expect(register.body.message).toMatch(/portal is off in strict mode.*--portal/)
    const login = await call(strict, 'POST', '/v1/auth/login', {
      body: { email: 'anon@example.com', password: 'a long password' },
    })
    expect(login.status).toBe(404)
    expect(
      (
        await call(strict, 'POST', '/v2/key', {
          body: { label: 'x' },
          headers: { cookie: 'session_token=x' },
        })
      ).status,
    ).toBe(401)
    // what the anonymous caller did next in the reproduction: all refused
    const invoice = {
      amount: '1',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    }
    for (const apiKey of [null, 'anything']) {
      expect((await call(strict, 'POST', '/v2/request', { apiKey, body: invoice })).status).toBe(401)
      expect((await call(strict, 'POST', '/__sandbox/faucet', { apiKey, body: {} })).status).toBe(401)
      expect(
        (await call(strict, 'POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 60 } })).status,
      ).toBe(401)
      expect(
        (await call(strict, 'POST', '/v2/webhook', { apiKey, body: { url: 'https://example.com/h' } }))
          .status,
      ).toBe(401)
    }
    expect((await call(strict, 'GET', '/__sandbox/keys')).body).toEqual({
      strict: true,
      listed: false,
      admin: false,
      keys: [],
    })
    expect((await call(strict, 'GET', '/__sandbox/clock', { apiKey: 'keyA' })).status).toBe(200)
  })

  it('answers without a key only the routes docs/shared-demo.md lists as public', () => {
    const open = routes.filter((r) => r.credentials.includes('public')).map((r) => `${r.method} ${r.path}`)
    expect(open.sort()).toEqual(
      [
        // the pages and their files, the documents
        'GET /',
        'GET /__sandbox',
        'GET /__sandbox/dashboard/:file',
        'GET /docs',
        'GET /openapi.json',
        'GET /openapi.yaml',
        'GET /llms.txt',
        'GET /guides/:file',
        'GET /__sandbox/secure-payment',
        'GET /__sandbox/secure-payment/:asset',
        'GET /__sandbox/payer-pages/:file',
        'GET /__sandbox/payer-pages/:token/agreement',
        'POST /__sandbox/payer-pages/:token/agreement',
        'GET /__sandbox/payer-pages/:token/kyc',
        'POST /__sandbox/payer-pages/:token/kyc',
        // an orchestrator's onboarding page behind a link intent's token, and the bundled brand's files
        'GET /__sandbox/orchestrator-onboarding',
        'POST /__sandbox/orchestrator-onboarding',
        'GET /branding/:brand/:file',
        // health, the chain (anvil's public accounts) and what wallets call
        'GET /__sandbox/health',
        'GET /__sandbox/chain',
        // the events `request-sandbox trigger` makes happen: one static list, in no world (issue 31 item 8)
        'GET /__sandbox/triggers',
        'POST /rpc',
        'POST /rpc/:network',
        // the Tron full node TronWeb calls (public, as TronGrid; broadcasts need the signer's signature)
        'GET /tron/wallet/:method',
        'POST /tron/wallet/:method',
        'GET /tron/walletsolidity/:method',
        'POST /tron/walletsolidity/:method',
        // the Secure Payment Page's own reads and calls of a link by its token, a journey's timeline (public in the service)
        'GET /__sandbox/secure-payments/:token',
        'GET /__sandbox/secure-payments/:token/pay',
        'POST /__sandbox/secure-payments/:token/user-events',
        'GET /__sandbox/secure-payments/:token/chain',
        'POST /__sandbox/secure-payments/:token/test-wallet/send',
        'POST /__sandbox/secure-payments/:token/tron/broadcast',
        'POST /__sandbox/secure-payments/:token/permit',
        'GET /v2/journey/:journeyId',
        // the portal's door (off in strict mode without --portal) and the key list (admin or loopback only)
        'POST /v1/auth/register',
        'POST /v1/auth/login',
        'POST /v2/auth/register',
        'POST /v2/auth/login',
        // the Auth API's wallet login (SIWE challenge and its signed answer)
        'POST /v1/auth/wallet/challenge',
        'POST /v1/auth/wallet/verify',
        'GET /__sandbox/keys',
      ].sort(),
    )
  })

  it('with --portal, issued keys are tenants as the flag documents', async () => {
    const register = await call(strictPortal, 'POST', '/v2/auth/register', {
      body: { email: 'team@example.com', password: 'a long password' },
    })
    expect(register.status).toBe(201)
    const cookie = register.headers.get('set-cookie')!.split(';')[0]!
    const key = await call(strictPortal, 'POST', '/v2/key', {
      body: { label: 'demo', isSandbox: true },
      headers: { cookie },
    })
    expect(key.status).toBe(201)
    expect((await call(strictPortal, 'GET', '/__sandbox/clock', { apiKey: key.body.key })).status).toBe(200)
    expect((await call(strictPortal, 'GET', '/__sandbox/clock', { apiKey: 'made-up' })).status).toBe(401)
  })
})

describe('pages run only their own code', () => {
  it('refuses a redirectUrl that is not http or https, naming the field', async () => {
    const apiKey = newApiKey()
    const request = {
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      currency: 'FAU-sepolia',
      amount: '1',
    }
    for (const redirectUrl of [
      'javascript:fetch("/v2/key")',
      'data:text/html,<script>1</script>',
      'JAVASCRIPT:x',
      '/relative',
      'https://u:p@example.com/',
    ]) {
      const res = await call(local, 'POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [request], redirectUrl },
      })
      expect(res.status).toBe(400)
      // use-cases/programmatic-payment-links.mdx: the documented refusal
      expect(res.body.message).toBe('redirectUrl must be a safe http(s) URL with no script/HTML payload')
    }
    const batch = await call(local, 'POST', '/v2/secure-payments/batch-payouts', {
      apiKey,
      body: { tokens: ['a', 'b'], redirectUrl: 'javascript:alert(1)' },
    })
    expect(batch.status).toBe(400)
    expect(JSON.stringify(batch.body)).toContain('redirectUrl')
  })

  it('sends a CSP without inline script, nosniff, a frame policy and a referrer policy on every page kind', async () => {
    for (const path of [
      '/',
      '/docs',
      '/__sandbox/secure-payment?token=nope',
      '/__sandbox/payer-pages/nope/kyc',
    ]) {
      const res = await call(shared, 'GET', path)
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp, path).toMatch(/script-src 'self'(;|$)/)
      expect(csp, path).not.toContain('unsafe-inline')
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer')
    }
    expect(
      (await call(shared, 'GET', '/__sandbox/dashboard/app.js')).headers.get('x-content-type-options'),
    ).toBe('nosniff')
  })

  it('marks the portal cookie SameSite=Strict, and Secure behind HTTPS', async () => {
    const plain = await call(local, 'POST', '/v2/auth/register', {
      body: { email: `p-${Date.now()}@example.com`, password: 'a long password' },
    })
    expect(plain.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict; Max-Age=86400$/)
    const proxied = await call(local, 'POST', '/v2/auth/register', {
      body: { email: `s-${Date.now()}@example.com`, password: 'a long password' },
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(proxied.headers.get('set-cookie')).toMatch(/SameSite=Strict; Max-Age=86400; Secure$/)
  })
})

describe('webhooks go where the operator allows', () => {
  const internal = [
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://2130706433/hook',
    'http://0x7f.0.0.1/hook',
    'http://127.1/hook',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/hook',
    'http://192.168.1.1/hook',
    'http://172.16.0.1/hook',
    'http://[fd00::1]/hook',
    'http://internal.example/hook', // resolves to a private address
    'http://nowhere.example/hook', // does not resolve
    `http://localhost:${1}/hook`, // the allowed host, another port
  ]

  it('refuses internal destinations at registration with a 400 naming url, on a shared listener', async () => {
    dns.set('internal.example', '10.0.0.5')
    const apiKey = newApiKey()
    for (const url of internal) {
      const res = await call(shared, 'POST', '/v2/webhook', { apiKey, body: { url } })
      expect(res.status, url).toBe(400)
      expect(res.body.message, url).toEqual([
        expect.objectContaining({
          path: ['url'],
          message: expect.stringMatching(/^Invalid url: destination not allowed/),
        }),
      ])
      const control = await call(shared, 'POST', '/__sandbox/webhooks', { apiKey, body: { url } })
      expect(control.status, url).toBe(400)
    }
    expect((await call(shared, 'GET', '/v2/webhook', { apiKey })).body).toEqual([])
  })

  it('checks the resolved address again at each attempt, and never shows the attempt as a port scan', async () => {
    const apiKey = newApiKey()
    dns.set('rebind.example', '93.184.215.14')
    const created = await call(shared, 'POST', '/v2/webhook', {
      apiKey,
      body: { url: 'http://rebind.example/h' },
    })
    expect(created.status).toBe(201)
    dns.set('rebind.example', '127.0.0.1')
    expect(
      (await call(shared, 'POST', '/v2/webhook/test', { apiKey, body: { eventType: 'payment.confirmed' } }))
        .status,
    ).toBe(201)
    const deliveries = await waitFor(async () => {
      const res = await call(shared, 'GET', '/__sandbox/webhooks/deliveries', { apiKey })
      return res.body[0]?.attempts?.length ? res.body : undefined
    })
    expect(deliveries[0].attempts[0]).toMatchObject({
      status: null,
      error: expect.stringMatching(/^refused: rebind\.example is not a public address/),
    })
  })

  it('delivers to what --webhook-hosts allows, within the per-key caps on webhooks and delivery rate', async () => {
    const apiKey = newApiKey()
    const allowed = `http://localhost:${receiverPort}/allowed-${apiKey}`
    expect((await call(shared, 'POST', '/v2/webhook', { apiKey, body: { url: allowed } })).status).toBe(201)
    dns.set('a.example', '93.184.215.14')
    for (const n of [1, 2])
      expect(
        (await call(shared, 'POST', '/v2/webhook', { apiKey, body: { url: `http://a.example/${n}` } }))
          .status,
      ).toBe(201)
    const fourth = await call(shared, 'POST', '/v2/webhook', { apiKey, body: { url: 'http://a.example/3' } })
    expect(fourth.status).toBe(400)
    expect(fourth.body.message).toMatch(/at most 3 webhooks \(--max-webhooks\)/)
    // only the allowed receiver stays active: two attempts a minute reach it, the third is not sent
    const hooks = (await call(shared, 'GET', '/v2/webhook', { apiKey })).body as { id: string; url: string }[]
    for (const hook of hooks.filter((h) => h.url !== allowed))
      await call(shared, 'DELETE', `/v2/webhook/${hook.id}`, { apiKey })
    for (let i = 0; i < 3; i++)
      await call(shared, 'POST', '/v2/webhook/test', { apiKey, body: { eventType: 'payment.confirmed' } })
    const deliveries = await waitFor(async () => {
      const res = await call(shared, 'GET', '/__sandbox/webhooks/deliveries', { apiKey })
      return res.body.length === 3 && res.body.every((d: Loose) => d.attempts.length > 0)
        ? res.body
        : undefined
    })
    const firstAttempts = deliveries.map((d: Loose) => d.attempts[0])
    expect(firstAttempts.filter((a: Loose) => a.status === 200)).toHaveLength(2)
    expect(firstAttempts.filter((a: Loose) => /--webhook-rate/.test(a.error ?? ''))).toHaveLength(1)
    expect(received.filter((u) => u === `/allowed-${apiKey}`)).toHaveLength(2)
  })

  it("on a loopback listener allows a developer's local receiver, but never the sandbox's own port", async () => {
    const apiKey = newApiKey()
    const ok = await call(local, 'POST', '/v2/webhook', {
      apiKey,
      body: { url: `http://127.0.0.1:${receiverPort}/dev` },
    })
    expect(ok.status).toBe(201)
    const own = await call(local, 'POST', '/v2/webhook', {
      apiKey,
      body: { url: `http://localhost:${local.port}/x` },
    })
    expect(own.status).toBe(400)
    expect(JSON.stringify(own.body)).toContain("is the sandbox's own")
  })
})

describe('a shared host without --api-keys', () => {
  it('lists keys only to the admin', async () => {
    const apiKey = newApiKey()
    await call(shared, 'GET', '/__sandbox/clock', { apiKey })
    expect((await call(shared, 'GET', '/__sandbox/keys')).body).toEqual({
      strict: false,
      listed: false,
      admin: true,
      keys: [],
    })
    const wrong = await call(shared, 'GET', '/__sandbox/keys', {
      headers: { 'x-sandbox-admin-key': 'guess' },
    })
    expect(wrong.body.listed).toBe(false)
    const admin = await call(shared, 'GET', '/__sandbox/keys', {
      headers: { 'x-sandbox-admin-key': 'admin-secret' },
    })
    expect(admin.body.listed).toBe(true)
    expect(admin.body.keys.map((k: Loose) => k.key)).toContain(apiKey)
    // a loopback listener without --admin-key lists them, as a developer's dashboard always did
    await call(local, 'GET', '/__sandbox/clock', { apiKey })
    expect((await call(local, 'GET', '/__sandbox/keys')).body.keys.map((k: Loose) => k.key)).toContain(apiKey)
  })

  it('refuses /rpc admin methods on a shared listener unless --rpc-admin allows them', async () => {
    const res = await call(shared, 'POST', '/rpc', {
      apiKey: newApiKey(),
      body: { jsonrpc: '2.0', id: 1, method: 'evm_increaseTime', params: [3_153_600_000] },
    })
    expect(res.status).toBe(403)
    expect(res.body.message).toMatch(
      /refused on a shared listener \(allow it with --rpc-admin evm_increaseTime\)/,
    )
  })

  it('refuses control API writes from other origins', async () => {
    const apiKey = newApiKey()
    const body = { url: 'http://a.example/x' }
    dns.set('a.example', '93.184.215.14')
    for (const origin of ['https://evil.example', 'http://localhost:5173', 'null']) {
      const res = await call(shared, 'POST', '/__sandbox/webhooks', { apiKey, body, headers: { origin } })
      expect(res.status, origin).toBe(403)
      expect(res.body.message).toMatch(/Cross-origin writes to the control API are refused/)
      expect(
        (
          await call(shared, 'POST', '/__sandbox/clock/advance', {
            apiKey,
            body: { seconds: 1 },
            headers: { origin },
          })
        ).status,
      ).toBe(403)
    }
    // the sandbox's own pages (same origin) and scripts (no Origin) still write
    const own = await call(shared, 'POST', '/__sandbox/clock/advance', {
      apiKey,
      body: { seconds: 1 },
      headers: { origin: new URL(shared.url).origin },
    })
    expect(own.status).toBe(200)
    // on a loopback listener, the browser harness on another local port still drives it
    expect(
      (
        await call(local, 'POST', '/__sandbox/clock/advance', {
          apiKey,
          body: { seconds: 1 },
          headers: { origin: 'http://localhost:5173' },
        })
      ).status,
    ).toBe(200)
  })
})

describe('input limits', () => {
  it('limits faucet calls per key on a shared listener, with 429 and Retry-After; another key keeps its own', async () => {
    const apiKey = newApiKey()
    const body = {
      address: '0x00000000000000000000000000000000000000aa',
      currency: 'FAU-sepolia',
      amount: '1',
    }
    // no chain here: each call is refused for that (400), and counts
    for (let i = 0; i < 30; i++)
      expect((await call(shared, 'POST', '/__sandbox/faucet', { apiKey, body })).status).toBe(400)
    const refused = await call(shared, 'POST', '/__sandbox/faucet', { apiKey, body })
    expect(refused.status).toBe(429)
    expect(refused.body.message).toMatch(/30 faucet calls this minute/)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // another scenario of the same key shares the count
    expect(
      (
        await call(shared, 'POST', '/__sandbox/faucet', {
          apiKey,
          body,
          headers: { 'x-sandbox-scenario': 'kyc-approved' },
        })
      ).status,
    ).toBe(429)
    expect((await call(shared, 'POST', '/__sandbox/faucet', { apiKey: newApiKey(), body })).status).toBe(400)
    // a loopback listener (a developer's machine) has no such budget
    for (let i = 0; i < 31; i++)
      expect((await call(local, 'POST', '/__sandbox/faucet', { apiKey, body })).status).toBe(400)
  })

  it('limits registrations and key creations per client address', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      const res = await call(shared, 'POST', '/v2/auth/register', {
        body: { email: `r${i}-${Date.now()}@example.com`, password: 'a long password' },
      })
      statuses.push(res.status)
      if (res.status === 429) expect(res.body.message).toMatch(/at most 3 a minute/)
    }
    expect(statuses).toEqual([201, 201, 201, 429])
  })

  it('bounds strings, arrays and records in bodies with a 400 naming the field', async () => {
    const apiKey = newApiKey()
    const long = await call(local, 'POST', '/__sandbox/events', {
      apiKey,
      body: { type: 'payment.confirmed', payload: { note: { text: 'x'.repeat(20_000) } } },
    })
    expect(long.status).toBe(400)
    expect(long.body.errors).toEqual([
      { field: 'payload.note.text', message: expect.stringMatching(/<=16384 characters/) },
    ])
    const wide = await call(local, 'POST', '/__sandbox/events', {
      apiKey,
      body: {
        type: 'payment.confirmed',
        payload: Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, i])),
      },
    })
    expect(wide.status).toBe(400)
    expect(wide.body.errors[0].field).toBe('payload')
    const many = await call(local, 'POST', '/v2/secure-payments', {
      apiKey,
      body: { requests: Array.from({ length: 1_001 }, () => ({})) },
    })
    expect(many.status).toBe(400)
    expect(many.body.errors[0]).toMatchObject({
      field: 'requests',
      message: expect.stringMatching(/<=1000 items/),
    })
    // the key's journal still answers
    expect((await call(local, 'GET', '/__sandbox/journal', { apiKey })).status).toBe(200)
  })
})
