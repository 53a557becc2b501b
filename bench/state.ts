// `npm run bench -- state`: --state-dir at scale, against the in-memory sandbox in the same run (both the default
// configuration, embedded anvil included, the terminal log on and written to a file, as under Docker): create throughput and p99 filling 100,000 requests over 100 keys (in
// alternating chunks), the idle sandbox's CPU, the state dir's size, kill -9 and restart to health 200 with every
// request back, GET /v2/request, GET /v2/payments and /__sandbox/state for a key of 1,000 requests and one of
// 50,000, and the long kill run (2,000 acknowledged objects over 10 keys, 5 kills: none lost).
// `BENCH_ROOT=<checkout>` measures another tree's command (a checkout of main: the figures before).
// Sizes: BENCH_STATE_REQUESTS (100000), BENCH_STATE_BIG (50000), BENCH_KILL_OBJECTS (2000).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { killHard, killRun, type ServerProcess, stopServer, untilHealthy } from '../test/support/kill-run.ts'
import { cpuMs, listeningUrl, startDefaultSandbox } from './processes.ts'

const root = process.env.BENCH_ROOT
const tree = root ? `${root.replace(/\/$/, '')}/` : new URL('../', import.meta.url).pathname
const logFiles: string[] = []

/**
 * The sandbox as users run it: the default flags (the terminal log on, not --quiet), its output written to a file as
 * under Docker or `> sandbox.log`; resolves once it listens.
 */
async function startAsUsersRun(args: string[]): Promise<ServerProcess> {
  const started = startDefaultSandbox(`${tree}bin/request-sandbox.mjs`, ['--port', '0', ...args])
  logFiles.push(started.logFile)
  const server = { child: started.child, url: '' }
  try {
    server.url = await listeningUrl(started.logFile, started.child, 60_000)
    return server
  } catch (error) {
    // not handed to the caller: stopped here, its anvil with it
    await killHard(server)
    throw error
  }
}
const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee,
})
const concurrency = 32

/** Sends `n` creates spread over `keys` (in turn), `concurrency` at once; rps and p99 latency. */
export async function creates(
  url: string,
  keys: string[],
  n: number,
): Promise<{ rps: number; p99: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const { hostname, port } = new URL(url)
  const latencies: number[] = []
  let next = 0
  let errors = 0
  const one = (key: string) =>
    new Promise<void>((resolve) => {
      const started = performance.now()
      const req = request(
        {
          agent,
          host: hostname,
          port,
          path: '/v2/request',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
        },
        (res) => {
          res.resume()
          res.on('end', () => {
            if (res.statusCode !== 201) errors++
            latencies.push(performance.now() - started)
            resolve()
          })
        },
      )
      req.on('error', () => {
        errors++
        resolve()
      })
      req.end(body)
    })
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await one(keys[next++ % keys.length]!)
    }),
  )
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return {
    rps: n / ((performance.now() - started) / 1000),
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    errors,
  }
}

export async function get(
  url: string,
  key: string,
  path: string,
): Promise<{ status: number; ms: number; body: unknown }> {
  const started = performance.now()
  const res = await fetch(`${url}${path}`, { headers: { 'x-api-key': key } })
  const text = await res.text()
  return { status: res.status, ms: performance.now() - started, body: text ? JSON.parse(text) : null }
}

/**
 * Median ms of `runs` GETs of one path for each of two keys, the two alternating (a busy moment of the shared
 * machine hits both alike; sub-millisecond answers, so many runs).
 */
async function timedPair(
  url: string,
  keys: [string, string],
  path: string,
  runs = 200,
): Promise<[number, number]> {
  for (const key of keys) await get(url, key, path)
  const times: [number[], number[]] = [[], []]
  for (let i = 0; i < runs; i++)
    for (const [k, key] of keys.entries()) times[k]!.push((await get(url, key, path)).ms)
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return [median(times[0]), median(times[1])]
}

/** The sandbox process's pid (bin/request-sandbox.mjs runs the command in its own process). */
const pidOf = (server: ServerProcess) => server.child.pid!

/** Requests of each key restored (GET /v2/request's total for the payee). */
export async function totals(url: string, keys: string[]): Promise<number> {
  let sum = 0
  for (const key of keys) {
    const r = await get(url, key, `/v2/request?walletAddress=${payee}&limit=1`)
    sum += (r.body as { pagination?: { total: number } }).pagination?.total ?? 0
  }
  return sum
}

