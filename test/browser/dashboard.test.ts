// The dashboard in a real browser (Debian's Chromium through playwright-core): a request made through the API
// appears without a reload, turns paid with its transaction once paid on the chain, the transaction is read
// back from the chain, the clock advances and a webhook is redelivered from the page, all with the keyboard
// where a user would type. Screenshots at 1280x800 and at a phone's width land in test-output/dashboard/.
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { type ApiTransaction, execute } from '../support/chain.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const shots = new URL('../../test-output/dashboard/', import.meta.url).pathname
let sandbox: RunningServer
let strict: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>
let receiver: WebhookReceiver
/** the page is opened at localhost (not 127.0.0.1): links must follow the host the browser used */
let origin = ''

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser, receiver, strict] = await Promise.all([
    startServer({ webhooks: { retryDelaysMs: [100, 100, 100] } }),
    launchChromium(),
    startReceiver(),
    startServer({ chain: false, apiKeys: ['alpha-key'], adminKey: 'admin-secret' }),
  ])
  origin = `http://localhost:${sandbox.port}`
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await receiver?.close()
  await sandbox?.close()
  await strict?.close()
})

async function api(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: (await response.json()) as Loose }
}

async function settled(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { dashboardIdle(): Promise<void> }).dashboardIdle())
}

async function snap(page: Page, name: string): Promise<void> {
  await settled(page)
  await page.screenshot({ path: `${shots}${name}.png`, fullPage: true })
}

