// Issue 29, findings 1 and 8: the sandbox's own accounts are secret per deployment (a stranger who reads the source
// cannot sign as its deployer, relayer or operator through /rpc), kept in --state-dir across restarts and served
// nowhere; the Secure Payment Page's test wallet is each key's own and refilled before use; the escrow's operator
// cannot take more of a hold than the fee the payer authorized; on a shared listener the faucet only adds (no key
// empties a wallet another relies on) and its per-key limit survives a reset and a snapshot restore.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, createWalletClient, encodeFunctionData, type Hex, http, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bannerLines } from '../../src/banner.ts'
import { COMMERCE_ESCROW_ADDRESS, commerceEscrowAbi } from '../../src/chain/index.ts'
import { KEYS_FILE } from '../../src/sandbox/keys.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { execute, freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

/** The role keys earlier versions used: keccak256('request-sandbox:<role>'), computable from the source. */
const published = (role: string) => privateKeyToAccount(keccak256(toHex(`request-sandbox:${role}`)))

let server: RunningServer
const opened: Sandbox[] = []
const dirs: string[] = []

beforeAll(async () => {
  // a shared listener (as HOST=0.0.0.0) with its chain
  server = await startServer({ port: 0, exposed: true, log: () => {} })
}, 60_000)

afterAll(async () => {
  await server?.close()
  await Promise.all(opened.map((s) => s.close()))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function call(
  method: string,
  path: string,
  options: { apiKey?: string | null; body?: unknown } = {},
): Promise<{ status: number; body: Loose; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  })
  const text = await res.text()
  let body: Loose = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, body, text }
}

const rpc = (method: string, params: unknown[]) =>
  call('POST', '/rpc', { body: { jsonrpc: '2.0', id: 1, method, params } })

const nativeOf = async (address: Address) =>
  BigInt((await rpc('eth_getBalance', [address, 'latest'])).body.result)

describe('the sandbox signs with secret keys', () => {
  it("lets no stranger sign as the deployer, relayer or operator through /rpc with the source's keys", async () => {
    const chain = server.sandbox.chain!
    const thief = freshAddress()
    const rolesBefore = await Promise.all(Object.values(chain.roles).map((r) => nativeOf(r.address)))
    for (const role of ['deployer', 'relayer', 'operator']) {
      const account = published(role)
      // not one of the sandbox's accounts any more, and nothing to take
      expect(Object.values(chain.roles).map((r) => r.address)).not.toContain(account.address)
      const nonce = Number((await rpc('eth_getTransactionCount', [account.address, 'latest'])).body.result)
      const raw = await account.signTransaction({
        chainId: chain.chainId,
        nonce,
        to: thief,
        value: 10n ** 18n,
        gas: 21_000n,
        gasPrice: 2_000_000_000n,
      })
      const sent = await rpc('eth_sendRawTransaction', [raw])
      expect(sent.body.error, `${role}: ${sent.text}`).toBeDefined()
      // nor can it mint the faucet's tokens (the tokens answer to the secret deployer)
      const mint = await rpc('eth_call', [
        {
          from: account.address,
          to: chain.tokens['FAU-sepolia'],
          data: encodeFunctionData({
            abi: [
              {
                type: 'function',
                name: 'mint',
                inputs: [
                  { name: 'to', type: 'address' },
                  { name: 'amount', type: 'uint256' },
                ],
                outputs: [],
                stateMutability: 'nonpayable',
              },
            ],
            functionName: 'mint',
            args: [thief, 10n ** 18n],
          }),
        },
        'latest',
      ])
      expect(mint.body.error, `${role} minted: ${mint.text}`).toBeDefined()
    }
    expect(await nativeOf(thief)).toBe(0n)
    expect(await Promise.all(Object.values(chain.roles).map((r) => nativeOf(r.address)))).toEqual(rolesBefore)
    // the faucet (the deployer's mints) still answers every key
    const minted = await call('POST', '/__sandbox/faucet', {
      apiKey: newApiKey(),
      body: { address: thief, currency: 'FAU-sepolia', amount: '1' },
    })
    expect(minted.status, minted.text).toBe(200)
  })

  it('serves no private key of its own accounts: not in any answer, page or banner', async () => {
    const chain = server.sandbox.chain!
    const apiKey = newApiKey()
    const link = await call('POST', '/v2/secure-payments', {
      apiKey,
      body: { requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount: '1' }] },
    })
    expect(link.status, link.text).toBe(201)
    const testWallet = (await call('GET', `/__sandbox/secure-payments/${link.body.token}/chain`)).body
      .testWallet as Address
    const own = chain.derivedAccount(`test-wallet:${apiKey}`)
    expect(own.address).toBe(testWallet)
    const secrets = [...Object.values(chain.roles), own].map((a) => a.privateKey.slice(2).toLowerCase())
    const answers = await Promise.all(
      [
        '/__sandbox/chain',
        '/__sandbox/health',
        '/',
        '/docs',
        '/openapi.json',
        `/__sandbox/secure-payments/${link.body.token}/chain`,
        `/__sandbox/secure-payment?token=${link.body.token}`,
      ].map((path) => call('GET', path, { apiKey })),
    )
    const lines = bannerLines(server, { readyMs: 0 }).join('\n')
    for (const text of [...answers.map((a) => a.text), lines])
      for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret)
    // what /__sandbox/chain names of the roles is their addresses
    const info = answers[0]!.body
    expect(info.roles.operator).toBe(chain.roles.operator.address)
  })

  it('makes new role keys for each sandbox, and keeps them in --state-dir (mode 0600) across a restart', async () => {
    const first = await createSandbox({ log: () => {} })
    opened.push(first)
    const second = await createSandbox({ log: () => {} })
    opened.push(second)
    const roles = (s: Sandbox) => Object.values(s.chain!.roles).map((r) => r.address)
    expect(roles(first)).not.toEqual(roles(second))
    for (const role of ['deployer', 'relayer', 'operator'])
      expect(roles(first)).not.toContain(published(role).address)

    const dir = mkdtempSync(join(tmpdir(), 'sandbox-keys-'))
    dirs.push(dir)
    const before = await createSandbox({ log: () => {}, stateDir: dir })
    const kept = roles(before)
    expect(kept).not.toEqual(roles(first))
    expect(statSync(join(dir, KEYS_FILE)).mode & 0o777).toBe(0o600)
    const wallet = freshAddress()
    await before.control.faucet({ address: wallet, currency: 'FAU-sepolia', amount: '2' })
    await before.close()
    const after = await createSandbox({ log: () => {}, stateDir: dir })
    opened.push(after)
    expect(roles(after)).toEqual(kept)
    // the restored chain's tokens still answer to that deployer: the faucet mints on top of what it minted
    const minted = await after.control.faucet({ address: wallet, currency: 'FAU-sepolia', amount: '3' })
    expect(minted.balance).toBe('5')
  }, 120_000)
})