/** The state figures, printed as they come. */
export async function measureState(): Promise<void> {
  const total = Number(process.env.BENCH_STATE_REQUESTS ?? 100_000)
  const big = Number(process.env.BENCH_STATE_BIG ?? 50_000)
  const killObjects = Number(process.env.BENCH_KILL_OBJECTS ?? 2000)
  const keys = Array.from({ length: 100 }, (_, i) => `bench-state-${i}`)
  const dir = mkdtempSync(join(tmpdir(), 'bench-state-'))
  const killDir = mkdtempSync(join(tmpdir(), 'bench-kill-'))
  let memory: ServerProcess | undefined
  let durable: ServerProcess | undefined
  try {
    console.log(
      `state dir bench${root ? ` (command of ${root})` : ''}: both sandboxes as users run them (default flags: the terminal log on, written to a file)`,
    )
    memory = await startAsUsersRun([])
    durable = await startAsUsersRun(['--state-dir', dir])
    await Promise.all([untilHealthy(memory.url), untilHealthy(durable.url)])
    await creates(memory.url, ['warm'], 1000)
    await creates(durable.url, ['warm'], 1000)
    // alternating chunks: a busy moment of the machine hits both sides alike
    const chunk = 10_000
    const figures = {
      memory: [] as { rps: number; p99: number }[],
      durable: [] as { rps: number; p99: number }[],
    }
    let errors = 0
    for (let done = 0; done < total; done += chunk) {
      const m = await creates(memory.url, keys, Math.min(chunk, total - done))
      const d = await creates(durable.url, keys, Math.min(chunk, total - done))
      figures.memory.push(m)
      figures.durable.push(d)
      errors += m.errors + d.errors
      console.log(
        `  ${done + chunk}: in memory ${m.rps.toFixed(0)} req/s p99 ${m.p99.toFixed(0)} ms, --state-dir ${d.rps.toFixed(0)} req/s p99 ${d.p99.toFixed(0)} ms`,
      )
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    const [mRps, dRps] = [mean(figures.memory.map((f) => f.rps)), mean(figures.durable.map((f) => f.rps))]
    const [mP99, dP99] = [
      Math.max(...figures.memory.map((f) => f.p99)),
      Math.max(...figures.durable.map((f) => f.p99)),
    ]
    console.log(
      `create, ${total} requests over ${keys.length} keys, concurrency ${concurrency}: in memory ${mRps.toFixed(0)} req/s (worst chunk p99 ${mP99.toFixed(0)} ms), --state-dir ${dRps.toFixed(0)} req/s (p99 ${dP99.toFixed(0)} ms): ${(dRps / mRps).toFixed(2)}x (target >= 0.8x); ${errors} errors`,
    )
    console.log(
      `  per chunk of ${chunk}: --state-dir ${figures.durable.map((f) => f.rps.toFixed(0)).join(', ')} req/s; in memory ${figures.memory.map((f) => f.rps.toFixed(0)).join(', ')}`,
    )
    await new Promise((r) => setTimeout(r, 3000))
    const idle = async (server: ServerProcess) => {
      const before = cpuMs(pidOf(server))
      await new Promise((r) => setTimeout(r, 10_000))
      return ((cpuMs(pidOf(server)) - before) / 10_000) * 100
    }
    const [mIdle, dIdle] = await Promise.all([idle(memory), idle(durable)])
    console.log(
      `idle CPU over 10 s with ${total} requests: in memory ${mIdle.toFixed(1)} %, --state-dir ${dIdle.toFixed(1)} % of a core (target < 5 %)`,
    )
    const size = Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0])
    console.log(`size on disk: ${(size / 1024 / 1024).toFixed(1)} MB (${dir})`)
    await stopServer(memory)
    memory = undefined
    // kill -9, then restart to health 200 with every request back
    await killHard(durable)
    const spawned = performance.now()
    durable = await startAsUsersRun(['--state-dir', dir])
    await untilHealthy(durable.url)
    const restartMs = performance.now() - spawned
    // worlds come back after the start (a key's at once on its first call): every key read once, every request there
    const restored = await totals(durable.url, keys)
    const readMs = performance.now() - spawned
    console.log(
      `kill -9 and restart to health 200: ${restartMs.toFixed(0)} ms (target < 3 s); requests back: ${restored} of ${total}, every key read once by ${readMs.toFixed(0)} ms`,
    )
    // lists of one key as it grows: 1,000 requests (each of the fill's keys) and `big`
    const small = keys[0]!
    await creates(durable.url, ['bench-big'], big)
    const lists = [
      ['GET /v2/request', `/v2/request?walletAddress=${payee}&limit=20`],
      ['GET /v2/payments', `/v2/payments?walletAddress=${payee}`],
      ['GET /__sandbox/state', '/__sandbox/state'],
    ] as const
    for (const [name, path] of lists) {
      const [a, b] = await timedPair(durable.url, [small, 'bench-big'], path)
      console.log(
        `${name}: ${a.toFixed(2)} ms at ${total / keys.length} requests of a key, ${b.toFixed(2)} ms at ${big}: ${(b / a).toFixed(2)}x (target <= 2x)`,
      )
    }
    await stopServer(durable)
    durable = undefined
    // the long kill run: bursts over 10 keys, SIGKILL in each, count what came back
    const result = await killRun({
      dir: killDir,
      keys: 10,
      objects: killObjects,
      kills: 5,
      ...(root ? { root } : {}),
      log: (line) => console.log(`  ${line}`),
    })
    console.log(
      `kill run: ${result.acknowledged} objects and ${result.statuses} status changes acknowledged over 10 keys, ${result.kills} kills: ${result.lost.length} lost (target 0); restarts ${result.restartMs.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    )
    for (const line of result.lost.slice(0, 5)) console.log(`  lost: ${line}`)
  } finally {
    await stopServer(memory)
    await stopServer(durable)
    rmSync(dir, { recursive: true, force: true })
    rmSync(killDir, { recursive: true, force: true })
    for (const file of logFiles) rmSync(dirname(file), { recursive: true, force: true })
  }
}
