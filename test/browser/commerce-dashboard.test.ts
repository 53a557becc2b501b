// The dashboard's commerce payments in a real browser (Debian's Chromium through playwright-core): a payment
// authorized on chain by the payer shows as authorized with what the escrow holds, turns partially captured and
// then captured (the rest voided) live, each transition listed with its transaction. Screenshots in
// test-output/dashboard/.
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { type ApiTransaction, execute } from '../support/chain.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'

const shots = new URL('../../test-output/dashboard/', import.meta.url).pathname
let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser] = await Promise.all([startServer(), launchChromium()])
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
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function snap(page: Page, name: string): Promise<void> {
  await page.evaluate(() => (window as unknown as { dashboardIdle(): Promise<void> }).dashboardIdle())
  await page.screenshot({ path: `${shots}${name}.png`, fullPage: true })
}

describe('commerce payments on the dashboard', () => {
  it('shows each payment with its state and transitions, following the chain live', async () => {
    const key = newApiKey()
    const chain = sandbox.sandbox.chain!
    const payer = chain.accounts[5]!.address
    const merchant = chain.accounts[6]!.address
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`http://localhost:${sandbox.port}/#commerce`)
    await page.getByLabel('API key').fill(key)
    await page.getByLabel('API key').press('Enter')
    await page.getByText('No commerce payments').waitFor()

    const created = await api(key, 'POST', '/v2/commerce-payments/authorize/calldata', {
      amount: '8',
      paymentCurrency: 'FAU-sepolia',
      payer,
      payee: merchant,
    })
    expect(created.status).toBe(200)
    const { requestId, transactions } = created.body as unknown as {
      requestId: string
      transactions: ApiTransaction[]
    }
    const card = page.locator(`article[data-commerce-id="${requestId}"]`)
    await card.waitFor({ timeout: 10_000 })
    await expect.poll(() => card.locator('h3 [data-status]').getAttribute('data-status')).toBe('pending')

    // the payer authorizes on chain: the card turns authorized, 8 held in escrow
    const [, authorize] = await execute(sandbox.sandbox, transactions, 5)
    await expect
      .poll(() => card.locator('h3 [data-status]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('authorized')
    expect(await card.textContent()).toContain('Held in escrow8 FAU')
    await card.locator(`a[href^="#tx/${authorize!.transactionHash}"]`).waitFor()

    // the API operator captures 3: partially captured
    expect(
      (await api(key, 'POST', `/v2/commerce-payments/${requestId}/capture`, { amount: '3' })).status,
    ).toBe(200)
    await expect
      .poll(() => card.locator('h3 [data-status]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('partially_captured')
    await snap(page, 'commerce-1280')

    // the rest is voided back to the payer: captured (3), nothing held
    expect((await api(key, 'POST', `/v2/commerce-payments/${requestId}/void`)).status).toBe(200)
    await expect
      .poll(() => card.locator('h3 [data-status]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('captured')
    const text = (await card.textContent())!
    expect(text).toContain('Held in escrow0 FAU')
    expect(text).toContain('Captured3 FAU')
    expect(
      await card.locator('tbody tr [data-status]').evaluateAll((b) => b.map((x) => x.textContent)),
    ).toEqual(['authorize', 'capture', 'void'])
    await page.setViewportSize({ width: 390, height: 844 })
    await snap(page, 'commerce-390')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(overflow).toBeLessThanOrEqual(390)
    await page.close()
  })
})
