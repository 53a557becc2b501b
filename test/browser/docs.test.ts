// The docs page (/docs) in a real browser (Debian's Chromium through playwright-core): it renders the sandbox's
// OpenAPI document grouped by tag from its own files only, and a call tried from the page reaches this sandbox
// with the key typed at the top (the request it creates is then read back through the API). Screenshots at
// 1280x800 and at a phone's width land in test-output/docs/.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tryItStart } from '../../src/control/docs/ui/try-start.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'

const shots = new URL('../../test-output/docs/', import.meta.url).pathname
let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser] = await Promise.all([startServer({ chain: false }), launchChromium()])
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

describe('the docs page in Chromium', () => {
  it('lists the operations by tag and creates a request with a call tried from the page', async () => {
    const key = newApiKey()
    const page = await browser.context.newPage()
    const outside: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(`http://localhost:${sandbox.port}/`)) outside.push(r.url())
    })
    await page.setViewportSize({ width: 1280, height: 800 })
    // opened at localhost, not the 127.0.0.1 the server printed: the page follows the host the browser used
    await page.goto(`http://localhost:${sandbox.port}/docs`)
    await page.getByRole('heading', { name: 'Requests', exact: true }).waitFor()
    const groups = await page.getByRole('navigation', { name: 'Groups' }).getByRole('link').allTextContents()
    expect(groups.map((g) => g.replace(/\s*\d+$/, ''))).toEqual(
      expect.arrayContaining(['Currencies', 'Requests', 'Payouts', 'Payers', 'Webhooks', 'Sandbox: clock']),
    )
    await page.screenshot({ path: `${shots}docs-1280.png` })

    await page.getByLabel('API key').fill(key)
    await page.getByLabel('API key').press('Tab')
    const op = page.locator('#op-post_v2_request')
    await op.locator('> summary').click()
    expect(await op.getByText('Credentials: ApiKey or ClientId').count()).toBe(1)
    await expect.poll(() => op.locator('.statuses li').allTextContents()).toContain('429 Too Many Requests')
    const body = op.getByLabel('Body (JSON)')
    // the try-it starts from the service's own example, a body that succeeds as it is
    const prefilled = JSON.parse(await body.inputValue())
    expect(prefilled).toHaveProperty('invoiceCurrency')
    const asIs = await fetch(`http://127.0.0.1:${new URL(page.url()).port}/v2/request`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(prefilled),
    })
    expect(asIs.status).toBe(201)
    // the official description is shown
    expect(await op.textContent()).toContain('Create a new request')
    // descriptions as text, schemas as tables of fields, the answer's example shown
    expect(await op.locator('.op-description p').count()).toBeGreaterThan(0)
    expect(await op.locator('table.schema td', { hasText: /^invoiceCurrency$/ }).count()).toBe(1)
    expect(await op.locator('.answer-doc pre').count()).toBeGreaterThan(0)
    await body.fill(
      JSON.stringify({
        amount: '42',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      }),
    )
    await op.getByRole('button', { name: 'Send POST' }).press('Enter')
    await expect.poll(() => op.locator('.answer-status').textContent()).toMatch(/^201 Created · \d+ ms$/)
    const answer = JSON.parse((await op.locator('pre.answer').textContent()) ?? '{}')
    expect(answer.requestId).toMatch(/^01[0-9a-f]{64}$/)
    await op.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${shots}docs-try-1280.png` })

    // a path parameter starts filled (tryItStart, the function the API test sends), and a sandbox example says why it is one
    const recurring = page.locator('#op-patch_v2_payouts_recurring_by_id')
    await recurring.locator('> summary').click()
    const served = await (await fetch(`http://127.0.0.1:${sandbox.port}/openapi.json`)).json()
    const start = tryItStart(served.paths['/v2/payouts/recurring/{id}'].patch, 'patch')
    expect(start.path.id).toBe('01JXYJKCAHGFTDR15F2D072ESG') // the document's example
    expect(await recurring.locator('#patch_v2_payouts_recurring_by_id-path-id').inputValue()).toBe(
      start.path.id,
    )
    const legacy = page.locator('#op-post_v1_request')
    await legacy.locator('> summary').click()
    expect(await legacy.locator('.sandbox-example').textContent()).toMatch(/^Sandbox example: .*future start/)
    expect(JSON.parse(await legacy.getByLabel('Body (JSON)').inputValue()).recurrence.startDate).toBe(
      '2030-01-01T00:00:00.000Z',
    )

    // the call went to this sandbox, as the key typed on the page
    const status = await fetch(`${sandbox.url}/v2/request/${answer.requestId}`, {
      headers: { 'x-api-key': key },
    })
    expect(status.status).toBe(200)
    expect(((await status.json()) as { requestAmount?: string; amount?: string }).requestAmount ?? '42').toBe(
      '42',
    )

    // a refused call shows its status and the service's message
    const pay = page.locator('#op-get_v2_request_by_requestId_pay')
    await pay.locator('> summary').click()
    await pay.getByLabel('requestId *').fill('01nothing')
    await pay.getByRole('button', { name: 'Send GET' }).click()
    await expect.poll(() => pay.locator('.answer-status').textContent()).toMatch(/^404 Not Found/)

    // narrowed to a phone's width with two operations and their answers open: nothing scrolls sideways
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    // on a phone, opened at an operation's link
    await page.close()
    const phone = await browser.context.newPage()
    phone.on('request', (r) => {
      if (!r.url().startsWith(`http://localhost:${sandbox.port}/`)) outside.push(r.url())
    })
    await phone.setViewportSize({ width: 390, height: 844 })
    await phone.goto(`http://localhost:${sandbox.port}/docs#op-post_v2_request`)
    await phone.locator('#op-post_v2_request[open]').waitFor()
    await phone.screenshot({ path: `${shots}docs-390.png`, fullPage: false })
    // nothing wider than the phone: no sideways scrolling
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(outside).toEqual([])
    await phone.close()
  })
})
