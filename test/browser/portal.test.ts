// The portal's cookie session in a real browser: an app on another origin of the same site (localhost, another port)
// registers with credentials: 'include', the browser keeps the HttpOnly session_token away from scripts and sends it
// on the next calls (a credentialed CORS preflight first), and logout ends it.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'

let sandbox: RunningServer
let browser: { context: BrowserContext; close(): Promise<void> }
let app: Server
let appUrl = ''

beforeAll(async () => {
  app = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end('<!doctype html><title>dashboard</title><p>dashboard</p>')
  })
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  appUrl = `http://localhost:${(app.address() as AddressInfo).port}/`
  // credentialed CORS only for the origins the operator trusts (issue 20)
  ;[sandbox, browser] = await Promise.all([
    startServer({ chain: false, allowedOrigins: [new URL(appUrl).origin] }),
    launchChromium(),
  ])
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)))
  await sandbox?.close()
})

describe('the portal session in a browser', () => {
  it('registers from another origin, keeps the HttpOnly cookie from scripts, sends it with credentials, and logs out', async () => {
    const page = await browser.context.newPage()
    await page.goto(appUrl)
    const base = `http://localhost:${new URL(sandbox.url).port}`
    const result = await page.evaluate(async (base) => {
      const json = { 'content-type': 'application/json' }
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(base + path, {
          method,
          credentials: 'include',
          headers: body ? json : {},
          ...(body ? { body: JSON.stringify(body) } : {}),
        })
        return { status: res.status, body: await res.text() }
      }
      const registered = await call('POST', '/v2/auth/register', {
        email: 'ui@example.com',
        password: 'a long password',
      })
      const cookieSeenByScript = document.cookie
      const me = await call('GET', '/v2/platforms/me')
      const key = await call('POST', '/v2/key', { label: 'from the dashboard', isSandbox: true })
      const loggedOut = await call('POST', '/v2/auth/logout')
      const after = await call('GET', '/v2/platforms/me')
      return { registered, cookieSeenByScript, me, key, loggedOut, after }
    }, base)
    expect(result.registered.status).toBe(201)
    expect(result.cookieSeenByScript).not.toContain('session_token')
    expect(result.me).toEqual({ status: 200, body: '{"hasCryptoToFiatProductionAccess":false}' })
    expect(result.key.status).toBe(201)
    const { key } = JSON.parse(result.key.body) as { key: string }
    // the key the browser created works as x-api-key from anywhere
    const currencies = await fetch(`${sandbox.url}/v2/currencies?id=FAU-sepolia`, {
      headers: { 'x-api-key': key },
    })
    expect(currencies.status).toBe(200)
    expect(result.loggedOut.status).toBe(200)
    expect(result.after.status).toBe(401)
  })
})