describe("the page's test wallet is each key's own", () => {
  it('gives each key its own secret test wallet, refilled before it pays', async () => {
    const chain = server.sandbox.chain!
    const link = async (apiKey: string) => {
      const payee = freshAddress()
      const created = await call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee, currency: 'FAU-sepolia', amount: '3' }] },
      })
      expect(created.status, created.text).toBe(201)
      const token = created.body.token as string
      const wallet = (await call('GET', `/__sandbox/secure-payments/${token}/chain`)).body
        .testWallet as Address
      return { apiKey, token, wallet, payee }
    }
    const a = await link(newApiKey())
    const b = await link(newApiKey())
    expect(a.wallet).not.toBe(b.wallet)
    // none of anvil's published accounts: nobody else holds its key
    expect(chain.accounts.map((x) => x.address)).not.toContain(a.wallet)
    // emptied meanwhile (an admin on the chain): the wallet is refilled before it sends
    await chain.testClient.setBalance({ address: a.wallet, value: 0n })
    // the page pays with what /pay answers for that wallet (read with the link owner's key): approval, payment
    const calldata = await call('GET', `/v2/secure-payments/${a.token}/pay?wallet=${a.wallet}`, {
      apiKey: a.apiKey,
    })
    expect(calldata.status, calldata.text).toBe(200)
    for (const transaction of calldata.body.transactions) {
      const sent = await call('POST', `/__sandbox/secure-payments/${a.token}/test-wallet/send`, {
        body: { transaction },
      })
      expect(sent.status, sent.text).toBe(201)
    }
    expect(await nativeOf(a.wallet)).toBeGreaterThan(0n)
    expect(await chain.balanceOf(chain.tokens['FAU-sepolia']!, a.payee)).toBe(3n * 10n ** 18n)
  }, 60_000)
})

