// The dashboard in Chromium at the widths of laptops and small desktop windows: every tab of the section bar is
// on screen and takes a click where it is drawn (between about 1024 and 1300 px the bar was cut off and "Chains &
// faucet" could not be clicked), and a transaction's token amounts read in the token's units with its symbol
// (50 FAU, not 50000000000000000000), the raw base units on the title.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { type ApiTransaction, execute } from '../support/chain.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>

beforeAll(async () => {
  ;[sandbox, browser] = await Promise.all([startServer({ port: 0 }), launchChromium()])
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

async function api(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: (await response.json()) as Loose }
}

async function openWithKey(page: Page, key: string, hash = '') {
  await page.goto(`${sandbox.url}/${hash}`)
  await page.getByLabel('API key').fill(key)
  await page.getByLabel('API key').press('Enter')
  await expect.poll(() => page.locator('.live').textContent()).toBe('live')
}

describe('the dashboard at 1024 to 1300 px', () => {
  for (const width of [1024, 1160, 1300])
    it(`shows every tab whole and clickable where it is drawn at ${width} px`, async () => {
      const page = await browser.context.newPage()
      try {
        await page.setViewportSize({ width, height: 800 })
        await openWithKey(page, newApiKey())
        const tabs = page.locator('nav[aria-label="Sections"] a')
        const count = await tabs.count()
        expect(count).toBeGreaterThanOrEqual(10)
        for (let i = 0; i < count; i++) {
          const tab = tabs.nth(i)
          const label = (await tab.textContent())!
          const box = (await tab.boundingBox())!
          expect(box.x, label).toBeGreaterThanOrEqual(0)
          expect(box.x + box.width, label).toBeLessThanOrEqual(width)
          // what the pointer hits at the tab's centre is the tab (no scrolling, nothing over it)
          const x = box.x + box.width / 2
          const y = box.y + box.height / 2
          const hit = await page.evaluate(
            ([px, py]) => document.elementFromPoint(px!, py!)?.textContent,
            [x, y],
          )
          expect(hit, label).toBe(label)
          await page.mouse.click(x, y)
          await expect.poll(() => tab.getAttribute('aria-current'), { timeout: 5_000 }).toBe('page')
        }
        expect(await page.locator('nav').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
      } finally {
        await page.close()
      }
    }, 120_000)
})

describe("a transaction's amounts", () => {
  it('reads 50 FAU, with the base units on the title', async () => {
    const key = newApiKey()
    const created = await api(key, 'POST', '/v2/request', {
      amount: '50',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    expect(created.status).toBe(201)
    const account = sandbox.sandbox.chain!.accounts[6]!
    const pay = await api(key, 'GET', `/v2/request/${created.body.requestId}/pay?wallet=${account.address}`)
    const receipts = await execute(sandbox.sandbox, pay.body.transactions as ApiTransaction[], 6)
    const paymentTx = receipts.at(-1)!.transactionHash
    const page = await browser.context.newPage()
    try {
      await page.setViewportSize({ width: 1280, height: 800 })
      await openWithKey(page, key, `#tx/${paymentTx}/sepolia`)
      const events = page.locator('ol.events')
      await events.waitFor()
      const amounts = events.locator('code.amount')
      await expect.poll(() => amounts.allTextContents()).toContain('50 FAU')
      const fifty = amounts.filter({ hasText: /^50 FAU$/ }).first()
      expect(await fifty.getAttribute('title')).toContain('50000000000000000000')
      expect(await fifty.getAttribute('data-raw')).toBe('50000000000000000000')
      // the fee is in FAU too, and no amount of the events is left in base units
      expect(await amounts.allTextContents()).toContain('0 FAU')
      expect(await events.textContent()).not.toContain('50000000000000000000')
    } finally {
      await page.close()
    }
  }, 180_000)
})
