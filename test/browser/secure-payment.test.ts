// The Secure Payment Page in real Chromium: a payer opens securePaymentUrl with an injected EIP-1193 wallet (a
// small provider added by addInitScript that forwards reads to the sandbox's /rpc and has a viem account, held by
// the test, sign its transactions), approves and pays; the page shows the confirmation once the detector saw the
// payment, GET /v2/request/{id} reports paid, and the signed webhooks (user events, payment.confirmed and its
// .checkout variant) reach a local receiver that verifies them. Also: the built-in test wallet pays a link without
// any injected wallet, and a wallet the link does not allow is turned away (secure_payment.access_rejected).
// Screenshots go to test-output/secure-payment/ (gitignored).
import { mkdirSync } from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { createPublicClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { freshAddress } from '../support/chain.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const shots = new URL('../../test-output/secure-payment/', import.meta.url).pathname
let sandbox: RunningServer
let browser: { context: BrowserContext; close(): Promise<void> }
let receiver: WebhookReceiver

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser, receiver] = await Promise.all([startServer(), launchChromium(), startReceiver()])
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await receiver?.close()
  await sandbox?.close()
})

async function call(method: string, path: string, apiKey: string | null, body?: unknown) {
  const res = await fetch(sandbox.url + path, {
    method,
    headers: {
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as Loose }
}

/** A link for a fresh payee, with a platform fee; the page is opened on `localhost` (the Host it follows). */
async function newLink(apiKey: string, extra: Record<string, unknown> = {}) {
  const created = await call('POST', '/v2/secure-payments', apiKey, {
    requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount: '25' }],
    feePercentage: '1',
    feeAddress: freshAddress(),
    reference: 'INV-2041',
    redirectUrl: 'https://shop.example.com/thanks',
    redirectLabel: 'Back to the shop',
    ...extra,
  })
  expect(created.status).toBe(201)
  return created.body as { token: string; requestIds: string[]; securePaymentUrl: string }
}

/** Injects window.ethereum: reads go to the sandbox's /rpc, transactions are signed in the test by `privateKey`. */
async function injectWallet(page: Page, privateKey: Hex) {
  const account = privateKeyToAccount(privateKey)
  const chainInfo = sandbox.sandbox.chain!
  const chain = defineChain({
    id: chainInfo.chainId,
    name: 'sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`${sandbox.url}/rpc`] } },
  })
  const client = createPublicClient({ chain, transport: http(`${sandbox.url}/rpc`) })
  await page.exposeFunction('__walletSign', async (tx: { to: Hex; data: Hex; value?: Hex }) => {
    const prepared = await client.prepareTransactionRequest({
      account,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value ?? '0x0'),
      chain,
    })
    return account.signTransaction(prepared as never)
  })
  // eth_signTypedData_v4 of an EIP-2612 permit (the page's gasless approval)
  await page.exposeFunction('__walletSignTyped', async (json: string) => {
    const { domain, types, message } = JSON.parse(json)
    const { EIP712Domain: _domain, ...rest } = types
    return account.signTypedData({
      domain,
      types: rest,
      primaryType: 'Permit',
      message: {
        ...message,
        value: BigInt(message.value),
        nonce: BigInt(message.nonce),
        deadline: BigInt(message.deadline),
      },
    })
  })
  await page.addInitScript(
    ({ address, chainId }) => {
      let id = 0
      const rpc = async (method: string, params: unknown[] = []) => {
        const res = await fetch('/rpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        })
        const body = await res.json()
        if (body.error) throw new Error(body.error.message)
        return body.result
      }
      const w = window as unknown as {
        ethereum: unknown
        __walletSign(tx: unknown): Promise<string>
        __walletSignTyped(json: unknown): Promise<string>
      }
      w.ethereum = {
        isMetaMask: false,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address]
          if (method === 'eth_chainId') return `0x${chainId.toString(16)}`
          if (method === 'wallet_switchEthereumChain') return null
          if (method === 'eth_signTypedData_v4') return w.__walletSignTyped(params![1])
          if (method === 'eth_sendTransaction') {
            const raw = await w.__walletSign(params![0])
            return rpc('eth_sendRawTransaction', [raw])
          }
          return rpc(method, params)
        },
      }
    },
    { address: account.address, chainId: chainInfo.chainId },
  )
  return account.address
}

