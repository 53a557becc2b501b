// `npm run bench -- capacity`: what one process holds and serves. 10,000 keys with 50 created requests each (500,000
// calls), once in memory and once with --state-dir (each the default configuration: embedded anvil, the terminal log
// on, written to a file): create throughput while filling, resident memory (sandbox and anvil), the idle CPU, the
// p99 of a read of a key last touched an hour of its sandbox time ago (the first keys filled, their clocks moved an
// hour on, then every other key filled: the least recently used, evicted to disk past --max-worlds with --state-dir),
// and with --state-dir a kill -9 and restart to health 200 with every key's 50 requests back, then every key read once,
// one after another (each read brings its world back from disk): ms per key read (median, p99) and the total.
// Sizes: BENCH_CAPACITY_KEYS (10000), BENCH_CAPACITY_PER_KEY (50), BENCH_CAPACITY_MAX_WORLDS (the sandbox's
// --max-worlds, 1000 when unset; the keys are filled in parts of at most that many). BENCH_CAPACITY_STATE_ONLY=1: the
// --state-dir run only. BENCH_ROOT=<checkout>: that tree's command.
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { killHard, type ServerProcess, stopServer, untilHealthy } from '../test/support/kill-run.ts'
import { cpuMs, listeningUrl, startDefaultSandbox, treeRss } from './processes.ts'
import { creates, get } from './state.ts'

const root = process.env.BENCH_ROOT
const tree = root ? `${root.replace(/\/$/, '')}/` : new URL('../', import.meta.url).pathname
const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'

