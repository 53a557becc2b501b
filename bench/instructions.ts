// `npm run bench -- instructions`: the instructions the main thread spends on one call, the floor's and the sandbox's,
// counted by valgrind's callgrind, which counts the same work the same whatever else the machine does (the throughput
// ratios of this shared 2-core machine swing 0.26-0.48 between rounds of one run). Counted: what runs because bytes
// arrived on a connection (node:http's parser callback, the pipeline, and the microtasks they queue) and the check
// phase (`setImmediate`, where the sandbox writes the answers of a turn together, and the terminal log writes a batch
// a turn filled); not the kernel, not timers (the chain's watchers, the log's timed write), not V8's helper threads.
// Each server starts under callgrind with instrumentation off, warms up on 6,000 calls of a kind, settles on 3,000
// with it on, then `N` calls (BENCH_INSTRUCTION_CALLS, 3,000) on 8 keep-alive connections are counted: GET
// /v1/currencies, then POST /v2/request. The sandbox's count moves from run to run (110k-146k for a GET): which code
// V8 has optimised by then, and its per-millisecond caches (the journal's ISO time) missing more when callgrind runs
// it 50 times slower. The floor's holds within 0.1 %. BENCH_BEFORE=<checkout> counts that tree's command too. Needs
// valgrind (Debian: apt-get install valgrind).
import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load } from './load.ts'
import { freePort, startChild, startOptionsOf } from './processes.ts'

const root = new URL('..', import.meta.url).pathname
const COUNTED = Number(process.env.BENCH_INSTRUCTION_CALLS ?? 3000)
const WARM_UP = 6000
const SETTLE = 3000
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
/** BENCH_INSTRUCTION_ONLY=GET or POST: that call alone */
const counted = CALLS.filter(
  (call) => !process.env.BENCH_INSTRUCTION_ONLY || call.method === process.env.BENCH_INSTRUCTION_ONLY,
)

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
      // only what runs because bytes arrived on a connection: parsing and the pipeline, with the microtasks they
      // queue, and the check phase, where the sandbox writes its answers (src/transports/node-http.ts, in batches
      // after the I/O phase) and the terminal log a full batch; not timers (the chain's watchers, the log's timed
      // write) nor V8's helper threads
      '--toggle-collect=*Parser::OnStreamRead*',
      '--toggle-collect=*Environment::CheckImmediate*',
      `--log-file=${join(dir, 'valgrind.log')}`,
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
      'node',
      // a sandbox under npm start's Node options, as users run it (the floor's script has none)
      ...(script.endsWith('bin/request-sandbox.mjs') ? startOptionsOf(script) : []),
      script,
      ...extra,
      String(port),
    ],
    {},
    log,
  )
  // the child holds its own copy of the descriptor
  closeSync(log)
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(server.child.pid)], { stdio: 'ignore' })
  const base = `http://127.0.0.1:${port}`
  try {
    await until200(`${base}${health}`, 300_000)
    const out: number[] = []
    for (const call of counted) {
      await calls(base, call, WARM_UP)
      // valgrind translates all code again when instrumentation starts: those calls are left out
      control('-i', 'on')
      await calls(base, call, SETTLE)
      control('-z')
      await calls(base, call, COUNTED)
      control('-d')
      control('-i', 'off')
      const dump = readdirSync(dir)
        .filter((name) => /^callgrind\.out\.\d+$/.test(name))
        .sort((a, b) => Number(b.split('.').pop()) - Number(a.split('.').pop()))[0]
      const totals = /^totals: (\d+)/m.exec(readFileSync(join(dir, dump!), 'utf8'))
      out.push(Number(totals?.[1] ?? Number.NaN) / COUNTED)
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
    `Instructions per call (valgrind callgrind: what runs because bytes arrived on a connection, the main thread's, ${COUNTED} calls counted after ${WARM_UP + SETTLE}; the sandbox as \`npm start\` runs it; the machine's load does not move it, the sandbox's moves between runs)`,
  )
  for (const [c, call] of counted.entries()) {
    console.log(call.name)
    for (const [s, side] of sides.entries()) {
      const ratio = s === 0 ? '' : `   ${(figures[s]![c]! / figures[0]![c]!).toFixed(2)}x the floor's`
      console.log(`  ${side.name.padEnd(32)} ${thousands(figures[s]![c]!).padStart(7)}${ratio}`)
    }
  }
}
