// An orchestrator's whitelabel branding on the Secure Payment Page in real Chromium: a link created with paired
// authentication (x-orchestrator-key + the client ID it linked) opens with the orchestrator's colours, its logo
// (loaded from /branding/…) and legal links; the test wallet pays it and the orchestrator's payer-borne fee reaches
// its address on the chain. A client-ID row then replaces the orchestrator's. The hosted onboarding page runs no
// script. Screenshots in test-output/orchestrator-branding/ (gitignored).
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import type { BrowserContext } from 'playwright-core'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { freshAddress } from '../support/chain.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const shots = new URL('../../test-output/orchestrator-branding/', import.meta.url).pathname
let sandbox: RunningServer
let browser: { context: BrowserContext; close(): Promise<void> }

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser] = await Promise.all([startServer(), launchChromium()])
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(sandbox.url + path, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as Loose }
}

const BRAND = {
  pageBackgroundColor: '#1e1b4b',
  cardBackgroundColor: '#fdf4ff',
  primaryActionColor: '#c026d3',
  primaryTextColor: '#3b0764',
  secondaryTextColor: '#86198f',
  logoPath: '/branding/sandbox/logo.png',
  termsPath: '/branding/sandbox/terms.html',
  privacyPath: '/branding/sandbox/privacy.html',
  displayRequestBranding: true,
}

it('shows the orchestrator branding on the page, pays its fee through the test wallet, and lets a client row replace it', async () => {
  const orc = { 'x-orchestrator-key': `orc_branding_${randomBytes(6).toString('hex')}` }
  const apiKey = newApiKey()
  const clientId = (
    await call('POST', '/v2/client-ids', { 'x-api-key': apiKey }, { label: 'Shop', allowedDomains: [] })
  ).body.clientId as string
  // linked with its owner's consent (the owner's API key beside the orchestrator key)
  expect(
    (await call('POST', '/v2/orchestrators/client-ids', { ...orc, 'x-api-key': apiKey }, { clientId }))
      .status,
  ).toBe(201)
  expect((await call('POST', '/v2/orchestrators/branding', orc, BRAND)).status).toBe(201)
  const feeAddress = freshAddress()
  await call('POST', '/v2/orchestrators/fee-configs', orc, {
    bps: 300,
    feeBearer: 'payer',
    flow: 'incoming',
    evmRecipientAddress: feeAddress,
  })
  const newLink = async () => {
    const created = await call(
      'POST',
      '/v2/secure-payments',
      { ...orc, 'x-client-id': clientId },
      { requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount: '40' }] },
    )
    expect(created.status).toBe(201)
    return created.body as { token: string; securePaymentUrl: string }
  }

  const link = await newLink()
  const page = await browser.context.newPage()
  await page.setViewportSize({ width: 520, height: 900 })
  await page.goto(link.securePaymentUrl)
  await page.getByTestId('test-wallet').waitFor()
  const look = () =>
    page.evaluate(() => {
      const card = document.querySelector('.card')!
      const logo = document.querySelector<HTMLImageElement>('[data-testid="brand-logo"]')
      return {
        page: getComputedStyle(document.documentElement).backgroundColor,
        card: getComputedStyle(card).backgroundColor,
        action: getComputedStyle(document.querySelector('.button.primary')!).backgroundColor,
        logoLoaded: logo ? logo.complete && logo.naturalWidth > 0 : false,
        terms: document.querySelector<HTMLAnchorElement>('[data-testid="terms"]')?.href ?? null,
        privacy: document.querySelector<HTMLAnchorElement>('[data-testid="privacy"]')?.href ?? null,
        madeBy: document.querySelector('.made-by')?.textContent ?? null,
      }
    })
  await page.waitForFunction(() => {
    const logo = document.querySelector<HTMLImageElement>('[data-testid="brand-logo"]')
    return logo?.complete && logo.naturalWidth > 0
  })
  expect(await look()).toEqual({
    page: 'rgb(30, 27, 75)',
    card: 'rgb(253, 244, 255)',
    action: 'rgb(192, 38, 211)',
    logoLoaded: true,
    terms: `${sandbox.url}/branding/sandbox/terms.html`,
    privacy: `${sandbox.url}/branding/sandbox/privacy.html`,
    madeBy: 'Made easy by Request Network',
  })
  await page.screenshot({ path: `${shots}1-orchestrator-branded.png` })
  // the legal link opens the bundled page
  const terms = await fetch(`${sandbox.url}/branding/sandbox/terms.html`)
  expect(terms.status).toBe(200)

  // pay with the test wallet: the fee transfer is one of the steps, and the fee lands on chain
  await page.getByTestId('test-wallet').click()
  await page.getByTestId('pay').waitFor()
  expect(await page.locator('.steps li').allTextContents()).toContain('Pay fee')
  await page.screenshot({ path: `${shots}2-branded-steps.png` })
  await page.getByTestId('pay').click()
  await page.locator('[data-state="done"]').waitFor({ timeout: 20_000 })
  await page.screenshot({ path: `${shots}3-branded-confirmed.png` })
  const chain = sandbox.sandbox.shared.chains.get('sepolia')!
  const token = sandbox.sandbox.shared.currencies.byId('FAU-sepolia')!.address as Address
  expect(await chain.balanceOf(token, feeAddress)).toBe(12n * 10n ** 17n) // 3 % of 40

  // a client row replaces the orchestrator's entirely: its colour, the page's defaults elsewhere, no logo
  expect(
    (await call('POST', '/v2/orchestrators/branding', orc, { clientId, primaryActionColor: '#0369a1' }))
      .status,
  ).toBe(201)
  const second = await newLink()
  await page.goto(second.securePaymentUrl)
  await page.getByTestId('test-wallet').waitFor()
  const replaced = await look()
  expect(replaced.action).toBe('rgb(3, 105, 161)')
  expect(replaced.page).not.toBe('rgb(30, 27, 75)')
  expect(replaced.logoLoaded).toBe(false)
  await page.screenshot({ path: `${shots}4-client-branded.png` })
  await page.close()
})

it('serves the hosted onboarding page without any script, themed by the orchestrator branding', async () => {
  const orc = { 'x-orchestrator-key': `orc_onboard_${randomBytes(6).toString('hex')}` }
  await call('POST', '/v2/orchestrators/branding', orc, BRAND)
  const intent = await call('POST', '/v2/orchestrators/client-id-link-intents', orc, {
    clientIdName: 'Acme Store',
  })
  const page = await browser.context.newPage()
  const scripts: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url())
  })
  await page.setViewportSize({ width: 560, height: 900 })
  await page.goto(intent.body.url)
  await page
    .locator('input[name="walletAddress"]')
    .fill(sandbox.sandbox.shared.chains.get('sepolia')!.accounts[7]!.address)
  await page.locator('select[name="currency"]').selectOption('USDC-sepolia')
  await page.locator('select[name="kyt"]').selectOption('merklescience')
  await page.locator('input[name="confirm"]').check()
  await page.screenshot({ path: `${shots}5-onboarding.png` })
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(30, 27, 75)')
  await page.locator('button[type="submit"]').click()
  await page.locator('#client-id').waitFor()
  const clientId = await page.locator('#client-id').textContent()
  expect(clientId).toMatch(/^cli_[0-9a-f]{12}$/)
  await page.screenshot({ path: `${shots}6-onboarded.png` })
  expect(scripts).toEqual([])
  expect((await call('GET', '/v2/orchestrators/client-ids', orc)).body.links).toEqual([
    { clientId, status: 'active' },
  ])
  await page.close()
})
