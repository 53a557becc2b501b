// Example: an app's end-to-end test with request-sandbox/playwright, in Debian's Chromium through playwright-core.
// The sandbox is started (or joined at SANDBOX_URL), the test has its own key, and the page gets a wallet announced
// through EIP-6963 and backed by an anvil account: the shop's own checkout page is clicked through and pays the
// invoice on the sandbox's chain, which the API then reports as paid.

import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  installWallet,
  newApiKey,
  type PlaywrightSandbox,
  sandboxFixtures,
  startOrJoinSandbox,
} from '../../src/playwright.ts'
import { launchChromium } from '../support/chromium.ts'

let sandbox: PlaywrightSandbox
let browser: { context: BrowserContext; close(): Promise<void> }
let app: Server
let appUrl: string

beforeAll(async () => {
  ;[sandbox, browser] = await Promise.all([startOrJoinSandbox({ url: '' }), launchChromium()])
  // the shop: two static files
  app = createServer(async (req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname === '/app.js' ? 'app.js' : 'index.html'
    const body = await readFile(new URL(`./checkout-app/${name}`, import.meta.url))
    res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(body)
  })
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => app?.close(resolve))
  await sandbox?.close()
})

async function call(method: string, path: string, apiKey: string, body?: unknown) {
  const res = await fetch(sandbox.url + path, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('request-sandbox/playwright', () => {
  it('clicks through the shop checkout with the injected wallet and pays on the chain', async () => {
    expect(sandbox.started).toBe(true)
    const apiKey = newApiKey('checkout')
    const created = await call('POST', '/v2/request', apiKey, {
      amount: '12.5',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      reference: 'ORDER-1001',
    })
    expect(created.status).toBe(201)
    const requestId = created.body.requestId as string
    const page = await browser.context.newPage()
    try {
      const wallet = await installWallet(page, sandbox.url, { accountIndex: 3 })
      const query = new URLSearchParams({ api: sandbox.url, apiKey, requestId })
      await page.goto(`${appUrl}/?${query}`)
      // EIP-6963: the page found the wallet by its announcement
      await page.getByRole('button', { name: 'Pay with Request Sandbox Wallet' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: /^Paid$/ })
        .waitFor({ timeout: 30_000 })
      expect(wallet.transactions).toHaveLength(2) // approve, then pay
      const paid = await call('GET', `/v2/request/${requestId}`, apiKey)
      expect(paid.body).toMatchObject({ hasBeenPaid: true })
      const payments = paid.body.payments as { txHash: string }[]
      expect(payments[0]!.txHash.toLowerCase()).toBe(wallet.transactions[1]!.toLowerCase())
      // the page saw the same account and chain through window.ethereum too
      const seen = await page.evaluate(async () => {
        const eth = (window as unknown as { ethereum: { request(a: { method: string }): Promise<unknown> } })
          .ethereum
        return [await eth.request({ method: 'eth_accounts' }), await eth.request({ method: 'eth_chainId' })]
      })
      expect(seen).toEqual([[wallet.address], `0x${wallet.chainId.toString(16)}`])
    } finally {
      await page.close()
    }
  }, 120_000)

  it('gives a fresh key per test and exposes the fixtures test.extend takes', () => {
    expect(newApiKey('a b')).toMatch(/^a-b-[0-9a-f]{8}$/)
    expect(newApiKey()).not.toBe(newApiKey())
    expect(Object.keys(sandboxFixtures).sort()).toEqual(['apiKey', 'sandbox', 'wallet', 'walletOptions'])
    expect(sandboxFixtures.sandbox[1]).toEqual({ scope: 'worker' })
  })
})
