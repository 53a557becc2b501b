// A shared demo attacked after issue 29's fixes (docs/shared-demo.md): cheap anonymous calls that cost the shared
// chain a lot. Each case failed on the code before its fix.
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { MAX_RPC_CALL_GAS, MAX_RPC_EXECUTIONS } from '../../src/control/rpc-cost.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { toTronAddress } from '../../src/tron/index.ts'
import { freshAddress } from '../support/chain.ts'
import type { Loose } from '../support/loose.ts'
import { waitFor } from '../support/wait.ts'

let server: RunningServer

beforeAll(async () => {
  // a shared listener in strict mode (as HOST=0.0.0.0 --api-keys), on loopback so nothing leaves the machine
  server = await startServer({
    port: 0,
    exposed: true,
    apiKeys: ['team-key'],
    networks: ['sepolia', 'tron'],
    log: () => {},
  })
}, 60_000)

afterAll(async () => {
  await server?.close()
})

/** An anonymous /rpc call (no key, as any stranger), from this machine or the address a local proxy names. */
async function rpc(body: unknown, from?: string): Promise<{ status: number; body: Loose; ms: number }> {
  const started = Date.now()
  const res = await fetch(`${server.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(from ? { 'x-forwarded-for': from } : {}) },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text) as Loose, ms: Date.now() - started }
}

// JUMPDEST PUSH1 0 JUMP: creation code that loops until the call's gas runs out
const LOOP = '0x5b600056'
const call = (id: number, params: unknown[]) => ({ jsonrpc: '2.0', id, method: 'eth_call', params })

describe('/rpc: what one anonymous request may make the chain execute', () => {
  it('refuses a call asking for more gas than the block gas limit, in the call or its block overrides', async () => {
    const asks = [
      { method: 'eth_call', params: [{ data: LOOP, gas: '0x3b9aca00' }, 'latest'], path: 'params[0].gas' },
      { method: 'eth_estimateGas', params: [{ data: LOOP, gas: '0x3b9aca00' }], path: 'params[0].gas' },
      { method: 'eth_createAccessList', params: [{ data: LOOP, gas: 1e9 }], path: 'params[0].gas' },
      {
        method: 'eth_call',
        params: [{ data: LOOP }, 'latest', null, { gasLimit: '0x3b9aca00' }],
        path: 'params[3].gasLimit',
      },
    ]
    for (const { method, params, path } of asks) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method, params })
      // before: 200 after anvil ran the loop for about 1e9 gas (1.2 to 2.7 s each on a 2-core machine)
      expect(res.status, method).toBe(400)
      expect(res.body.statusCode).toBe(400)
      expect(res.body.message).toContain(path)
      expect(res.body.message).toContain(String(MAX_RPC_CALL_GAS))
    }
  })

  it('refuses a batch executing more calls than the bound, and serves one within it', async () => {
    const tooMany = Array.from({ length: MAX_RPC_EXECUTIONS + 1 }, (_, i) =>
      call(i, [{ data: LOOP }, 'latest']),
    )
    const refused = await rpc(tooMany)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain(`at most ${MAX_RPC_EXECUTIONS}`)

    // what wallets send still passes: calls within the gas limit, a batch of reads of any length
    const within = await rpc([
      call(1, [{ data: LOOP, gas: `0x${MAX_RPC_CALL_GAS.toString(16)}` }, 'latest']),
      ...Array.from({ length: 50 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 2,
        method: 'eth_blockNumber',
        params: [],
      })),
    ])
    expect(within.status).toBe(200)
    expect(within.body).toHaveLength(51)
    expect(within.body[0].error.message).toMatch(/OutOfGas/i)
    expect(within.body[1].result).toMatch(/^0x/)
  }, 30_000)
})

describe('/rpc: requests executing code run one at a time per client address on a shared listener', () => {
  it('answers 429 naming --rpc-executing to a second one under way from the same address, then serves it', async () => {
    const heavy = Array.from({ length: MAX_RPC_EXECUTIONS }, (_, i) => call(i, [{ data: LOOP }, 'latest']))
    // before: all six ran at once, each holding anvil for ten 30,000,000-gas loops (another key's faucet mint
    // waited 5 s instead of 30 ms under ten such connections)
    const answers = await Promise.all(Array.from({ length: 6 }, () => rpc(heavy)))
    const refused = answers.filter((r) => r.status === 429)
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1)
    expect(refused.length).toBeGreaterThanOrEqual(4)
    expect(refused[0]!.body.message).toContain('--rpc-executing')
    // reads execute nothing: never held back
    const reads = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        rpc({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber', params: [] }),
      ),
    )
    expect(reads.map((r) => r.status)).toEqual(Array(6).fill(200))
    // the place is given back when the answer is made
    expect((await rpc(heavy)).status).toBe(200)
  }, 60_000)
})

describe("/rpc: a stranger's transactions cannot price everyone out", () => {
  it("keeps the base fee where it is however many full blocks a stranger's transactions fill", async () => {
    const info = (await (await fetch(`${server.url}/__sandbox/chain`)).json()) as Loose
    // one of anvil's published accounts: anyone holds its key
    const stranger = privateKeyToAccount(info.accounts[9].privateKey)
    const head = async () =>
      (await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] })).body
        .result
    let nonce = Number(
      (
        await rpc({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getTransactionCount',
          params: [stranger.address, 'latest'],
        })
      ).body.result,
    )
    for (let i = 0; i < 120; i++) {
      const fee = BigInt((await head()).baseFeePerGas)
      const raw = await stranger.signTransaction({
        chainId: info.chainId,
        nonce: nonce++,
        data: LOOP,
        gas: 30_000_000n,
        maxFeePerGas: fee * 2n,
        maxPriorityFeePerGas: 0n,
      })
      const sent = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })
      expect(sent.body.error, JSON.stringify(sent.body)).toBeUndefined()
    }
    const last = await head()
    // every block full: the stranger paid for all of it
    expect(BigInt(last.gasUsed)).toBe(30_000_000n)
    // before: 0.77 gwei became 1,405 gwei after 120 such blocks, on its way to fees no payer's faucet ETH pays; on a shared
    // listener it is 0 for good, and gas costs its priority fee as before
    expect(BigInt(last.baseFeePerGas)).toBe(0n)
    const price = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_gasPrice', params: [] })
    expect(BigInt(price.body.result)).toBeGreaterThan(0n)
  }, 120_000)
})

describe("/rpc: a stranger's transactions are mined now, never parked", () => {
  it("refuses a transaction whose nonce is ahead of its sender's, which anvil would keep forever", async () => {
    const info = (await (await fetch(`${server.url}/__sandbox/chain`)).json()) as Loose
    const stranger = privateKeyToAccount(info.accounts[8].privateKey)
    const next = Number(
      (
        await rpc({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getTransactionCount',
          params: [stranger.address, 'pending'],
        })
      ).body.result,
    )
    const sign = (nonce: number) =>
      stranger.signTransaction({
        chainId: info.chainId,
        nonce,
        to: '0x000000000000000000000000000000000000dEaD',
        data: `0x${'ab'.repeat(40_000)}`,
        gas: 5_000_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 0n,
      })
    const send = async (nonce: number) =>
      rpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [await sign(nonce)] })
    // before: accepted, and held in anvil's pool (300 of them: 40 MB more, for good)
    const parked = await send(next + 1000)
    expect(parked.status, JSON.stringify(parked.body)).toBe(400)
    expect(parked.body.message).toContain(`more than 16 ahead of ${stranger.address}'s next nonce (${next})`)
    // the sender's next nonce, and the one after it, are sent as before
    const sent = await send(next)
    expect(sent.body.error, JSON.stringify(sent.body)).toBeUndefined()
    expect((await send(next + 1)).body.result).toMatch(/^0x/)
  }, 60_000)
})

