// A person's path through compliance, in a real browser: the app embeds agreementUrl in an iframe, the payer signs,
// the page posts {agreements: "complete"} to the app, the app records it (PATCH), then the payer passes KYC on kycUrl.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'
import { payerBody } from '../support/compliance.ts'

let sandbox: RunningServer
let browser: { context: BrowserContext; close(): Promise<void> }
let app: Server
let appUrl = ''
let agreementUrl = ''
const apiKey = 'browser-test-key'

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (r) => ({ status: r.status, body: await r.json() }))

beforeAll(async () => {
  ;[sandbox, browser] = await Promise.all([startServer({ chain: false }), launchChromium()])
  const created = await api('POST', '/v2/payer', payerBody())
  agreementUrl = created.body.agreementUrl
  // the integrator's app: another origin, embedding the agreement and listening for its message
  app = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html><title>app</title>
<script>window.received = []; addEventListener('message', (e) => received.push({ data: e.data, origin: e.origin }))</script>
<iframe id="agreement" src="${agreementUrl}" width="800" height="600"></iframe>`)
  })
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)))
  await sandbox?.close()
})

describe('compliance in a browser', () => {
  it('signs the agreement in an iframe, receives its message, approves KYC on kycUrl, and the payer is compliant', async () => {
    const page = await browser.context.newPage()
    await page.goto(appUrl)
    const frame = page.frameLocator('#agreement')
    await frame.locator('#accept').check()
    await frame.locator('#sign').click()
    await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length > 0)
    const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received)
    expect(received).toEqual([{ data: { agreements: 'complete' }, origin: new URL(sandbox.url).origin }])
    await expect(frame.locator('#status').textContent()).resolves.toBe('completed')

    // what easy-invoice does on that message: record the agreement, then read the status
    expect(
      (await api('PATCH', '/v2/payer/john.doe%40example.com', { agreementCompleted: true })).status,
    ).toBe(200)
    const status = await api('GET', '/v2/payer/john.doe%40example.com')
    expect(status.body).toMatchObject({
      agreementStatus: 'completed',
      kycStatus: 'initiated',
      isCompliant: false,
    })

    const kyc = await browser.context.newPage()
    await kyc.goto(status.body.kycUrl)
    await kyc.locator('#approve').click()
    await kyc.waitForFunction(() => document.getElementById('status')?.textContent === 'approved')
    await expect(kyc.locator('body').textContent()).resolves.toContain('Verified')

    const done = await api('GET', '/v2/payer/john.doe%40example.com')
    expect(done.body).toMatchObject({
      kycStatus: 'approved',
      agreementStatus: 'completed',
      isCompliant: true,
    })
    await page.close()
    await kyc.close()
  })
})
