// Example: testing an app with vitest + MSW and `request-sandbox/msw`. The app's API calls are answered
// in-process, each test gets its own tenant, the invoice is paid for real on the sandbox's chain, and the
// app's own webhook route receives payment.confirmed with a valid signature.
import { setupServer } from 'msw/node'
import { createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestSandbox, type TestSandbox, type TestTenant } from '../../src/msw.ts'
import { createInvoiceApp } from './invoice-app/app.ts'

let rn: TestSandbox
let server: ReturnType<typeof setupServer>
beforeAll(async () => {
  rn = await createTestSandbox({ baseUrl: 'https://api.request.network' })
  server = setupServer(...rn.handlers)
  server.listen({ onUnhandledRequest: 'error' })
})
afterAll(async () => {
  server?.close()
  await rn?.close()
})

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'

/** Sends the transactions GET /pay returned, from one of the chain's funded accounts. */
async function payOnChain(tenant: TestTenant, transactions: { to: Hex; data: Hex; value: { hex: Hex } }[]) {
  const chain = tenant.chain!
  const account = privateKeyToAccount(chain.accounts[4]!.privateKey)
  const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) })
  let hash: Hex = '0x'
  for (const tx of transactions) {
    hash = await wallet.sendTransaction({
      chain: null,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value.hex),
    })
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
  }
  return { hash, from: account.address }
}

describe('an invoicing app tested with MSW', () => {
  it('creates an invoice, pays it on chain, and marks it paid from a signed payment.confirmed webhook', async () => {
    const tenant = await rn.tenant()
    // The app's webhook route runs in-process; the sandbox signs with the secret the registration returns.
    const hook = await tenant.webhooks.deliverTo((request) => app.handleWebhook(request))
    const app = createInvoiceApp({ apiUrl: rn.baseUrl, apiKey: tenant.apiKey, webhookSecret: hook.secret })

    const invoice = await app.createInvoice({ amount: '42', currency: 'FAU-sepolia', payee })
    const from = tenant.chain!.accounts[4]!.address
    const calldata = await app.paymentCalldata(invoice.requestId, from)
    expect(calldata.metadata).toMatchObject({ hasEnoughBalance: true, needsApproval: true })
    const paid = await payOnChain(tenant, calldata.transactions)

    // the sandbox's chain detector sees the proxy's log and announces the payment; the app's webhook route gets it
    const event = await tenant.waitForEvent('payment.confirmed')
    expect(event.payload).toMatchObject({ requestId: invoice.requestId, txHash: paid.hash })

    const delivery = await tenant.webhooks.waitForDelivery('payment.confirmed')
    expect(delivery.attempts.at(-1)!.status).toBe(200)
    expect(app.invoices.get(invoice.requestId)).toMatchObject({ status: 'paid', txHash: paid.hash })
    expect(app.rejected).toEqual([])
    expect((await tenant.journal({ types: ['call'] })).map((e) => (e.type === 'call' ? e.path : ''))).toEqual(
      [`/v2/request/${invoice.requestId}/pay`, '/v2/request'],
    )
  })

  it("rejects a webhook signed with another secret (the app's verification is real)", async () => {
    const tenant = await rn.tenant()
    const hook = await tenant.webhooks.deliverTo((request) => app.handleWebhook(request))
    const app = createInvoiceApp({
      apiUrl: rn.baseUrl,
      apiKey: tenant.apiKey,
      webhookSecret: `${hook.secret.slice(1)}0`,
    })
    await tenant.emit('payment.confirmed', { requestId: 'whatever' })
    const failed = await tenant.webhooks.waitForDelivery('payment.confirmed', { state: 'failed' })
    expect(failed.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401])
    expect(app.rejected).toHaveLength(4)
  })

  it('gives each test its own world: another tenant does not see the invoice', async () => {
    const alice = await rn.tenant()
    const bob = await rn.tenant()
    const app = createInvoiceApp({ apiUrl: rn.baseUrl, apiKey: alice.apiKey, webhookSecret: 'x' })
    const invoice = await app.createInvoice({ amount: '1', currency: 'FAU-sepolia', payee })
    const res = await fetch(`${rn.baseUrl}/v2/request/${invoice.requestId}`, { headers: bob.headers })
    expect(res.status).toBe(404)
  })

  it('runs the app against a scenario: the seeded payer cannot afford the seeded invoice', async () => {
    const tenant = await rn.tenant({ scenario: 'insufficient-funds' })
    const { ids } = await tenant.scenario()
    const app = createInvoiceApp({ apiUrl: rn.baseUrl, apiKey: tenant.apiKey, webhookSecret: 'x' })
    const calldata = await app.paymentCalldata(ids.requestId!, ids.payer!)
    expect(calldata.metadata.hasEnoughBalance).toBe(false)
    await tenant.faucet(ids.payer!, 'FAU-sepolia', '250')
    expect((await app.paymentCalldata(ids.requestId!, ids.payer!)).metadata.hasEnoughBalance).toBe(true)
  })
})