describe("the Tron node's constant calls are bounded like /rpc's", () => {
  it('answers 429 to a second constant call under way from the same address', async () => {
    const tronRpc = async (method: string, params: unknown[]) => {
      const res = await fetch(`${server.url}/rpc/tron`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      return ((await res.json()) as Loose).result
    }
    const info = (await (await fetch(`${server.url}/__sandbox/chain`)).json()) as Loose
    const stranger = privateKeyToAccount(info.accounts[7].privateKey)
    // a contract whose code loops until its gas runs out, deployed with one of anvil's public accounts
    const raw = await stranger.signTransaction({
      chainId: Number(await tronRpc('eth_chainId', [])),
      nonce: Number(await tronRpc('eth_getTransactionCount', [stranger.address, 'pending'])),
      data: '0x635b6000566000526004601cf3',
      gas: 200_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 0n,
    })
    const hash = await tronRpc('eth_sendRawTransaction', [raw])
    const receipt = await waitFor(
      async () => (await tronRpc('eth_getTransactionReceipt', [hash])) ?? undefined,
    )
    const body = JSON.stringify({
      owner_address: toTronAddress(stranger.address),
      contract_address: toTronAddress(receipt.contractAddress),
      function_selector: 'spin()',
      visible: true,
    })
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await fetch(`${server.url}/tron/wallet/triggerconstantcontract`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        return { status: res.status, body: (await res.json()) as Loose }
      }),
    )
    // before: all six ran at once, each a loop of 30,000,000 gas on anvil (40 at once took 5.7 s, another key's
    // faucet mint 1.3 s instead of 40 ms)
    const refused = answers.filter((a) => a.status === 429)
    expect(refused.length).toBeGreaterThanOrEqual(4)
    expect(refused[0]!.body.message).toContain('--rpc-executing')
    expect(answers.some((a) => a.status === 200)).toBe(true)
  }, 60_000)
})