describe('the dashboard in Chromium', () => {
  it('follows a request live from creation to paid, reads its transaction, advances the clock and redelivers a webhook', async () => {
    const key = newApiKey()
    const account = sandbox.sandbox.chain!.accounts[3]!
    // a webhook that refuses the first delivery: the page shows the failed attempt, then the retry
    receiver.script.push(500)
    expect((await api(key, 'POST', '/v2/webhook', { url: receiver.url })).status).toBe(201)

    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${origin}/`)
    // the key is typed in and submitted with the keyboard
    await page.getByLabel('API key').fill(key)
    await page.getByLabel('API key').press('Enter')
    await expect.poll(() => page.locator('.live').textContent()).toBe('live')
    await page.evaluate(() => {
      ;(window as unknown as { marker: number }).marker = 42
    })

    // created elsewhere, through the API: it appears without a reload
    const created = await api(key, 'POST', '/v2/request', {
      amount: '12.5',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    expect(created.status).toBe(201)
    const { requestId, paymentReference } = created.body as { requestId: string; paymentReference: string }
    const row = page.locator('tr', { has: page.locator(`a[href="#request/${requestId}"]`) })
    await row.waitFor({ timeout: 10_000 })
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status')).toBe('pending')
    expect(await row.textContent()).toContain(paymentReference)
    expect(await row.textContent()).toContain('12.5')

    // paid on the chain from anvil's account 3 with the calldata /pay returned
    const pay = await api(key, 'GET', `/v2/request/${requestId}/pay?wallet=${account.address}`)
    expect(pay.status).toBe(200)
    const { transactions } = pay.body as { transactions: ApiTransaction[] }
    const receipts = await execute(sandbox.sandbox, transactions, 3)
    const paymentTx = receipts.at(-1)!
    await expect
      .poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('paid')
    const txLink = row.locator(`a[href^="#tx/${paymentTx.transactionHash}"]`)
    await txLink.waitFor()
    expect(await row.textContent()).toContain(`block ${paymentTx.blockNumber}`)
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)
    await snap(page, 'requests-1280')

    // the request's own view lists the payment with its transaction and block
    await row.locator(`a[href="#request/${requestId}"]`).click()
    await page.getByRole('heading', { name: 'Payments' }).waitFor()
    const payments = page.locator('main table', { hasText: paymentTx.transactionHash.slice(0, 8) })
    await payments.waitFor()
    expect(await payments.locator('tbody tr').count()).toBe(1)
    expect(await payments.textContent()).toContain(String(paymentTx.blockNumber))
    await snap(page, 'request-1280')
    await page.goBack()
    await row.waitFor()

    // the transaction, read from the local chain, with the proxy's event decoded and linked to the request
    await txLink.focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Transaction', exact: true }).waitFor()
    await page.getByText('TransferWithReferenceAndFee').first().waitFor()
    const txText = (await page.locator('main').textContent())!
    expect(txText).toContain(account.address)
    expect(txText).toContain('ERC20FeeProxy')
    expect(txText).toContain(`${paymentTx.blockNumber}`)
    expect(await page.locator(`main a[href="#request/${requestId}"]`).count()).toBeGreaterThan(0)
    await snap(page, 'transaction-1280')

    // the clock, advanced from the page with the keyboard
    await page.getByRole('link', { name: 'Scenario & clock' }).click()
    const before = Date.parse(
      (await page.locator('#clock-now time').getAttribute('datetime', { timeout: 10_000 }))!,
    )
    await page.getByLabel('Advance by').fill('2')
    await page.getByLabel('Unit').selectOption('86400')
    await page.getByLabel('Advance by').press('Enter')
    await expect
      .poll(async () => Date.parse((await page.locator('#clock-now time').getAttribute('datetime'))!))
      .toBeGreaterThanOrEqual(before + 2 * 86400_000)
    const clock = await api(key, 'GET', '/__sandbox/clock')
    expect(Date.parse(clock.body.now)).toBeGreaterThanOrEqual(before + 2 * 86400_000)
    await snap(page, 'scenario-1280')

    // deliveries with every attempt; redeliver one from the page
    await page.getByRole('link', { name: 'Webhooks' }).click()
    const delivery = page.locator('article.delivery', { hasText: 'payment.confirmed' }).first()
    await delivery.waitFor({ timeout: 10_000 })
    const deliveryId = (await delivery.getAttribute('data-delivery-id'))!
    // the refused first attempt (500) and the retry that succeeded are both shown
    await expect.poll(() => delivery.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2)
    expect(await delivery.locator('tbody').textContent()).toContain('500')
    const sent = receiver.received.length
    // with the keyboard: the button keeps the focus across the live reload that follows
    await delivery.getByRole('button', { name: /^Redeliver/ }).focus()
    await page.keyboard.press('Enter')
    await receiver.waitFor(sent + 1)
    await expect.poll(() => delivery.locator('tbody tr').count(), { timeout: 10_000 }).toBe(3)
    await page.getByText(`Delivery ${deliveryId} sent again`).waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe(
      `redeliver-${deliveryId}`,
    )
    const redelivered = receiver.received.at(-1)!
    expect(redelivered.headers['x-request-network-delivery']).toBe(deliveryId)
    await snap(page, 'webhooks-1280')

    // the journal with bodies, filtered by path
    await page.getByRole('link', { name: 'Journal' }).click()
    await page.getByLabel('Path starts with').fill('/v2/request')
    await expect
      .poll(async () =>
        (await page.locator('ol.journal summary strong').allTextContents()).every((t) =>
          t.includes('/v2/request'),
        ),
      )
      .toBe(true)
    await page.locator('ol.journal summary', { hasText: 'POST /v2/request' }).first().click()
    expect(await page.locator('ol.journal').textContent()).toContain(requestId)
    await snap(page, 'journal-1280')

    // the chains with links on the host the browser used, and the faucet
    await page.getByRole('link', { name: 'Chains & faucet' }).click()
    await page.locator('.rpc-url').first().waitFor()
    expect(await page.locator('.rpc-url').first().textContent()).toBe(`${origin}/rpc/sepolia`)
    await page.getByLabel('Address').fill(account.address)
    await page.getByLabel('Currency').selectOption('FAU-sepolia')
    await page.getByLabel('Amount').fill('5')
    await page.getByRole('button', { name: 'Fund' }).click()
    await page.getByText(/Balance now [\d.]+ FAU-sepolia/).waitFor()
    await snap(page, 'chain-1280')

    // a phone's width: the same views stack
    await page.setViewportSize({ width: 390, height: 844 })
    for (const [hash, name] of [
      ['requests', 'requests-390'],
      [`tx/${paymentTx.transactionHash}/sepolia`, 'transaction-390'],
      ['webhooks', 'webhooks-390'],
      ['journal', 'journal-390'],
    ] as const) {
      await page.evaluate((h) => {
        location.hash = h
      }, hash)
      await page.locator('main .data:not([aria-busy])').waitFor()
      await snap(page, name)
    }
    // nothing wider than the phone's screen
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(overflow).toBeLessThanOrEqual(390)
    await page.close()
  })
})

describe('the dashboard, the details a newcomer sees', () => {
  it('counts in words, names the payer and the token as the request does, numbers payouts from 1, lists payment links', async () => {
    const key = newApiKey()
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${origin}/`)
    // before any key: a neutral badge, not a red "offline"
    expect(await page.locator('.live').textContent()).toBe('no key yet')
    expect(await page.locator('.live').getAttribute('class')).not.toContain('off')

    // one request in USDC-sepolia (the token fUSDC-sepolia shares), paid on chain by anvil's account 5
    const account = sandbox.sandbox.chain!.accounts[5]!
    expect(
      (
        await api(key, 'POST', '/__sandbox/faucet', {
          address: account.address,
          currency: 'USDC-sepolia',
          amount: '100',
        })
      ).status,
    ).toBe(200)
    const created = await api(key, 'POST', '/v2/request', {
      amount: '3',
      invoiceCurrency: 'USDC-sepolia',
      paymentCurrency: 'USDC-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    expect(created.status).toBe(201)
    const { requestId } = created.body as { requestId: string }
    const pay = await api(key, 'GET', `/v2/request/${requestId}/pay?wallet=${account.address}`)
    const receipts = await execute(sandbox.sandbox, pay.body.transactions as ApiTransaction[], 5)
    const paymentTx = receipts.at(-1)!.transactionHash
    await expect
      .poll(async () => (await api(key, 'GET', `/v2/request/${requestId}`)).body.payerAddress)
      .toBeTruthy()

    await page.getByLabel('API key').fill(key)
    await page.getByLabel('API key').press('Enter')
    await expect.poll(() => page.locator('.live').textContent()).toBe('live')
    const row = page.locator('tr', { has: page.locator(`a[href="#request/${requestId}"]`) })
    await expect
      .poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('paid')
    // "1 request", not "1 requests"
    expect(await page.locator('.stat', { hasText: /^1/ }).first().textContent()).toBe('1request')
    // the payer column names the wallet that paid (the API's payerAddress)
    expect(await row.textContent()).toContain(account.address.slice(0, 6))
    // the picker's entry for this key is not cut off
    const picker = page.getByLabel('Keys the sandbox has seen')
    expect(await picker.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
    expect(await picker.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true)

    // the transaction names the token as the request does, and field names read as words
    await page.goto(`${origin}/#tx/${paymentTx}/sepolia`)
    const events = page.locator('ol.events')
    await events.waitFor()
    expect(await events.textContent()).toContain('USDC-sepolia')
    expect(await events.textContent()).not.toContain('fUSDC-sepolia')
    expect(await page.locator('.facts dt', { hasText: 'Status' }).count()).toBeGreaterThan(0)
    // a field name keeps its case (capitals made "tokenAddress" read TOKENADDRESS)
    const term = page.locator('ol.events .facts dt', { hasText: /^tokenAddress$/ }).first()
    expect(await term.evaluate((el) => getComputedStyle(el).textTransform)).toBe('none')

    // a secure payment link, with its page one click away
    const link = await api(key, 'POST', '/v2/secure-payments', {
      requests: [
        { payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7', currency: 'FAU-sepolia', amount: '5' },
      ],
    })
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    await page.getByRole('link', { name: 'Payment links' }).click()
    const linkRow = page.locator('main table tbody tr').first()
    await linkRow.waitFor()
    expect(await linkRow.locator('[data-status]').getAttribute('data-status')).toBe('pending')
    expect(await linkRow.locator('a[href^="__sandbox/secure-payment?token="]').count()).toBe(1)
    await snap(page, 'links-1280')

    // the faucet card keeps its distance from the chains table
    await page.getByRole('link', { name: 'Chains & faucet' }).click()
    const chainsTable = page.locator('main table').first()
    await chainsTable.waitFor()
    const card = await page.locator('form[aria-label="Faucet"]').boundingBox()
    const tableBox = await chainsTable.boundingBox()
    expect(tableBox!.y - (card!.y + card!.height)).toBeGreaterThanOrEqual(12)

    // a recurring payout: its first payment is #1, and the request it was created with is not "pending" forever
    await api(key, 'PUT', '/__sandbox/scenario', { scenario: 'payout-cancelled' })
    const seeded = await api(key, 'GET', '/__sandbox/scenario')
    await page.goto(`${origin}/#payouts`)
    const payout = page.locator('article[data-payout-id]').first()
    await payout.waitFor({ timeout: 30_000 })
    expect(await payout.locator('tbody tr td').first().textContent()).toBe('1')
    await page.goto(`${origin}/#request/${seeded.body.ids.originalRequestId}`)
    await page.locator('.facts').first().waitFor()
    expect(await page.locator('.facts [data-status]').first().getAttribute('data-status')).toBe('recurring')
    await page.close()
  })
})

describe('the dashboard with seeded scenarios', () => {
  it('switches the scenario from the page and shows its payers, payment details and paused payout', async () => {
    const key = newApiKey()
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${origin}/#scenario`)
    await page.getByLabel('API key').fill(key)
    await page.getByRole('button', { name: 'Open' }).click()
    await page.getByLabel('Scenario of this key').selectOption('payment-details-approved')
    await page.getByRole('button', { name: 'Switch scenario' }).click()
    await page.getByText('Scenario payment-details-approved selected').waitFor({ timeout: 20_000 })
    const seeded = await api(key, 'GET', '/__sandbox/scenario')
    expect(seeded.body.scenario).toBe('payment-details-approved')
    await page.locator('.facts', { hasText: 'clientUserId' }).first().waitFor()
    await snap(page, 'scenario-seeded-1280')

    await page.getByRole('link', { name: 'Payers' }).click()
    const card = page.locator('article.card').first()
    await card.waitFor()
    expect(await card.locator('[data-status="approved"]').count()).toBeGreaterThan(0)
    expect(await card.getByRole('link', { name: 'KYC page' }).getAttribute('href')).toMatch(
      new RegExp(`^${origin}/__sandbox/payer-pages/`),
    )
    await snap(page, 'payers-1280')

    await page.getByRole('link', { name: 'Scenario & clock' }).click()
    await page.getByLabel('Scenario of this key').selectOption('payout-paused-insufficient-funds')
    await page.getByRole('button', { name: 'Switch scenario' }).click()
    await page.getByText('Scenario payout-paused-insufficient-funds selected').waitFor({ timeout: 30_000 })
    await page.getByRole('link', { name: 'Payouts' }).click()
    const payout = page.locator('article[data-payout-id]').first()
    await payout.waitFor()
    expect(await payout.locator('[data-status="paused"]').count()).toBe(1)
    expect(await payout.textContent()).toContain('daily, 0 of 3 paid')
    await snap(page, 'payouts-1280')
    await page.setViewportSize({ width: 390, height: 844 })
    await snap(page, 'payouts-390')
    await page.close()
  })
})

describe('the dashboard in strict mode', () => {
  it('lists no keys and asks for one; a key not configured is refused, a configured one opens', async () => {
    // a key that exists on the server is still not offered
    await fetch(`${strict.url}/__sandbox/clock`, { headers: { 'x-api-key': 'alpha-key' } })
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${strict.url}/`)
    await page.getByRole('heading', { name: 'Choose an API key' }).waitFor()
    expect(await page.getByLabel('Keys the sandbox has seen').isHidden()).toBe(true)
    expect(await page.getByLabel('API key').getAttribute('placeholder')).toBe('a key given to --api-keys')
    await page.getByLabel('API key').fill('guess')
    await page.getByLabel('API key').press('Enter')
    await page.getByText('This key is refused by the sandbox (strict mode)').waitFor()
    await page.getByLabel('API key').fill('alpha-key')
    await page.getByLabel('API key').press('Enter')
    await page.getByText('No requests yet').waitFor()
    await snap(page, 'strict-1280')
    await page.close()
  })

  it('lists every key to the admin of --admin-key, typed into its own field', async () => {
    await fetch(`${strict.url}/__sandbox/clock`, { headers: { 'x-api-key': 'alpha-key' } })
    const page = await browser.context.newPage()
    await page.goto(`${strict.url}/`)
    await page.getByRole('heading', { name: 'Choose an API key' }).waitFor()
    expect(await page.getByLabel('Keys the sandbox has seen').isHidden()).toBe(true)
    await page.getByLabel('Admin key').fill('admin-secret')
    await page.getByLabel('Admin key').press('Tab')
    await page.getByLabel('Keys the sandbox has seen').waitFor()
    expect(await page.getByLabel('Keys the sandbox has seen').textContent()).toContain('alpha-key')
    expect(await page.getByLabel('Admin key').isHidden()).toBe(true)
    await page.close()
  })
})
