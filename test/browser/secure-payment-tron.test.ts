// The Secure Payment Page pays a Tron link in real Chromium: through a TronLink-style wallet (window.tronLink +
// window.tronWeb injected by addInitScript; building and signing happen in the test with a real TronWeb pointed at
// the sandbox's /tron node, as TronLink does in its extension) and through the built-in test wallet. Each step goes
// through POST /v2/secure-payments/{token}/tron/broadcast (sponsored: the payer burns no TRX); the page shows the
// confirmation once the detector saw the payment; the $3.99 resource fee reaches the treasury. The dashboard's
// faucet card funds a `T…` address with TRX (TRX-tron) on this Tron sandbox.
import { mkdirSync } from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { TronWeb } from 'tronweb'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { toTronAddress } from '../../src/tron/index.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const shots = new URL('../../test-output/secure-payment/', import.meta.url).pathname
let sandbox: RunningServer
let browser: { context: BrowserContext; close(): Promise<void> }
let tron: {
  fullHost: string
  tokens: Record<string, string>
  accounts: { address: string; privateKey: string }[]
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser] = await Promise.all([startServer({ networks: ['tron'] }), launchChromium()])
  const info = await (await fetch(`${sandbox.url}/__sandbox/chain`)).json()
  tron = info.chains.find((c: { network: string }) => c.network === 'tron').tron
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

async function call(method: string, path: string, apiKey: string, body?: unknown) {
  const res = await fetch(sandbox.url + path, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as Loose }
}

const freshTron = () => toTronAddress(privateKeyToAccount(generatePrivateKey()).address)

async function tronLink(apiKey: string, payer: string) {
  const created = await call('POST', '/v2/secure-payments/payouts', apiKey, {
    recipient: freshTron(),
    creatorWalletAddress: payer,
    network: 'tron',
    currency: 'USDT-tron',
    amount: '40',
  })
  expect(created.status).toBe(201)
  return created.body as { token: string; requestIds: string[]; securePaymentUrl: string }
}

/** window.tronLink and window.tronWeb as TronLink injects them: the page builds and signs through them. */
async function injectTronLink(page: Page, privateKey: string) {
  const tw = new TronWeb({ fullHost: tron.fullHost, privateKey })
  const address = TronWeb.address.fromPrivateKey(privateKey) as string
  await page.exposeFunction('__tronTrigger', (to: string, selector: string, options: object, from: string) =>
    tw.transactionBuilder.triggerSmartContract(to, selector, options, [], from),
  )
  await page.exposeFunction('__tronSign', (tx: never) => tw.trx.sign(tx))
  await page.addInitScript((base58) => {
    const w = window as unknown as Record<string, unknown> & {
      __tronTrigger(...args: unknown[]): Promise<unknown>
      __tronSign(tx: unknown): Promise<unknown>
    }
    w.tronLink = { request: async () => ({ code: 200, message: 'ok' }) }
    w.tronWeb = {
      defaultAddress: { base58 },
      transactionBuilder: {
        triggerSmartContract: (to: string, selector: string, options: object, _p: unknown[], from: string) =>
          w.__tronTrigger(to, selector, options, from),
      },
      trx: { sign: (tx: unknown) => w.__tronSign(tx) },
    }
  }, address)
  return { tw, address }
}

describe('the Secure Payment Page on Tron, in Chromium', () => {
  it('pays a Tron payout link with a TronLink-style wallet: steps broadcast sponsored, confirmation shown', async () => {
    const apiKey = newApiKey()
    const payer = tron.accounts[3]!
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 520, height: 860 })
    const { tw } = await injectTronLink(page, payer.privateKey)
    const link = await tronLink(apiKey, payer.address)
    const trxBefore = await tw.trx.getBalance(payer.address)
    await page.goto(link.securePaymentUrl.replace('127.0.0.1', 'localhost'))
    await page.getByTestId('connect').waitFor()
    expect(await page.getByTestId('connect').textContent()).toBe('Connect TronLink')
    expect(await page.getByTestId('total').textContent()).toBe('$43.99')
    await page.screenshot({ path: `${shots}tron-1-link.png` })
    await page.getByTestId('connect').click()
    await page.getByTestId('pay').waitFor()
    expect(await page.getByTestId('wallet').textContent()).toBe(
      `${payer.address.slice(0, 6)}…${payer.address.slice(-4)}`,
    )
    await page.getByTestId('pay').click()
    await page.locator('[data-state="done"]').waitFor({ timeout: 30_000 })
    expect(await page.locator('h1').textContent()).toBe('Payment confirmed')
    await page.screenshot({ path: `${shots}tron-2-confirmed.png` })
    expect((await call('GET', `/v2/request/${link.requestIds[0]}`, apiKey)).body).toMatchObject({
      hasBeenPaid: true,
    })
    // sponsored: no TRX burnt; the resource fee reached the treasury after the payment
    expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore)
    const pay = await call('GET', `/v2/secure-payments?requestId=${link.requestIds[0]}`, apiKey)
    expect(pay.body).toMatchObject({ status: 'completed' })
    await page.close()
  })

  it('pays a Tron link with the built-in test wallet', async () => {
    const apiKey = newApiKey()
    const link = await tronLink(apiKey, tron.accounts[4]!.address)
    const page = await browser.context.newPage()
    await page.goto(link.securePaymentUrl)
    await page.getByTestId('test-wallet').waitFor()
    expect(await page.getByTestId('connect').count()).toBe(0)
    await page.getByTestId('test-wallet').click()
    await page.getByTestId('pay').click()
    await page.locator('[data-state="done"]').waitFor({ timeout: 30_000 })
    await page.screenshot({ path: `${shots}tron-3-test-wallet.png` })
    expect((await call('GET', `/v2/request/${link.requestIds[0]}`, apiKey)).body.hasBeenPaid).toBe(true)
    await page.close()
  })

  it("the dashboard's faucet card lists Tron's coin and tokens and funds a T-address with TRX", async () => {
    const apiKey = newApiKey()
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${sandbox.url}/#chain`)
    await page.getByLabel('API key').fill(apiKey)
    await page.getByLabel('API key').press('Enter')
    await page.getByLabel('Currency').locator('option').first().waitFor({ state: 'attached' })
    const options = await page.getByLabel('Currency').locator('option').allTextContents()
    expect(options.sort()).toEqual(['TRX-tron', 'USDC-tron', 'USDT-tron'])
    const holder = freshTron()
    await page.getByLabel('Address').fill(holder)
    await page.getByLabel('Currency').selectOption('TRX-tron')
    await page.getByLabel('Amount').fill('12.5')
    await page.getByRole('button', { name: 'Fund' }).click()
    await page.getByText('Balance now 12.5 TRX-tron').waitFor()
    const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: tron.accounts[0]!.privateKey })
    expect(await tw.trx.getBalance(holder)).toBe(12_500_000)
    await page.screenshot({ path: `${shots}tron-4-dashboard-faucet.png` })
    await page.close()
  })
})