describe('/rpc: what one address may put on the shared chain', () => {
  it('answers 429 naming --rpc-tx-kb past 256 KB of transactions a minute from one address', async () => {
    const info = (await (await fetch(`${server.url}/__sandbox/chain`)).json()) as Loose
    const stranger = privateKeyToAccount(info.accounts[5].privateKey)
    const from = '198.51.100.9'
    let nonce = Number(
      (
        await rpc(
          { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: [stranger.address, 'pending'] },
          from,
        )
      ).body.result,
    )
    const send = async (address: string) => {
      const raw = await stranger.signTransaction({
        chainId: info.chainId,
        nonce,
        to: '0x000000000000000000000000000000000000dEaD',
        data: `0x${'ab'.repeat(60_000)}`,
        gas: 2_000_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 0n,
      })
      const answer = await rpc(
        { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] },
        address,
      )
      if (answer.status === 200 && !answer.body.error) nonce++
      return answer
    }
    // every mined block stays in anvil's memory: before, 200 such transactions grew it by 54 MB in 16 s
    for (let i = 0; i < 4; i++) {
      const sent = await send(from)
      expect(sent.body.error, JSON.stringify(sent.body)).toBeUndefined()
    }
    const refused = await send(from)
    expect(refused.status).toBe(429)
    expect(refused.body.message).toContain('--rpc-tx-kb')
    // another address is served
    expect((await send('198.51.100.10')).body.result).toMatch(/^0x/)
  }, 60_000)
})

