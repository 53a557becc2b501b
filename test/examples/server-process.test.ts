// Example: the same app against the sandbox server running as a separate process, as in CI or a container:
// `request-sandbox --port 0` with WEBHOOK_URL / WEBHOOK_SECRET, the URL read from its first line of output,
// payments sent to its /rpc, and the process stopped by its pid.
import { createWalletClient, type Hex, http, parseEventLogs, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import { type CliSandbox, startCliSandbox } from '../support/cli-sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { createInvoiceApp, serveWebhook } from './invoice-app/app.ts'

const secret = 'a'.repeat(64)
let sandbox: CliSandbox | undefined
let sandboxUrl: string
let hook: Awaited<ReturnType<typeof serveWebhook>>
let app: ReturnType<typeof createInvoiceApp>

beforeAll(async () => {
  hook = await serveWebhook((request) => app.handleWebhook(request))
  sandbox = await startCliSandbox(['--seed', '3', '--scenarios', 'test/fixtures/user-scenarios'], {
    WEBHOOK_URL: hook.url,
    WEBHOOK_SECRET: secret,
  })
  sandboxUrl = sandbox.url
  app = createInvoiceApp({ apiUrl: sandboxUrl, apiKey: 'example-app-key', webhookSecret: secret })
})

afterAll(async () => {
  await sandbox?.stop()
  hook?.server.close()
})

describe('an invoicing app against the sandbox server in another process', () => {
  it('creates an invoice and pays it on chain through the server /rpc', async () => {
    const chainInfo = (await (await fetch(`${sandboxUrl}/__sandbox/chain`)).json()) as {
      rpcUrl: string
      accounts: { address: Hex; privateKey: Hex }[]
      contracts: Record<string, Hex>
    }
    expect(chainInfo.rpcUrl).toBe(`${sandboxUrl}/rpc`)
    const account = privateKeyToAccount(chainInfo.accounts[5]!.privateKey)
    const wallet = createWalletClient({ account, transport: http(chainInfo.rpcUrl) }).extend(publicActions)
    const invoice = await app.createInvoice({
      amount: '12.5',
      currency: 'USDC-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    const calldata = await app.paymentCalldata(invoice.requestId, account.address)
    const receipts = []
    for (const tx of calldata.transactions as { to: Hex; data: Hex; value: { hex: Hex } }[]) {
      const hash = await wallet.sendTransaction({
        chain: null,
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value.hex),
      })
      receipts.push(await wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 }))
    }
    expect(receipts.every((r) => r.status === 'success')).toBe(true)
    const [log] = parseEventLogs({
      abi: erc20FeeProxyAbi,
      logs: receipts.at(-1)!.logs,
      eventName: 'TransferWithReferenceAndFee',
    })
    expect(log!.address.toLowerCase()).toBe(chainInfo.contracts.ERC20FeeProxy!.toLowerCase())
    expect(log!.args.amount).toBe(12_500_000n)
  })

  it('delivers a signed test webhook to the WEBHOOK_URL the server was started with', async () => {
    const res = await fetch(`${sandboxUrl}/v2/webhook/test`, {
      method: 'POST',
      headers: { 'x-api-key': 'example-app-key', 'content-type': 'application/json' },
      body: JSON.stringify({ eventType: 'payment.confirmed' }),
    })
    expect(res.status).toBe(201)
    // Other events (the payment above, once the chain detector sees it) reach the same URL: find the test send.
    const isTest = (h: Headers) => h.get('x-request-network-test') === 'true'
    await waitFor(() => (hook.received.some(isTest) ? true : undefined), { what: 'the test delivery' })
    expect(hook.received.some(isTest)).toBe(true)
    expect(app.rejected).toEqual([])
    // The attempt is journaled once the receiver's answer is in: read the journal until it shows.
    type Attempt = { status: number; outcome: string; test: boolean }
    const entry = await waitFor(
      async () => {
        const journal = await fetch(`${sandboxUrl}/__sandbox/journal?type=delivery`, {
          headers: { 'x-api-key': 'example-app-key' },
        })
        const { entries } = (await journal.json()) as { entries: Attempt[] }
        return entries.find((e) => e.test)
      },
      { what: 'the journaled test delivery' },
    )
    expect(entry).toMatchObject({ status: 200, outcome: 'delivered' })
  })

  it('loads the scenarios of --scenarios <dir>, and puts every key in --scenario', async () => {
    const listed = await fetch(`${sandboxUrl}/__sandbox/scenarios`, { headers: { 'x-api-key': 'k' } })
    const names = ((await listed.json()) as { scenarios: { name: string }[] }).scenarios.map((s) => s.name)
    expect(names).toEqual(expect.arrayContaining(['team-invoices', 'json-invoices', 'insufficient-funds']))
    const limited = await startCliSandbox(['--seed', '3', '--no-chain', '--scenario', 'rate-limited'])
    try {
      const statuses = []
      for (let i = 0; i < 3; i++) {
        statuses.push((await fetch(`${limited.url}/v1/currencies`, { headers: { 'x-api-key': 'k' } })).status)
      }
      expect(statuses).toEqual([200, 200, 429])
    } finally {
      await limited.stop()
    }
  })

  it('switches the app key to a scenario over HTTP and sees its seeded state', async () => {
    const headers = { 'x-api-key': 'scenario-key', 'content-type': 'application/json' }
    const put = await fetch(`${sandboxUrl}/__sandbox/scenario`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ scenario: 'insufficient-funds' }),
    })
    const { ids } = (await put.json()) as { ids: Record<string, string> }
    const scoped = createInvoiceApp({ apiUrl: sandboxUrl, apiKey: 'scenario-key', webhookSecret: secret })
    const calldata = await scoped.paymentCalldata(ids.requestId!, ids.payer!)
    expect(calldata.metadata.hasEnoughBalance).toBe(false)
  })
})
