// The chain keeps its payments: the real server with --state-dir; a request paid through its /rpc (receipt read
// through /rpc too), then at once anvil SIGKILLed (health answers 503 degraded from that moment until the chain is
// back), then another paid and the sandbox itself SIGKILLed and restarted: both payments are still on the chain
// (the payees' balances) and both requests still paid.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, createPublicClient, erc20Abi, type Hex, http } from 'viem'
import { sepolia } from 'viem/chains'
import { afterAll, expect, it } from 'vitest'
import { sendApiTransactions } from '../../src/chain/index.ts'
import { freshAddress, until } from '../support/chain.ts'
import {
  killHard,
  type ServerProcess,
  startServerProcess,
  stopServer,
  untilHealthy,
} from '../support/kill-run.ts'
import type { Loose } from '../support/loose.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-chain-kill-'))
let server: ServerProcess | undefined
afterAll(async () => {
  await stopServer(server)
  rmSync(dir, { recursive: true, force: true })
})

const apiKey = `chain-kill-${Date.now()}`
async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server!.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as Loose }
}

/** The anvil process under a sandbox process (its watchdog's child). */
function anvilPid(pid: number): number {
  const queue = [pid]
  while (queue.length) {
    const next = queue.shift()!
    for (const task of readdirSync(`/proc/${next}/task`)) {
      const children = readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').trim()
      for (const child of children ? children.split(/\s+/).map(Number) : []) {
        if (readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'anvil') return child
        queue.push(child)
      }
    }
  }
  throw new Error(`no anvil under pid ${pid}`)
}

/** Creates a request and pays it through the sandbox's /rpc; resolves once the receipt came back through /rpc. */
async function payThroughRpc(payee: Address) {
  const info = (await call('GET', '/__sandbox/chain')).body as {
    accounts: { privateKey: Hex }[]
    tokens: Record<string, Address>
  }
  const created = await call('POST', '/v2/request', {
    amount: '2',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    payee,
  })
  const pay = await call('GET', `/v2/request/${created.body.requestId}/pay`)
  const rpcUrl = `${server!.url}/rpc`
  const publicClient = createPublicClient({ chain: sepolia, transport: http(rpcUrl) })
  await sendApiTransactions(
    { rpcUrl, publicClient } as never,
    info.accounts[1]!.privateKey,
    pay.body.transactions,
    {
      rpcUrl,
      pollingInterval: 20,
    },
  )
  // read through the sandbox of the moment (a restarted one listens on another port)
  const balance = () =>
    createPublicClient({ chain: sepolia, transport: http(`${server!.url}/rpc`) }).readContract({
      address: info.tokens['FAU-sepolia']!,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [payee],
    })
  return { requestId: created.body.requestId as string, balance, paidBalance: await balance() }
}

it('keeps a payment whose receipt a client saw through kill -9 of anvil and of the sandbox', async () => {
  server = await startServerProcess(['--state-dir', dir])
  await untilHealthy(server.url)
  const first = await payThroughRpc(freshAddress())
  expect(first.paidBalance).toBeGreaterThan(0n)
  const anvil = anvilPid(server.child.pid!)
  process.kill(anvil, 'SIGKILL')
  // the moment it is down (a zombie its parent has not reaped yet, or gone): health says so at once
  await until(
    async () => {
      try {
        return readFileSync(`/proc/${anvil}/stat`, 'utf8').split(') ')[1]![0]
      } catch {
        return 'gone'
      }
    },
    (state) => state === 'Z' || state === 'X' || state === 'gone',
    { timeoutMs: 2000 },
  )
  const health = await fetch(`${server.url}/__sandbox/health`)
  expect(health.status).toBe(503)
  expect(await health.json()).toMatchObject({ status: 'degraded' })
  await untilHealthy(server.url)
  expect(await first.balance()).toBe(first.paidBalance)

  const second = await payThroughRpc(freshAddress())
  await killHard(server)
  server = await startServerProcess(['--state-dir', dir])
  await untilHealthy(server.url)
  expect(await second.balance()).toBe(second.paidBalance)
  expect(await first.balance()).toBe(first.paidBalance)
  for (const { requestId } of [first, second])
    await until(
      () => call('GET', `/v2/request/${requestId}`),
      (r) => r.body.hasBeenPaid === true && r.body.status === 'paid',
      { timeoutMs: 10_000 },
    )
}, 90_000)