describe('the Secure Payment Page in Chromium', () => {
  it('connects an injected wallet, approves and pays, shows the confirmation, and signed webhooks arrive', async () => {
    const apiKey = newApiKey()
    const hook = await call('POST', '/v2/webhook', apiKey, { url: receiver.url })
    expect(hook.status).toBe(201)
    receiver.secret = hook.body.secret
    const link = await newLink(apiKey)
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 520, height: 860 })
    const payer = await injectWallet(page, sandbox.sandbox.chain!.accounts[2]!.privateKey)
    await page.goto(link.securePaymentUrl.replace('127.0.0.1', 'localhost'))

    await page.getByTestId('connect').waitFor()
    expect(await page.getByTestId('amount').textContent()).toBe('25')
    expect(await page.getByTestId('currency').textContent()).toBe('FAU')
    expect(await page.getByTestId('fee').textContent()).toBe('$0.25')
    expect(await page.getByTestId('total').textContent()).toBe('$25.25')
    await page.screenshot({ path: `${shots}1-link.png` })

    await page.getByTestId('connect').click()
    await page.getByTestId('pay').waitFor()
    expect(await page.getByTestId('wallet').textContent()).toBe(`${payer.slice(0, 6)}…${payer.slice(-4)}`)
    await page.screenshot({ path: `${shots}2-connected.png` })
    await page.getByTestId('pay').click()
    await page.locator('[data-state="done"]').waitFor({ timeout: 20_000 })
    expect(await page.locator('h1').textContent()).toBe('Payment confirmed')
    await page.screenshot({ path: `${shots}3-confirmed.png` })

    const status = await call('GET', `/v2/request/${link.requestIds[0]}`, apiKey)
    expect(status.body).toMatchObject({ hasBeenPaid: true })
    const byRequest = await call('GET', `/v2/secure-payments?requestId=${link.requestIds[0]}`, apiKey)
    expect(byRequest.body).toMatchObject({ status: 'completed' })

    const wanted = ['secure_payment.user_event', 'payment.confirmed', 'payment.confirmed.checkout']
    const deadline = Date.now() + 10_000
    const events = () => receiver.received.map((r) => r.body.event as string)
    while (
      !wanted.every((e) => events().includes(e)) ||
      events().filter((e) => e === 'secure_payment.user_event').length < 3
    ) {
      if (Date.now() > deadline) throw new Error(`webhooks received: ${events().join(', ')}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true)
    const userEvents = receiver.received
      .filter((r) => r.body.event === 'secure_payment.user_event')
      .map((r) => r.body.userEvent)
    expect(userEvents).toEqual(['wallet_connected', 'payment_sent_to_wallet', 'payment_approved_in_wallet'])
    const checkout = receiver.received.find((r) => r.body.event === 'payment.confirmed.checkout')!.body
    expect(checkout).toMatchObject({
      requestId: link.requestIds[0],
      securePaymentToken: link.token,
      reference: 'INV-2041',
    })
    await page.close()
  })

  it('approves USDC with a signed EIP-2612 permit (no approve transaction) and pays (secure-payment-pages.mdx#gasless-token-approvals-eip-2612)', async () => {
    const apiKey = newApiKey()
    const chain = sandbox.sandbox.chain!
    const link = await newLink(apiKey, {
      requests: [{ payee: freshAddress(), currency: 'USDC-sepolia', amount: '3' }],
    })
    const page = await browser.context.newPage()
    const payer = await injectWallet(page, chain.accounts[5]!.privateKey)
    const sentBefore = await chain.publicClient.getTransactionCount({ address: payer })
    await page.goto(link.securePaymentUrl.replace('127.0.0.1', 'localhost'))
    await page.getByTestId('connect').click()
    await page.getByTestId('pay').click()
    await page.locator('[data-state="done"]').waitFor({ timeout: 20_000 })
    expect(await page.locator('h1').textContent()).toBe('Payment confirmed')
    // the payer sent the payment only: the allowance came from the permit the sandbox submitted
    expect(await chain.publicClient.getTransactionCount({ address: payer })).toBe(sentBefore + 1)
    expect(await chain.allowance(chain.tokens['USDC-sepolia']!, payer, chain.contracts.ERC20FeeProxy!)).toBe(
      2n ** 256n - 1n,
    )
    expect((await call('GET', `/v2/request/${link.requestIds[0]}`, apiKey)).body.hasBeenPaid).toBe(true)
    await page.close()
  })

  it('pays with the built-in test wallet when the browser has none', async () => {
    const apiKey = newApiKey()
    const link = await newLink(apiKey)
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 520, height: 860 })
    await page.goto(link.securePaymentUrl)
    await page.getByTestId('test-wallet').waitFor()
    expect(await page.getByTestId('connect').count()).toBe(0)
    await page.getByTestId('test-wallet').click()
    await page.getByTestId('pay').click()
    await page.locator('[data-state="done"]').waitFor({ timeout: 20_000 })
    await page.screenshot({ path: `${shots}4-test-wallet-confirmed.png` })
    expect((await call('GET', `/v2/request/${link.requestIds[0]}`, apiKey)).body.hasBeenPaid).toBe(true)
    // the link is spent: opening it again says so
    await page.goto(link.securePaymentUrl)
    await page.locator('[data-state="done"]').waitFor()
    expect(await page.locator('h1').textContent()).toBe('Already paid')
    await page.close()
  })

  it('turns away a wallet the link does not allow and announces secure_payment.access_rejected', async () => {
    const apiKey = newApiKey()
    const link = await newLink(apiKey, { accessPolicy: { allowedPayerAddresses: [freshAddress()] } })
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 520, height: 860 })
    const wallet = await injectWallet(page, sandbox.sandbox.chain!.accounts[3]!.privateKey)
    await page.goto(link.securePaymentUrl)
    await page.getByTestId('connect').click()
    await page.locator('[data-state="error"]').waitFor()
    expect(await page.locator('h1').textContent()).toBe('Wallet not allowed')
    await page.screenshot({ path: `${shots}5-access-rejected.png` })
    const rejected = sandbox.sandbox.shared.tenants
      .get(apiKey)
      .events.find((e) => e.type === 'secure_payment.access_rejected')
    expect(rejected?.payload).toMatchObject({
      attemptedPayerWalletAddress: wallet.toLowerCase(),
      requestId: link.requestIds[0],
    })
    await page.close()
  })

  it('pays a multicall payout of two payout links with the test wallet', async () => {
    const apiKey = newApiKey()
    const testWallet = sandbox.sandbox.chain!.accounts[9]!.address
    const payout = (amount: string) =>
      call('POST', '/v2/secure-payments/payouts', apiKey, {
        recipient: freshAddress(),
        creatorWalletAddress: testWallet,
        network: 'sepolia',
        currency: 'FAU-sepolia',
        amount,
      })
    const [a, b] = await Promise.all([payout('4'), payout('6')])
    const multicall = await call('POST', '/v2/secure-payments/multicall-payouts', apiKey, {
      childTokens: [a!.body.token, b!.body.token],
    })
    expect(multicall.status).toBe(201)
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 520, height: 860 })
    await page.goto(multicall.body.securePaymentUrl)
    await page.getByTestId('test-wallet').waitFor()
    expect(await page.locator('.batch li').count()).toBe(2)
    await page.screenshot({ path: `${shots}6-multicall.png` })
    await page.getByTestId('test-wallet').click()
    await page.getByTestId('pay').click()
    await page.locator('[data-state="done"]').waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('paid').textContent()).toBe('2 payments')
    const state = await call('GET', `/v2/secure-payments/multicall-payouts/${multicall.body.token}`, apiKey)
    expect(state.body.status).toBe('completed')
    await page.close()
  })
})
