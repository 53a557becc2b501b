// Issue 20, item 2, in a real browser (Debian's Chromium through playwright-core): script payloads in every field a
// page shows (dashboard, docs, Secure Payment Page, agreement and KYC pages), then every link and button clicked.
// No dialog opens and the browser reports no Content-Security-Policy violation: the pages run only their own code.
// Screenshots of each page land in the gitignored test-output/injection/.
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import { payerBody } from '../support/compliance.ts'
import type { Loose } from '../support/loose.ts'

const shots = new URL('../../test-output/injection/', import.meta.url).pathname
let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>
let origin = ''

/** What a stored-XSS attempt puts in a text field: markup, an inline handler, a script, a template. */
const PAYLOAD = `"'><img src=x onerror=alert(1)><script>alert(2)</script><svg onload=alert(3)>{{constructor.constructor('alert(4)')()}}`
/** The same in a URL (no spaces: a valid http URL carrying markup) */
const URL_PAYLOAD = `https://example.com/?q="><script>alert(5)</script><img/src=x/onerror=alert(6)>`

const dialogs: string[] = []

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser] = await Promise.all([startServer(), launchChromium()])
  origin = `http://localhost:${sandbox.port}`
  // the browser reaches only the sandbox (pages work offline; a followed link to elsewhere goes nowhere)
  await browser.context.route('**/*', (route) =>
    route.request().url().startsWith(origin) ? route.continue() : route.abort(),
  )
  // every CSP violation a page reports, kept on the page's window
  await browser.context.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    )
  })
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

async function api(key: string | null, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as Loose }
}

async function newPage(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const page = await browser.context.newPage()
  // nothing below waits longer than this, so a stuck step fails naming itself instead of the test's own timeout
  page.setDefaultTimeout(15_000)
  page.setDefaultNavigationTimeout(15_000)
  page.on('dialog', (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  const seen: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text())
  })
  return {
    page,
    violations: async () => [
      ...seen,
      ...((await page.evaluate(() => (window as Loose).cspViolations).catch(() => [])) as string[]),
    ],
  }
}

/**
 * Clicks every visible link and button of the page at `url`, one at a time, coming back to `url` (and running
 * `ready`) whenever a click took the page elsewhere, up to `limit` clicks, each given `clickTimeout` ms to become
 * clickable (a disabled or covered control is passed over). Answers how many were clicked.
 */
async function clickEverything(
  page: Page,
  url: string,
  ready: (timeout: number) => Promise<void>,
  seen = new Set<string>(),
  limit = Number.POSITIVE_INFINITY,
  clickTimeout = 100,
): Promise<number> {
  // numbers every link and button once per load (the same order each time), so each click is one lookup; the same
  // control met again (the navigation of every view) is clicked once
  const tag = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('a, button, [role=button], summary')].map((el, i) => {
        el.setAttribute('data-click', String(i))
        return `${el.tagName} ${el.getAttribute('href') ?? ''} ${el.textContent?.trim().slice(0, 40)}`
      }),
    )
  await page.goto(url)
  await ready(15_000)
  const signatures = await tag()
  let clicked = 0
  for (let i = 0; i < signatures.length && clicked < limit; i++) {
    if (seen.has(signatures[i]!)) continue
    seen.add(signatures[i]!)
    const target = page.locator(`[data-click="${i}"]`)
    if (!(await target.isVisible().catch(() => false))) continue
    await target.click({ timeout: clickTimeout, noWaitAfter: true }).then(
      () => clicked++,
      () => {}, // disabled or covered: not a failure of this test
    )
    // short: a click that left the page is followed by loading it again
    await ready(1_000).catch(() => {})
    const now = new URL(page.url())
    const wanted = new URL(url)
    if (now.href === wanted.href && (await page.locator('[data-click]').count()) > 0) continue
    // an in-page link (a hash): back to the starting view without reloading; anything else: load it again
    if (now.origin + now.pathname + now.search === wanted.origin + wanted.pathname + wanted.search)
      await page.evaluate((hash) => {
        location.hash = hash
      }, wanted.hash)
    else await page.goto(url)
    await ready(15_000)
    await tag()
  }
  return clicked
}

