import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { chain: false, allowedOrigins: ['http://localhost:5173'] })

const password = 'correct horse battery'
const newEmail = () => `dev-${randomBytes(6).toString('hex')}@example.com`
const invoice = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}

describeTransports(
  'the portal through %s',
  () => t,
  (client, transport) => {
    // MSW keeps a browser-like cookie jar and appends its cookies after the caller's: every call names its own
    // session (a dead token for "no session"), and the sandbox reads the first session_token of the header
    const asSession = (cookie: string | null, extra: Record<string, unknown> = {}) => ({
      apiKey: null,
      headers: { cookie: cookie ?? 'session_token=none' },
      ...extra,
    })
    /** registers a platform and answers the cookie pair (`session_token=…`) the browser would send back */
    const registerPlatform = async (email = newEmail()) => {
      const res = await client().call(
        'POST',
        '/v2/auth/register',
        asSession(null, { body: { email, password } }),
      )
      expect(res.status).toBe(201)
      const setCookie = res.headers.get('set-cookie') ?? ''
      expect(setCookie).toMatch(/^session_token=[0-9a-f]{64}; /)
      expect(setCookie).toContain('HttpOnly')
      return { email, cookie: setCookie.split(';')[0]!, body: res.body }
    }

    it('registers a platform with a session cookie, stores only a salted scrypt hash, and refuses a second account or a logged-in caller', async () => {
      const { email, cookie } = await registerPlatform()
      const again = await client().call(
        'POST',
        '/v1/auth/register',
        asSession(null, { body: { email, password } }),
      )
      expect(again.status).toBe(400)
      expect(again.body).toEqual({
        statusCode: 400,
        message: 'Email already registered',
        error: 'Bad Request',
      })
      const loggedIn = await client().call(
        'POST',
        '/v2/auth/register',
        asSession(cookie, { body: { email: newEmail(), password } }),
      )
      expect(loggedIn.body.message).toBe('Already logged in')
      const other = await registerPlatform()
      const portal = t.sandbox.shared.portal
      const a = portal.platformsByEmail.get(email)!
      const b = portal.platformsByEmail.get(other.email)!
      expect(a.passwordHash).toMatch(/^[0-9a-f]{64}$/)
      expect(a.passwordHash).not.toContain(password)
      expect(a.passwordSalt).not.toBe(b.passwordSalt)
      expect(a.passwordHash).not.toBe(b.passwordHash)
    })

    it('answers register and login validation failures with the zod issue list', async () => {
      const res = await client().call(
        'POST',
        '/v2/auth/register',
        asSession(null, { body: { email: 'nope', password: 'short' } }),
      )
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('Bad Request')
      expect(res.body.message).toEqual([
        expect.objectContaining({
          code: 'invalid_string',
          validation: 'email',
          path: ['email'],
          message: 'Invalid email',
        }),
        expect.objectContaining({ code: 'too_small', minimum: 8, path: ['password'] }),
      ])
      const missing = await client().call('POST', '/v1/auth/login', asSession(null, { body: {} }))
      expect(missing.status).toBe(400)
      expect(missing.body.message[0]).toMatchObject({
        code: 'invalid_type',
        message: 'Required',
        path: ['email'],
      })
    })

    it('logs in with the right password only, and logout ends the session', async () => {
      const { email, cookie: first } = await registerPlatform()
      const wrong = await client().call(
        'POST',
        '/v2/auth/login',
        asSession(null, { body: { email, password: 'wrong password' } }),
      )
      expect(wrong.status).toBe(400)
      expect(wrong.body.message).toBe('Invalid email or password')
      const unknown = await client().call(
        'POST',
        '/v2/auth/login',
        asSession(null, { body: { email: newEmail(), password } }),
      )
      expect(unknown.body.message).toBe('Invalid email or password')
      const ok = await client().call(
        'POST',
        '/v1/auth/login',
        asSession(null, { body: { email: email.toUpperCase(), password } }),
      )
      expect(ok.status).toBe(200)
      const cookie = ok.headers.get('set-cookie')!.split(';')[0]!
      expect((await client().call('GET', '/v2/platforms/me', asSession(cookie))).status).toBe(200)
      const out = await client().call('POST', '/v2/auth/logout', asSession(cookie))
      expect(out.status).toBe(200)
      expect(out.headers.get('set-cookie')).toMatch(/^session_token=; .*Max-Age=0/)
      expect((await client().call('GET', '/v2/platforms/me', asSession(cookie))).status).toBe(401)
      // the first session (from register) is a different one and still works
      expect((await client().call('GET', '/v2/platforms/me', asSession(first))).status).toBe(200)
      expect((await client().call('POST', '/v2/auth/logout', asSession(null))).status).toBe(401)
    })

    it('answers 401 on cookie routes without a live session, even with an API key', async () => {
      const { cookie } = await registerPlatform()
      for (const [method, path] of [
        ['GET', '/v2/platforms/me'],
        ['GET', '/v1/key'],
        ['POST', '/v2/key'],
        ['PUT', '/v2/key/01JKZNG0N658N6A2R45MPEEP4F'],
        ['DELETE', '/v1/key/01JKZNG0N658N6A2R45MPEEP4F'],
        ['GET', '/v2/request-tech'],
        ['POST', '/v2/auth/logout'],
      ] as const) {
        for (const options of [
          { apiKey: newApiKey(), headers: { cookie: 'session_token=none' } },
          asSession(null),
          asSession('session_token=0000'),
          asSession(`${cookie}x`),
        ]) {
          const res = await client().call(method, path, { ...options, body: { label: 'x', isSandbox: true } })
          expect(res.status, `${method} ${path}`).toBe(401)
          expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
        }
      }
      if (transport === 'http') {
        expect((await client().call('GET', '/v2/platforms/me', { apiKey: null })).status).toBe(401)
      }
      const me = await client().call('GET', '/v2/platforms/me', asSession(cookie))
      expect(me.body).toEqual({ hasCryptoToFiatProductionAccess: false })
      assertMatchesDocument('full', 'GET', '/v2/platforms/me', 200, me.body)
    })

    it('issues API keys that are new tenants at once, lists them, and answers 401 once a key is disabled or deleted', async () => {
      const { cookie } = await registerPlatform()
      const created = await client().call(
        'POST',
        '/v2/key',
        asSession(cookie, { body: { label: 'My API key', isSandbox: true } }),
      )
      expect(created.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/key', 201, created.body)
      const { key } = created.body as { key: string }
      expect(key).toMatch(/^rn_v1_[a-z0-9]{30}$/)
      const request = await client().call('POST', '/v2/request', { apiKey: key, body: invoice })
      expect(request.status).toBe(201)
      // a new tenant: another key does not see its request
      expect(
        (await client().call('GET', `/v2/request/${request.body.requestId}`, { apiKey: newApiKey() })).status,
      ).toBe(404)

      const list = await client().call('GET', '/v1/key', asSession(cookie))
      expect(list.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v1/key', 200, list.body)
      expect(list.body).toEqual([
        {
          id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
          label: 'My API key',
          key,
          isActive: true,
          createdAt: expect.any(String),
        },
      ])
      const id = list.body[0].id
      // another platform can neither see nor change it
      const stranger = await registerPlatform()
      expect((await client().call('GET', '/v2/key', asSession(stranger.cookie))).body).toEqual([])
      const foreign = await client().call('PUT', `/v2/key/${id}`, asSession(stranger.cookie))
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ statusCode: 404, message: 'API key not found', error: 'Not Found' })

      const disabled = await client().call('PUT', `/v2/key/${id}`, asSession(cookie))
      expect(disabled.status).toBe(200)
      expect(disabled.body.isActive).toBe(false)
      const refused = await client().call('GET', `/v2/request/${request.body.requestId}`, { apiKey: key })
      expect(refused.status).toBe(401)
      expect((await client().call('PUT', `/v1/key/${id}`, asSession(cookie))).body.isActive).toBe(true)
      expect(
        (await client().call('GET', `/v2/request/${request.body.requestId}`, { apiKey: key })).status,
      ).toBe(200)

      expect((await client().call('DELETE', `/v2/key/${id}`, asSession(cookie))).status).toBe(200)
      expect((await client().call('GET', '/v2/currencies', { apiKey: key })).status).toBe(401)
      expect((await client().call('DELETE', `/v2/key/${id}`, asSession(cookie))).status).toBe(404)
      expect((await client().call('GET', '/v2/key', asSession(cookie))).body).toEqual([])
    })

    it('validates key bodies with the zod issue list', async () => {
      const { cookie } = await registerPlatform()
      const res = await client().call(
        'POST',
        '/v2/key',
        asSession(cookie, { body: { label: '', isSandbox: 'yes' } }),
      )
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual([
        expect.objectContaining({ code: 'too_small', path: ['label'] }),
        expect.objectContaining({
          code: 'invalid_type',
          expected: 'boolean',
          received: 'string',
          path: ['isSandbox'],
        }),
      ])
    })

    it("manages the platform's webhooks through /v2/request-tech and /v2/webhook over one registry shared with its keys", async () => {
      const { cookie } = await registerPlatform()
      const { key } = (
        await client().call('POST', '/v2/key', asSession(cookie, { body: { label: 'k', isSandbox: true } }))
      ).body
      const none = await client().call('POST', '/v2/webhook/test', {
        apiKey: key,
        body: { eventType: 'payment.confirmed' },
      })
      expect(none.status).toBe(404)
      const created = await client().call(
        'POST',
        '/v2/request-tech',
        asSession(cookie, { body: { url: 'http://127.0.0.1:9/hook' } }),
      )
      expect(created.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/request-tech', 201, created.body)
      const listed = await client().call('GET', '/v2/request-tech', asSession(cookie))
      assertMatchesDocument('full', 'GET', '/v2/request-tech', 200, listed.body)
      expect(listed.body.map((w: { id: string }) => w.id)).toEqual([created.body.id])
      // the key sees (and reaches) the platform's webhook; the cookie works on /v2/webhook too
      const viaKey = await client().call('GET', '/v2/webhook', { apiKey: key })
      expect(viaKey.body.map((w: { id: string }) => w.id)).toEqual([created.body.id])
      expect((await client().call('GET', '/v1/webhook', asSession(cookie))).body).toHaveLength(1)
      const sent = await client().call('POST', '/v2/webhook/test', {
        apiKey: key,
        body: { eventType: 'payment.confirmed' },
      })
      expect(sent.status).toBe(201)
      const duplicate = await client().call('POST', '/v2/webhook', {
        apiKey: key,
        body: { url: 'http://127.0.0.1:9/hook' },
      })
      expect(duplicate.status).toBe(400)
      expect(
        (await client().call('PUT', `/v2/request-tech/${created.body.id}`, asSession(cookie))).status,
      ).toBe(200)
      expect((await client().call('GET', '/v2/webhook', { apiKey: key })).body[0].isActive).toBe(false)
      const badTest = await client().call(
        'POST',
        '/v2/request-tech/test',
        asSession(cookie, { body: { eventType: 'invalid.event' } }),
      )
      expect(badTest.status).toBe(400)
      expect(
        (await client().call('DELETE', `/v2/request-tech/${created.body.id}`, asSession(cookie))).status,
      ).toBe(200)
      expect(
        (await client().call('DELETE', `/v2/request-tech/${created.body.id}`, asSession(cookie))).status,
      ).toBe(404)
      expect((await client().call('GET', '/v2/webhook', { apiKey: key })).body).toEqual([])
    })

    it("never lets a platform's internal tenant pass as an API key", async () => {
      const { email } = await registerPlatform()
      const tenant = t.sandbox.shared.portal.platformsByEmail.get(email)!.tenant
      expect((await client().call('GET', '/v2/currencies', { apiKey: tenant })).status).toBe(401)
    })

    it('answers browser calls on cookie routes with credentialed CORS for --allowed-origins only, and leaves API-key routes on the wildcard', async () => {
      // issue 20: Loose Origin used to be echoed with credentials (a page on another port read the victim's keys)
      for (const stranger of ['http://localhost:5174', 'https://evil.example', 'null']) {
        const refused = await client().call(
          'GET',
          '/v2/key',
          asSession(null, { headers: { origin: stranger } }),
        )
        expect(refused.headers.get('access-control-allow-credentials')).toBeNull()
        expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      }
      const origin = 'http://localhost:5173'
      const preflight = await client().call('OPTIONS', '/v2/key', asSession(null, { headers: { origin } }))
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin)
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
      const login = await client().call('POST', '/v2/auth/login', {
        apiKey: null,
        headers: { origin, cookie: 'session_token=none' },
        body: { email: newEmail(), password },
      })
      expect(login.headers.get('access-control-allow-origin')).toBe(origin)
      expect(login.headers.get('access-control-allow-credentials')).toBe('true')
      const apiRoute = await client().call('OPTIONS', '/v2/request', asSession(null, { headers: { origin } }))
      expect(apiRoute.headers.get('access-control-allow-origin')).toBe('*')
      expect(apiRoute.headers.get('access-control-allow-credentials')).toBeNull()
    })
  },
)
