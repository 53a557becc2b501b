// `npm run bench -- instructions`: the user-space instructions one call costs, the floor's and the sandbox's,
// counted by valgrind's callgrind. A count does not move with the machine's load (the throughput ratios of this
// shared 2-core machine swing 0.26-0.48 between rounds of one run): it is the figure to optimise against, and the
// throughput turns remain the figure users see. Kernel work (the socket writes, about as much for both sides) is not
// counted. Each server runs under callgrind with instrumentation off while it starts and warms up, then on for a
// settling run, then counted over `N` calls of each kind (GET /v1/currencies, then POST /v2/request), 8 keep-alive
// connections. A sandbox's per-millisecond caches (the ISO time of its journal, the time column of its log) miss
// more under callgrind, which runs the server about 50 times slower: its count is an upper bound, by a few per cent.
// What runs on timers whether or not calls come (the chain's watchers) is counted idle for 5 s and taken out.
// BENCH_BEFORE=<checkout> counts that tree's command too. Needs valgrind (Debian: apt-get install valgrind).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load } from './load.ts'
import { freePort, startChild } from './processes.ts'

const root = new URL('..', import.meta.url).pathname
const COUNTED = Number(process.env.BENCH_INSTRUCTION_CALLS ?? 4000)
const WARM_UP = 6000
const SETTLE = 3000
const IDLE_MS = 5000
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
})
const CALLS = [
  { name: 'GET /v1/currencies', method: 'GET', path: '/v1/currencies' },
  { name: 'POST /v2/request', method: 'POST', path: '/v2/request' },
] as const

function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** `count` calls of one kind on 8 connections; throws unless every one answered 2xx. */
async function calls(base: string, call: (typeof CALLS)[number], count: number): Promise<void> {
  const r = await load({
    url: `${base}${call.path}`,
    method: call.method,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench-instructions' },
    concurrency: 8,
    durationMs: 30 * 60_000,
    requests: count,
    ...(call.method === 'POST' ? { body } : {}),
  })
  if (r.errors || r.completed !== count)
    throw new Error(`${call.name}: ${r.completed} of ${count} answered 2xx, ${r.errors} errors`)
}

async function until200(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 under valgrind in ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Instructions per call of each kind for one server started under callgrind. */
async function count(script: string, health: string, extra: string[] = []): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-callgrind-'))
  const port = await freePort()
  const log = openSync(join(dir, 'server.log'), 'w')
  const server = startChild(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--dump-instr=no',
      '--collect-jumps=no',
      `--log-file=${join(dir, 'valgrind.log')}`,
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
      'node',
      script,
      ...extra,
      String(port),
    ],
    {},
    log,
  )
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(server.child.pid)], { stdio: 'ignore' })
  const base = `http://127.0.0.1:${port}`
  try {
    await until200(`${base}${health}`, 300_000)
    /** the instructions counted since the last zeroing */
    const dumped = (): number => {
      control('-d')
      const dump = readdirSync(dir)
        .filter((name) => /^callgrind\.out\.\d+$/.test(name))
        .sort((a, b) => Number(b.split('.').pop()) - Number(a.split('.').pop()))[0]
      const totals = /^totals: (\d+)/m.exec(readFileSync(join(dir, dump!), 'utf8'))
      return Number(totals?.[1] ?? Number.NaN)
    }
    const out: number[] = []
    for (const call of CALLS) {
      await calls(base, call, WARM_UP)
      // valgrind translates all code again when instrumentation starts: those calls are left out
      control('-i', 'on')
      await calls(base, call, SETTLE)
      // what runs on timers (the chain's watchers, the log's flush) costs per second, not per call, and a call lasts
      // 50 times longer under callgrind: the idle rate is counted first and taken out of the calls' window
      control('-z')
      const idleStarted = performance.now()
      await new Promise((r) => setTimeout(r, IDLE_MS))
      const idlePerMs = dumped() / (performance.now() - idleStarted)
      control('-z')
      const started = performance.now()
      await calls(base, call, COUNTED)
      const window = dumped()
      out.push((window - idlePerMs * (performance.now() - started)) / COUNTED)
      control('-i', 'off')
    }
    return out
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const thousands = (n: number) => `${(n / 1000).toFixed(1)}k`

/** Counts the floor and the sandbox (and BENCH_BEFORE's), prints instructions per call and the sandbox/floor ratio. */
export async function measureInstructions(): Promise<void> {
  if (!hasValgrind()) {
    console.log('instructions per call: skipped (valgrind not found; Debian: apt-get install valgrind)')
    return
  }
  const sides = [
    { name: 'floor (constant answer)', script: `${root}bench/floor-server.mjs`, health: '/v1/currencies' },
    {
      name: process.env.BENCH_BEFORE ? 'sandbox (this tree)' : 'sandbox',
      script: `${root}bin/request-sandbox.mjs`,
      health: '/__sandbox/health',
      extra: ['--port'],
    },
    ...(process.env.BENCH_BEFORE
      ? [
          {
            name: `sandbox before (${process.env.BENCH_BEFORE})`,
            script: join(process.env.BENCH_BEFORE, 'bin/request-sandbox.mjs'),
            health: '/__sandbox/health',
            extra: ['--port'],
          },
        ]
      : []),
  ]
  const figures: number[][] = []
  for (const side of sides) figures.push(await count(side.script, side.health, side.extra))
  console.log(
    `Instructions per call (user space, valgrind callgrind, ${COUNTED} calls counted after ${WARM_UP + SETTLE}; the sandbox as \`npm start\` runs it; load-independent)`,
  )
  for (const [c, call] of CALLS.entries()) {
    console.log(call.name)
    for (const [s, side] of sides.entries()) {
      const ratio = s === 0 ? '' : `   ${(figures[s]![c]! / figures[0]![c]!).toFixed(2)}x the floor's`
      console.log(`  ${side.name.padEnd(32)} ${thousands(figures[s]![c]!).padStart(7)}${ratio}`)
    }
  }
}