async function start(args: string[], logFiles: string[]): Promise<ServerProcess> {
  const started = startDefaultSandbox(`${tree}bin/request-sandbox.mjs`, ['--port', '0', ...args])
  logFiles.push(started.logFile)
  const server = { child: started.child, url: '' }
  try {
    server.url = await listeningUrl(started.logFile, started.child, 60_000)
    await untilHealthy(server.url, 60_000)
    return server
  } catch (error) {
    // not handed to the caller: stopped here, its anvil with it
    await killHard(server)
    throw error
  }
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

interface Fill {
  rps: number
  p99: number
  errors: number
  rssMb: number
  idlePct: number
  coldP99: number
  coldMedian: number
}

/**
 * Fills one sandbox: the probe keys first, their clocks moved an hour on, then every other key; then measures memory,
 * idle CPU and one read of each probe key (least recently used of all).
 */
async function fill(
  server: ServerProcess,
  keys: string[],
  probes: string[],
  perKey: number,
  partSize: number,
): Promise<Fill> {
  let errors = 0
  let worstP99 = 0
  let fillMs = 0
  // `perKey` creates of each key of a part, the part's keys in turn
  const part = async (partKeys: string[]) => {
    const started = performance.now()
    const r = await creates(server.url, partKeys, partKeys.length * perKey)
    fillMs += performance.now() - started
    errors += r.errors
    worstP99 = Math.max(worstP99, r.p99)
  }
  await part(probes)
  for (const key of probes) {
    const res = await fetch(`${server.url}/__sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ seconds: 3600 }),
    })
    await res.arrayBuffer()
    if (res.status !== 200) errors++
  }
  const probeSet = new Set(probes)
  const rest = keys.filter((k) => !probeSet.has(k))
  for (let at = 0; at < rest.length; at += partSize) await part(rest.slice(at, at + partSize))
  const rssMb = treeRss(server.child.pid!) / 1024 / 1024
  await new Promise((r) => setTimeout(r, 3000))
  const before = cpuMs(server.child.pid!)
  await new Promise((r) => setTimeout(r, 10_000))
  const idlePct = ((cpuMs(server.child.pid!) - before) / 10_000) * 100
  const cold: number[] = []
  for (const key of probes) {
    const r = await get(server.url, key, `/v2/request?walletAddress=${payee}&limit=20`)
    if (r.status !== 200 || (r.body as { pagination?: { total: number } }).pagination?.total !== perKey)
      errors++
    cold.push(r.ms)
  }
  return {
    rps: (keys.length * perKey) / (fillMs / 1000),
    p99: worstP99,
    errors,
    rssMb,
    idlePct,
    coldP99: pct(cold, 0.99),
    coldMedian: pct(cold, 0.5),
  }
}

/** Reads each key's requests once, one key after another: the requests back, and the ms of each read. */
async function readEach(url: string, keys: string[]): Promise<{ back: number; ms: number[] }> {
  let back = 0
  const ms: number[] = []
  for (const key of keys) {
    const r = await get(url, key, `/v2/request?walletAddress=${payee}&limit=1`)
    back += (r.body as { pagination?: { total: number } }).pagination?.total ?? 0
    ms.push(r.ms)
  }
  return { back, ms }
}

export async function measureCapacity(): Promise<void> {
  const keyCount = Number(process.env.BENCH_CAPACITY_KEYS ?? 10_000)
  const perKey = Number(process.env.BENCH_CAPACITY_PER_KEY ?? 50)
  const maxWorlds = process.env.BENCH_CAPACITY_MAX_WORLDS
  const worldArgs = maxWorlds ? ['--max-worlds', maxWorlds] : []
  const partSize = Math.min(1000, Number(maxWorlds ?? 1000))
  const stateOnly = process.env.BENCH_CAPACITY_STATE_ONLY === '1'
  const run = Date.now().toString(36)
  const keys = Array.from({ length: keyCount }, (_, i) => `cap-${run}-${i}`)
  const probes = keys.slice(0, Math.max(1, Math.min(200, Math.floor(keyCount / 50))))
  const dir = mkdtempSync(join(tmpdir(), 'bench-capacity-'))
  const logFiles: string[] = []
  let server: ServerProcess | undefined
  console.log(
    `capacity of one process${root ? ` (command of ${root})` : ''}: ${keyCount} keys x ${perKey} created requests (${keyCount * perKey} calls, 32 at once), ${maxWorlds ? `--max-worlds ${maxWorlds}` : 'default flags'}; load average ${loadavg()[0]!.toFixed(2)}`,
  )
  try {
    for (const [name, args] of [
      ['in memory', worldArgs],
      ['--state-dir', ['--state-dir', dir, ...worldArgs]],
    ] as const) {
      if (stateOnly && name === 'in memory') continue
      server = await start([...args], logFiles)
      const f = await fill(server, keys, probes, perKey, partSize)
      console.log(
        `  ${name}: ${f.rps.toFixed(0)} creates/s (worst part p99 ${f.p99.toFixed(0)} ms), resident ${f.rssMb.toFixed(0)} MB (sandbox + anvil), idle CPU ${f.idlePct.toFixed(1)} % of a core; read of a key last touched an hour of its time ago (${probes.length} keys, each once): p99 ${f.coldP99.toFixed(1)} ms, median ${f.coldMedian.toFixed(1)} ms; ${f.errors} errors`,
      )
      if (name === 'in memory') {
        await stopServer(server)
        server = undefined
        continue
      }
      await killHard(server)
      const spawned = performance.now()
      server = await start([...args], logFiles)
      const healthyMs = performance.now() - spawned
      const readsFrom = performance.now()
      const { back, ms } = await readEach(server.url, keys)
      const readsMs = performance.now() - readsFrom
      console.log(
        `  --state-dir kill -9 and restart: health 200 in ${healthyMs.toFixed(0)} ms; requests back ${back} of ${keyCount * perKey}; every key read once, one after another: ${(readsMs / 1000).toFixed(1)} s (median ${pct(ms, 0.5).toFixed(1)} ms, p99 ${pct(ms, 0.99).toFixed(1)} ms a key); load average ${loadavg()[0]!.toFixed(2)}`,
      )
      await stopServer(server)
      server = undefined
    }
  } finally {
    await stopServer(server)
    rmSync(dir, { recursive: true, force: true })
    for (const file of logFiles) rmSync(dirname(file), { recursive: true, force: true })
  }
}