describe("the page's test wallet (public behind a link's token)", () => {
  /** A call as `apiKey`, or as a stranger (null). */
  async function call(method: string, path: string, apiKey: string | null, body?: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(apiKey ? { 'x-api-key': apiKey } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    return { status: res.status, body: JSON.parse(text) as Loose, text }
  }

  it('pays a link once, however many strangers send its payment at the same time', async () => {
    const payee = freshAddress()
    const created = await call('POST', '/v2/secure-payments', 'team-key', {
      requests: [{ payee, currency: 'FAU-sepolia', amount: '3' }],
    })
    expect(created.status, created.text).toBe(201)
    const token = created.body.token as string
    const wallet = (await call('GET', `/__sandbox/secure-payments/${token}/chain`, null)).body.testWallet
    const pay = await call('GET', `/v2/secure-payments/${token}/pay?wallet=${wallet}`, 'team-key')
    expect(pay.status, pay.text).toBe(200)
    const [approval, payment] = pay.body.transactions as unknown[]
    const send = (transaction: unknown) =>
      call('POST', `/__sandbox/secure-payments/${token}/test-wallet/send`, null, { transaction })
    const approvals = await Promise.all(Array.from({ length: 5 }, () => send(approval)))
    expect(approvals.filter((r) => r.status === 201)).toHaveLength(1)
    const payments = await Promise.all(Array.from({ length: 10 }, () => send(payment)))
    // before: ten 201s, the payee got 30 FAU for a link of 3 (the deployer minting each refill)
    expect(payments.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)])
    expect(payments.find((r) => r.status === 409)!.body.message).toMatch(/already sent/)
    const chain = server.sandbox.chain!
    expect(await chain.balanceOf(chain.tokens['FAU-sepolia']!, payee)).toBe(3n * 10n ** 18n)
    expect((await send(payment)).status).toBe(409)
  }, 60_000)
})

describe('the portal login checks a bounded number of passwords per client address', () => {
  let portal: RunningServer
  beforeAll(async () => {
    portal = await startServer({
      port: 0,
      exposed: true,
      apiKeys: ['team-key'],
      portal: true,
      signupsPerMinute: 2,
      chain: false,
      log: () => {},
    })
  }, 60_000)
  afterAll(async () => {
    await portal?.close()
  })

  const login = async (from: string) => {
    const res = await fetch(`${portal.url}/v1/auth/login`, {
      method: 'POST',
      // a proxy on this machine says who the client is
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({ email: 'owner@example.com', password: 'not-the-password' }),
    })
    return { status: res.status, body: (await res.json()) as Loose }
  }

  it('answers 429 naming --signup-rate past three times it a minute, before any hashing, and serves other addresses', async () => {
    // before: every attempt hashed (about 50 ms of CPU each; 400 of them took 19 CPU seconds) and none was refused
    for (let i = 0; i < 6; i++) expect((await login('203.0.113.7')).status).toBe(400)
    const started = Date.now()
    const refused = await login('203.0.113.7')
    expect(refused.status).toBe(429)
    expect(refused.body.message).toContain('--signup-rate')
    expect(Date.now() - started).toBeLessThan(1000)
    // another address is served; the addresses of one IPv6 /64 count as one
    expect((await login('198.51.100.4')).status).toBe(400)
    for (let i = 1; i <= 6; i++) expect((await login(`2001:db8:1:2::${i}`)).status).toBe(400)
    expect((await login('2001:db8:1:2::ff')).status).toBe(429)
  })
})

describe('the OpenAPI document costs an anonymous caller, not the server', () => {
  it('writes the document once: ten anonymous YAML reads take little CPU, and say the same as the JSON', async () => {
    const read = async (file: string) => {
      const res = await fetch(`${server.url}/${file}`, {
        headers: { 'x-forwarded-host': 'demo.example.com' },
      })
      expect(res.status).toBe(200)
      return res.text()
    }
    await read('openapi.yaml')
    const before = process.cpuUsage()
    for (let i = 0; i < 10; i++) await read('openapi.yaml')
    const used = process.cpuUsage(before)
    // before: about 200 ms of CPU per call (the YAML written anew each time), 2 s for these ten
    expect((used.user + used.system) / 1000).toBeLessThan(500)
    const json = JSON.parse(await read('openapi.json'))
    expect(parseYaml(await read('openapi.yaml'))).toEqual(json)
    expect(json.servers).toEqual([{ url: expect.stringMatching(/^http/), description: 'this sandbox' }])
  }, 30_000)
})
