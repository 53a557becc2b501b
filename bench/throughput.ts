// `npm run bench -- throughput`: the sandbox's throughput against two node:http baselines in the same turns: the
// floor (bench/floor-server.mjs, a precomputed constant answer) and the bare twin (bench/bare-server.mjs, which
// serialises and parses per call as a plain JSON API does). BENCH_BEFORE=<checkout> runs that tree's command too.
import { availableParallelism, loadavg } from 'node:os'
import { load } from './load.ts'
import {
  cpuMs,
  freePort,
  listeningUrl,
  startChild,
  startDefaultSandbox,
  startOptionsOf,
  waitFor200,
} from './processes.ts'

const root = new URL('..', import.meta.url).pathname
const durationMs = Number(process.env.BENCH_MS ?? 2000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const concurrency = 32
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
})
// each round's calls go to a key of its own: a key holds at most 250,000 requests (then 507), which 5 rounds of creates
// at 20,000 a second on one key would near
const json = (round: number | 'warm') => ({
  'content-type': 'application/json',
  'x-api-key': `bench-${round}`,
})
const CALLS = [
  { name: 'GET /v1/currencies', method: 'GET', path: '/v1/currencies', target: 0.85 },
  { name: 'POST /v2/request', method: 'POST', path: '/v2/request', target: 0.5 },
] as const

interface Figure {
  rps: number
  errors: number
  completed: number
  /** the server's CPU time per answered request, µs */
  cpuUs: number
}

interface Side {
  name: string
  base: string
  pid: number
}

async function runOne(
  side: Side,
  method: 'GET' | 'POST',
  path: string,
  round: number | 'warm',
  ms = durationMs,
): Promise<Figure> {
  const before = cpuMs(side.pid)
  const r = await load({
    url: `${side.base}${path}`,
    method,
    headers: json(round),
    concurrency,
    durationMs: ms,
    ...(method === 'POST' ? { body } : {}),
  })
  return { ...r, cpuUs: ((cpuMs(side.pid) - before) * 1000) / Math.max(1, r.completed) }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const load1 = () => loadavg()[0]!.toFixed(2)

/**
 * Each call measured in turns, every side once per round (the floor, the twin, then each sandbox), for `rounds`
 * rounds: a busy moment of the machine hits the sides of a ratio alike, and ratios are taken within a round.
 * Returns figures[call][round][side].
 */
async function turns(sides: Side[]): Promise<Figure[][][]> {
  for (const side of sides) for (const call of CALLS) await runOne(side, call.method, call.path, 'warm', 500)
  const figures: Figure[][][] = CALLS.map(() => [])
  for (let round = 0; round < rounds; round++) {
    for (const [i, call] of CALLS.entries()) {
      const row: Figure[] = []
      for (const side of sides) row.push(await runOne(side, call.method, call.path, round))
      figures[i]!.push(row)
    }
  }
  return figures
}

function ratio(rows: Figure[][], side: number, base: number, target?: number): string {
  const ratios = rows.map((row) => row[side]!.rps / row[base]!.rps)
  return `${median(ratios).toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}${target ? `; target >= ${target}x` : ''})`
}

function sideFigures(rows: Figure[][], side: number): string {
  const rps = median(rows.map((row) => row[side]!.rps))
  const cpu = median(rows.map((row) => row[side]!.cpuUs))
  return `${rps.toFixed(0).padStart(6)} req/s, CPU ${cpu.toFixed(0).padStart(3)} µs/request`
}

/** Starts the baselines and the sandbox command of each tree (default flags), measures, prints, stops them all. */
export async function measureThroughput(): Promise<Figure[][][]> {
  const baselines: { name: string; script: string }[] = [
    { name: 'floor (constant answer)', script: 'floor-server.mjs' },
    { name: 'bare twin (serialises, parses)', script: 'bare-server.mjs' },
  ]
  const sides: Side[] = []
  const stops: (() => Promise<unknown>)[] = []
  const trees = [
    root,
    ...(process.env.BENCH_BEFORE ? [`${process.env.BENCH_BEFORE.replace(/\/$/, '')}/`] : []),
  ]
  const logLines: number[] = []
  const loadBefore = load1()
  try {
    for (const baseline of baselines) {
      const port = await freePort()
      const server = startChild('node', [`${root}bench/${baseline.script}`, String(port)])
      stops.push(server.stop)
      await new Promise((r) => server.child.stdout!.once('data', r))
      sides.push({ name: baseline.name, base: `http://127.0.0.1:${port}`, pid: server.child.pid! })
    }
    for (const [i, tree] of trees.entries()) {
      // the default configuration: the terminal log on, written to a file as under Docker or `> sandbox.log`
      const sandbox = startDefaultSandbox(`${tree}bin/request-sandbox.mjs`, ['--port', '0'])
      stops.push(async () => {
        logLines[i] = (await sandbox.stop()).logLines
      })
      const url = await listeningUrl(sandbox.logFile, sandbox.child, 60_000)
      await waitFor200(`${url}/__sandbox/health`, 60_000)
      const name =
        trees.length > 1 ? (i === 0 ? 'sandbox (this tree)' : `sandbox before (${tree})`) : 'sandbox'
      sides.push({ name, base: url, pid: sandbox.child.pid! })
    }
    const figures = await turns(sides)
    for (const stop of stops.splice(0)) await stop()
    console.log(
      `Throughput (${rounds} rounds of ${durationMs} ms a side, ${concurrency} keep-alive connections from a raw-socket client (bench/load.ts), a key a round; each side its own process; the sandbox as \`npm start\` runs it (\`node ${startOptionsOf(`${root}bin/request-sandbox.mjs`).join(' ')} bin/request-sandbox.mjs\`): embedded chain, terminal log on (text), written to a file; medians; load average ${loadBefore} before, ${load1()} after, ${availableParallelism()} cores)`,
    )
    for (const [c, call] of CALLS.entries()) {
      const rows = figures[c]!
      console.log(call.name)
      for (const [s, side] of sides.entries()) {
        const vs =
          s < baselines.length
            ? ''
            : `   vs floor ${ratio(rows, s, 0, call.target)}   vs twin ${ratio(rows, s, 1)}`
        console.log(`  ${side.name.padEnd(32)} ${sideFigures(rows, s)}${vs}`)
      }
    }
    for (const i of trees.keys()) {
      const s = baselines.length + i
      const answered = figures.flat().reduce((n, row) => n + row[s]!.completed, 0)
      console.log(
        `terminal log of ${sides[s]!.name}: ${logLines[i]} lines written for ${answered} measured calls (plus warm-up and banner)`,
      )
    }
    for (const [s, side] of sides.entries()) {
      const errors = figures.flat().reduce((n, row) => n + row[s]!.errors, 0)
      if (errors) console.log(`errors during the runs of ${side.name}: ${errors} (left out of req/s)`)
    }
    return figures
  } finally {
    for (const stop of stops) await stop()
  }
}
