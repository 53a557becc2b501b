// The server's terminal output, read from the CLI run as a child process on port 0: the anvil-style banner (every
// funded account with its private key, the mnemonic, the dashboard and docs URLs), then one line per API call,
// per event, per payment the detector records and per webhook attempt, as text and as JSON; --quiet prints the
// first line only. Each process is stopped by its pid.
import { createWalletClient, type Hex, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startCliSandbox } from '../support/cli-sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

interface SandboxProcess {
  url: string
  /** everything printed on stdout so far */
  out(): string
  lines(): string[]
  /** resolves once a line matches `pattern` (10 s at most) */
  waitForLine(pattern: RegExp): Promise<string>
  stop(): Promise<void>
}

/** The CLI with its whole terminal log (`--quiet` only when `args` says so), stopped by its pid after the file. */
async function startCli(args: string[]): Promise<SandboxProcess> {
  const cli = await startCliSandbox(['--seed', '5', ...args], {}, { quiet: false })
  const lines = () => cli.stdout().split('\n').filter(Boolean)
  return {
    url: cli.url,
    out: cli.stdout,
    lines,
    stop: cli.stop,
    waitForLine: (pattern) =>
      waitFor(() => lines().find((l) => pattern.test(l)), {
        timeoutMs: 10_000,
        what: `a line matching ${pattern}`,
      }).catch((error: Error) => {
        throw new Error(`${error.message} in:\n${cli.stdout()}`)
      }),
  }
}

let text: SandboxProcess
let json: SandboxProcess
let quiet: SandboxProcess
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
  ;[text, json, quiet] = await Promise.all([
    startCli([]),
    startCli(['--log-format', 'json']),
    startCli(['--quiet', '--no-chain']),
  ])
}, 120_000)
afterAll(async () => {
  await Promise.all([text?.stop(), json?.stop(), quiet?.stop()])
  await receiver?.close()
})

/** Registers the receiver (its first answer a 500), creates a request and pays it on the sandbox's chain. */
async function exercise(sandbox: SandboxProcess, key: string) {
  const hook = await api(sandbox.url, key, 'POST', '/v2/webhook', { url: receiver.url })
  expect(hook.status).toBe(201)
  receiver.secret = hook.body.secret
  receiver.script.push(500)
  const created = await api(sandbox.url, key, 'POST', '/v2/request', {
    amount: '5',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
  })
  expect(created.status).toBe(201)
  const chain = (await api(sandbox.url, key, 'GET', '/__sandbox/chain')).body
  const account = privateKeyToAccount(chain.accounts[7].privateKey)
  const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) }).extend(publicActions)
  const pay = await api(
    sandbox.url,
    key,
    'GET',
    `/v2/request/${created.body.requestId}/pay?wallet=${account.address}`,
  )
  expect(pay.status).toBe(200)
  let txHash: Hex | undefined
  for (const tx of pay.body.transactions as { to: Hex; data: Hex; value: { hex: Hex } }[]) {
    txHash = await wallet.sendTransaction({
      chain: null,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value.hex),
    })
    await wallet.waitForTransactionReceipt({ hash: txHash, pollingInterval: 20 })
  }
  return {
    requestId: created.body.requestId as string,
    reference: created.body.paymentReference,
    txHash: txHash!,
  }
}

describe('the terminal log of the request-sandbox command', () => {
  it('prints a banner with every funded account, its private key, the mnemonic, the dashboard and the docs', () => {
    const out = text.out()
    expect(out.split('\n')[0]).toMatch(
      /^Request Sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(ready in \d+ ms\)$/,
    )
    expect(out).toContain(`dashboard: ${text.url}/`)
    expect(out).toContain(`docs:      ${text.url}/docs`)
    expect(out).toContain('Mnemonic:          test test test test test test test test test test test junk')
    expect(out).toContain('(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(out).toContain('(0) 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
    expect(out).toMatch(/\(9\) 0x[0-9a-fA-F]{40}\n/)
    expect(out).toMatch(/\(9\) 0x[0-9a-f]{64}\n/)
  })

  it('prints one text line per API call, event, chain payment and webhook attempt', async () => {
    const key = 'terminal-text-key'
    const { requestId, reference, txHash } = await exercise(text, key)
    const call = await text.waitForLine(/POST\s+\/v2\/request 201/)
    expect(call).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} POST   /v2/request 201 \\d+ ms  key ${key} scenario default$`,
      ),
    )
    await text.waitForLine(new RegExp(`GET    /v2/request/${requestId}/pay 200 \\d+ ms  key ${key}`))
    const paid = await text.waitForLine(/ paid /)
    expect(paid).toContain(`sepolia tx ${txHash}`)
    expect(paid).toContain(
      `reference ${reference} request ${requestId} 5 FAU-sepolia  key ${key} scenario default`,
    )
    expect(await text.waitForLine(/event {2}payment\.confirmed/)).toContain(
      `request ${requestId}  key ${key}`,
    )
    // the receiver answers 500 first: the attempt is logged, then the retry a second later
    const failed = await text.waitForLine(/hook {3}payment\.confirmed .* 500 retry 0 retrying/)
    expect(failed).toContain(`-> ${receiver.url} 500 retry 0 retrying  key ${key}`)
    expect(await text.waitForLine(/hook {3}payment\.confirmed .* 200 retry 1 delivered/)).toContain(
      receiver.url,
    )
    // the control API is not an API call: not logged
    expect(text.lines().some((l) => l.includes('/__sandbox/chain'))).toBe(false)
  })

  it('prints the banner and every line as JSON objects with --log-format json', async () => {
    const banner = JSON.parse(json.lines()[0]!)
    expect(banner).toMatchObject({
      type: 'ready',
      url: json.url,
      dashboard: `${json.url}/`,
      docs: `${json.url}/docs`,
      mnemonic: 'test test test test test test test test test test test junk',
    })
    expect(banner.accounts).toHaveLength(10)
    expect(banner.accounts[0]).toEqual({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    const key = 'terminal-json-key'
    const { requestId, reference, txHash } = await exercise(json, key)
    await json.waitForLine(/"type":"webhook".*"status":200/)
    const records = json.lines().map((l) => JSON.parse(l))
    expect(records.find((r) => r.type === 'call' && r.path === '/v2/request')).toMatchObject({
      method: 'POST',
      status: 201,
      ms: expect.any(Number),
      key,
      scenario: 'default',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    expect(records.find((r) => r.type === 'payment')).toMatchObject({
      network: 'sepolia',
      txHash,
      reference,
      requestId,
      key,
    })
    expect(records.find((r) => r.type === 'event' && r.event === 'payment.confirmed')).toMatchObject({
      requestId,
      key,
    })
    const attempts = records.filter((r) => r.type === 'webhook' && r.event === 'payment.confirmed')
    expect(attempts.map((a) => [a.url, a.status, a.retryCount, a.outcome])).toEqual([
      [receiver.url, 500, 0, 'retrying'],
      [receiver.url, 200, 1, 'delivered'],
    ])
  })

  it('prints only the first line with --quiet', async () => {
    expect((await api(quiet.url, 'quiet-key', 'GET', '/v2/currencies')).status).toBe(200)
    await new Promise((r) => setTimeout(r, 200))
    expect(quiet.lines()).toEqual([expect.stringMatching(/^Request Sandbox listening on /)])
  })
})