describe("the escrow's operator keeps to the payer's fee", () => {
  it("cannot capture a tenant's hold at a higher fee or to another receiver, even signing as the operator", async () => {
    const sandbox = server.sandbox
    const chain = sandbox.chain!
    const apiKey = newApiKey()
    const created = await call('POST', '/v2/commerce-payments/authorize/calldata', {
      apiKey,
      body: {
        amount: '10',
        paymentCurrency: 'FAU-sepolia',
        payer: chain.accounts[1]!.address,
        payee: freshAddress(),
      },
    })
    expect(created.status, created.text).toBe(200)
    await execute(sandbox, created.body.transactions, 1)
    const reference = created.body.paymentReference as Hex
    const thief = freshAddress()
    const operator = createWalletClient({
      account: privateKeyToAccount(chain.roles.operator.privateKey),
      chain: chain.publicClient.chain,
      transport: http(chain.rpcUrl),
    })
    // the reported attack: the whole hold at 10,000 bps to the thief
    await expect(
      operator.writeContract({
        address: COMMERCE_ESCROW_ADDRESS,
        abi: commerceEscrowAbi,
        functionName: 'capturePayment',
        args: [reference, 10n ** 19n, 10_000, thief],
        chain: null,
      } as never),
    ).rejects.toThrow(/FeeAboveAuthorized|reverted/)
    expect(await chain.balanceOf(chain.tokens['FAU-sepolia']!, thief)).toBe(0n)
    const status = await call('GET', `/v2/commerce-payments/${created.body.requestId}/status`, { apiKey })
    expect(status.body).toMatchObject({ status: 'authorized', capturableAmount: '10' })
    // the API refuses it too, before the chain
    const api = await call('POST', `/v2/commerce-payments/${created.body.requestId}/capture`, {
      apiKey,
      body: { feeBps: 10_000, feeReceiver: thief },
    })
    expect(api.status).toBe(400)
    expect(api.body.message).toMatch(/maxFeeBps/)
  }, 60_000)
})

describe('the faucet on a shared listener', () => {
  it("cannot empty another key's wallet (it only adds), nor set the sandbox's own accounts", async () => {
    const chain = server.sandbox.chain!
    const keyA = newApiKey()
    const keyB = newApiKey()
    const wallet = freshAddress()
    const eth = 'ETH-sepolia-sepolia'
    const funded = await call('POST', '/__sandbox/faucet', {
      apiKey: keyB,
      body: { address: wallet, currency: eth, amount: '5' },
    })
    expect(funded.status, funded.text).toBe(200)
    const zeroed = await call('POST', '/__sandbox/faucet', {
      apiKey: keyA,
      body: { address: wallet, currency: eth, amount: '0' },
    })
    expect(zeroed.status).toBe(400)
    expect(zeroed.body.message).toMatch(/only adds/)
    expect(await nativeOf(wallet)).toBe(5n * 10n ** 18n)
    // adding is what it does: up to the amount asked
    const raised = await call('POST', '/__sandbox/faucet', {
      apiKey: keyA,
      body: { address: wallet, currency: eth, amount: '7' },
    })
    expect([raised.status, raised.body.balance]).toEqual([200, '7'])
    // a key's test wallet and the roles are the sandbox's own: not the faucet's to set
    const link = await call('POST', '/v2/secure-payments', {
      apiKey: keyB,
      body: { requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount: '1' }] },
    })
    const testWallet = (await call('GET', `/__sandbox/secure-payments/${link.body.token}/chain`)).body
      .testWallet
    for (const address of [testWallet, chain.roles.deployer.address]) {
      const set = await call('POST', '/__sandbox/faucet', {
        apiKey: keyA,
        body: { address, currency: eth, amount: '0' },
      })
      expect(set.status).toBe(400)
      expect(set.body.message).toMatch(/sandbox's own accounts/)
    }
  })

  it('keeps its per-key limit across a reset and a snapshot restore', async () => {
    const apiKey = newApiKey()
    const body = { address: freshAddress(), currency: 'FAU-sepolia', amount: '1' }
    expect((await call('POST', '/__sandbox/snapshots', { apiKey, body: { name: 'before' } })).status).toBe(
      201,
    )
    for (let i = 0; i < 30; i++) {
      const res = await call('POST', '/__sandbox/faucet', { apiKey, body })
      expect(res.status, res.text).toBe(200)
    }
    expect((await call('POST', '/__sandbox/faucet', { apiKey, body })).status).toBe(429)
    expect((await call('POST', '/__sandbox/reset', { apiKey })).status).toBe(200)
    expect((await call('POST', '/__sandbox/faucet', { apiKey, body })).status).toBe(429)
    const restored = await call('POST', '/__sandbox/snapshots/before/restore', { apiKey })
    expect(restored.status, restored.text).toBe(200)
    expect((await call('POST', '/__sandbox/faucet', { apiKey, body })).status).toBe(429)
  }, 60_000)
})