describe('pages run only their own code, in Chromium', () => {
  it('shows script payloads in every field as text, and clicking everything opens no dialog and breaks no CSP rule', async () => {
    const key = newApiKey()
    const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
    const invoice = await api(key, 'POST', '/v2/request', {
      amount: '12.5',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
      reference: PAYLOAD.slice(0, 255),
      customerInfo: { firstName: PAYLOAD.slice(0, 100), lastName: '<b>x</b>', email: PAYLOAD.slice(0, 200) },
    })
    expect(invoice.status).toBe(201)
    const payer = await api(
      key,
      'POST',
      '/v2/payer',
      payerBody({ firstName: PAYLOAD, lastName: PAYLOAD, companyName: PAYLOAD, addressLine1: PAYLOAD }),
    )
    expect(payer.status).toBe(200)
    expect(
      (await api(key, 'POST', '/v2/client-ids', { label: PAYLOAD.slice(0, 100), allowedDomains: [] })).status,
    ).toBe(201)
    expect((await api(key, 'POST', '/v2/webhook', { url: URL_PAYLOAD })).status).toBe(201)
    // the journal shows paths and bodies as sent
    await api(key, 'GET', `/v2/request/${encodeURIComponent(PAYLOAD)}`)
    await api(key, 'POST', '/__sandbox/events', {
      type: 'payment.confirmed',
      payload: { requestId: PAYLOAD, note: PAYLOAD },
    })
    const link = await api(key, 'POST', '/v2/secure-payments', {
      requests: [{ payee, currency: 'FAU-sepolia', amount: '3' }],
      reference: PAYLOAD.slice(0, 255),
      payerIdentifier: PAYLOAD.slice(0, 255),
      // a redirect carrying markup characters is refused (400, api-reference/secure-payments.mdx): the payload as the URL
      // encodes it
      redirectUrl: encodeURI(URL_PAYLOAD),
      // markup is refused in the label itself (400): what is left of a payload
      redirectLabel: 'javascript:alert(7) {{constructor.constructor(1)()}}',
    })
    expect(link.status).toBe(201)

    const report: Record<string, { clicked: number; violations: string[]; ms?: number }> = {}
    let started = performance.now()
    // each page's figures as soon as it is done: a page that gets stuck is the one missing from the output
    const record = async (name: string, clicked: number, violations: () => Promise<string[]>) => {
      report[name] = { clicked, violations: await violations(), ms: Math.round(performance.now() - started) }
      console.log(`injection: ${name}: ${clicked} clicked in ${report[name]!.ms} ms`)
    }

    // the dashboard, the key typed in
    {
      started = performance.now()
      const { page, violations } = await newPage()
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(`${origin}/`)
      await page.getByLabel('API key').fill(key)
      await page.getByLabel('API key').press('Enter')
      const idle = async (timeout = 15_000) => {
        await page.waitForFunction(() => typeof (window as Loose).dashboardIdle === 'function', null, {
          timeout,
        })
        await page.evaluate(
          (ms) =>
            Promise.race([
              (window as unknown as { dashboardIdle(): Promise<void> }).dashboardIdle(),
              new Promise((_, reject) => setTimeout(() => reject(new Error('dashboard not idle')), ms)),
            ]),
          timeout,
        )
      }
      await idle()
      let clicked = 0
      /** the views showing the payload */
      const shownIn: string[] = []
      const seen = new Set<string>()
      for (const view of ['requests', `request/${invoice.body.requestId}`, 'payers', 'webhooks', 'journal']) {
        const url = `${origin}/#${view}`
        await page.goto(url)
        await idle()
        const text = (await page.locator('body').textContent()) ?? ''
        expect(text).not.toContain('undefined')
        if (text.includes('<script>alert(2)</script>')) shownIn.push(view.split('/')[0]!)
        await page.screenshot({ path: `${shots}dashboard-${view.split('/')[0]}.png`, fullPage: true })
        clicked += await clickEverything(page, url, idle, seen)
      }
      // the stored payloads are on the pages, as text: no view left them out
      expect(shownIn).toEqual(['request', 'payers', 'webhooks', 'journal'])
      await record('dashboard', clicked, violations)
      await page.close()
    }

    // the docs page
    {
      started = performance.now()
      const { page, violations } = await newPage()
      const ready = (timeout: number) => page.locator('main, #app').first().waitFor({ timeout })
      // the docs page shows no stored value: its first 60 controls (the key field, the first operations opened, their
      // field tables and try-it buttons sent) stand for the other ~170 of the same kinds, which took minutes on a
      // busy machine
      const clicked = await clickEverything(page, `${origin}/docs`, ready, new Set(), 60)
      await page.screenshot({ path: `${shots}docs.png` })
      await record('docs', clicked, violations)
      await page.close()
    }

    // the Secure Payment Page: shown, paid with the built-in test wallet, then its "Continue" link
    {
      started = performance.now()
      const { page, violations } = await newPage()
      const url = link.body.securePaymentUrl.replace('127.0.0.1', 'localhost')
      await page.goto(url)
      await page.getByTestId('test-wallet').waitFor()
      expect(await page.locator('body').textContent()).toContain('<script>alert(2)</script>')
      await page.screenshot({ path: `${shots}secure-payment.png`, fullPage: true })
      await page.getByTestId('test-wallet').click()
      await page.getByTestId('pay').click()
      await page.locator('[data-state="done"]').waitFor({ timeout: 30_000 })
      await page.screenshot({ path: `${shots}secure-payment-done.png`, fullPage: true })
      const continueLink = page.locator('a.button.primary')
      expect(await continueLink.getAttribute('href')).toBe(encodeURI(URL_PAYLOAD))
      expect(await continueLink.textContent()).toBe('javascript:alert(7) {{constructor.constructor(1)()}}')
      // the link leaves for the merchant's site (which the test browser cannot reach): no script runs here
      await continueLink.click({ noWaitAfter: true })
      await page.waitForURL((u) => u.href !== url, { timeout: 5_000 }).catch(() => {})
      const clicked = 3
      await record('securePayment', clicked, violations)
      await page.close()
    }

    // the agreement and KYC pages (the names are the payload) of a payer the dashboard's buttons never touched
    const fresh = await api(
      key,
      'POST',
      '/v2/payer',
      payerBody({
        clientUserId: 'fresh@example.com',
        email: 'fresh@example.com',
        firstName: PAYLOAD,
        lastName: PAYLOAD,
        companyName: PAYLOAD,
      }),
    )
    expect(fresh.status).toBe(200)
    for (const which of ['agreementUrl', 'kycUrl'] as const) {
      started = performance.now()
      const { page, violations } = await newPage()
      const url = fresh.body[which].replace('127.0.0.1', 'localhost')
      await page.goto(url)
      expect(await page.locator('body').textContent()).toContain('<img src=x onerror=alert(1)>')
      if (which === 'agreementUrl') await page.locator('#accept').check()
      await page.screenshot({ path: `${shots}${which}.png`, fullPage: true })
      const ready = async (timeout: number) => {
        await page.locator('h1').waitFor({ timeout })
        // the sign button waits for the terms to be accepted
        if (await page.locator('#accept:not(:checked)').count()) await page.locator('#accept').check()
      }
      // a few controls, the sign button enabled by the accepted terms' script: time for it on a busy machine
      const clicked = await clickEverything(page, url, ready, new Set(), Number.POSITIVE_INFINITY, 2_000)
      await record(which, clicked, violations)
      await page.close()
    }

    // the watch itself works: markup a page would wrongly insert is reported and does not run
    {
      const { page, violations } = await newPage()
      await page.goto(fresh.body.kycUrl.replace('127.0.0.1', 'localhost'))
      await page.evaluate(() => {
        document.body.insertAdjacentHTML('beforeend', '<img src="x" onerror="alert(9)">')
      })
      await expect.poll(async () => (await violations()).length).toBeGreaterThan(0)
      await page.close()
    }

    expect(dialogs).toEqual([])
    for (const [name, { clicked, violations }] of Object.entries(report)) {
      expect(violations, name).toEqual([])
      expect(clicked, name).toBeGreaterThan(0)
    }
  }, 300_000)
})
