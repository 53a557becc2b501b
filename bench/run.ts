// `npm run bench`: throughput against a bare node:http baseline, cold start, memory. Prints figures; no thresholds fail.
// `npm run bench -- soak`: the 90 s memory soak (bench/soak.ts); `npm run bench -- fuzz`: the long fuzz (bench/fuzz.ts);
// `npm run bench -- throughput`: the throughput turns alone (BENCH_BEFORE=<checkout>: another tree in the same turns);
// `npm run bench -- state`: --state-dir at scale (bench/state.ts).
import { formatChainRestart, measureChainRestart } from './chain-restart.ts'
import { fuzz } from './fuzz.ts'
import { load } from './load.ts'
import { formatPaymentLatency, measurePaymentLatency } from './payment-latency.ts'
import { cpuMs, freePort, startChild, startDefaultSandbox, treeRss, waitFor200 } from './processes.ts'
import { formatRecurringCatchUp, measureRecurringCatchUp } from './recurring-catch-up.ts'
import { soak } from './soak.ts'
import { formatStartup, measureStartup } from './startup.ts'
import { measureState } from './state.ts'
import { formatTerminalLogCost, measureTerminalLogCost } from './terminal-log.ts'

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
const json = { 'content-type': 'application/json', 'x-api-key': 'bench' }

interface Figure {
  rps: number
  errors: number
  completed: number
  /** the server's CPU time per answered request, µs */
  cpuUs: number
}

async function runOne(base: string, pid: number, method: 'GET' | 'POST', path: string): Promise<Figure> {
  const before = cpuMs(pid)
  const r = await load({
    url: `${base}${path}`,
    method,
    headers: json,
    concurrency,
    durationMs,
    ...(method === 'POST' ? { body } : {}),
  })
  return {
    rps: r.rps,
    errors: r.errors,
    completed: r.completed,
    cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, r.completed),
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * Throughput of the sandbox against the bare server, both running, measured in turns (bare read, sandbox read,
 * bare create, sandbox create) for `rounds` rounds: a busy moment of the machine hits both sides of a ratio
 * alike, and the median ratio is printed with its range.
 */
async function throughput(bare: { base: string; pid: number }, sandboxes: { base: string; pid: number }[]) {
  for (const side of [bare, ...sandboxes]) {
    await load({
      url: `${side.base}/v1/currencies`,
      method: 'GET',
      headers: json,
      concurrency,
      durationMs: 500,
    })
    await load({
      url: `${side.base}/v2/request`,
      method: 'POST',
      body,
      headers: json,
      concurrency,
      durationMs: 500,
    })
  }
  const turns = { read: [] as Figure[][], create: [] as Figure[][] }
  for (let round = 0; round < rounds; round++) {
    for (const [name, method, path] of [
      ['read', 'GET', '/v1/currencies'],
      ['create', 'POST', '/v2/request'],
    ] as const) {
      const row = [await runOne(bare.base, bare.pid, method, path)]
      for (const sandbox of sandboxes) row.push(await runOne(sandbox.base, sandbox.pid, method, path))
      turns[name].push(row)
    }
  }
  return turns
}

function throughputRow(name: string, turns: Figure[][], target: number, column = 1): string {
  const ratios = turns.map((row) => row[column]!.rps / row[0]!.rps)
  const sandboxRps = median(turns.map((row) => row[column]!.rps))
  const bareRps = median(turns.map(([b]) => b!.rps))
  return [
    `${name.padEnd(22)} sandbox ${sandboxRps.toFixed(0).padStart(6)} req/s   bare ${bareRps.toFixed(0).padStart(6)} req/s`,
    `ratio ${median(ratios).toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; target >= ${target}x)`,
    `CPU per request: sandbox ${median(turns.map((row) => row[column]!.cpuUs)).toFixed(0)} µs, bare ${median(turns.map(([b]) => b!.cpuUs)).toFixed(0)} µs`,
  ].join('   ')
}

/** Resident memory of a fresh sandbox process and its anvil after exactly `count` created requests. */
async function memoryAfter(count: number): Promise<number> {
  const port = await freePort()
  const sandbox = startChild('node', [`${root}bin/request-sandbox.mjs`, '--port', String(port), '--quiet'])
  await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`)
  const headers = { ...json, 'x-api-key': 'bench-memory' }
  for (let done = 0; done < count; done += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - done) }, () =>
        fetch(`http://127.0.0.1:${port}/v2/request`, { method: 'POST', headers, body }).then(async (r) => {
          await r.arrayBuffer()
          // the figure is "after `count` created requests": a refused create would make it a lie
          if (r.status !== 201) throw new Error(`POST /v2/request answered ${r.status} during the memory run`)
        }),
      ),
    )
  }
  const rss = treeRss(sandbox.child.pid!) / 1024 / 1024
  await sandbox.stop()
  return rss
}

/**
 * The throughput turns. With BENCH_BEFORE=<another checkout> (its dependencies installed), that tree's command
 * runs too, in the same turns and the same configuration, and its figures are printed as "before".
 */
async function measureThroughput() {
  const barePort = await freePort()
  const bare = startChild('node', [`${root}bench/bare-server.mjs`, String(barePort)])
  await new Promise((r) => bare.child.stdout!.once('data', r))
  const trees = [root, ...(process.env.BENCH_BEFORE ? [`${process.env.BENCH_BEFORE}/`] : [])]
  const sandboxes = []
  for (const tree of trees) {
    const port = await freePort()
    // the default configuration: the terminal log on, written to a file as under Docker or `> sandbox.log`
    const sandbox = startDefaultSandbox(`${tree}bin/request-sandbox.mjs`, ['--port', String(port)])
    await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`, 60_000)
    sandboxes.push({ ...sandbox, base: `http://127.0.0.1:${port}`, pid: sandbox.child.pid! })
  }
  const turns = await throughput({ base: `http://127.0.0.1:${barePort}`, pid: bare.child.pid! }, sandboxes)
  await bare.stop()
  const logLines: number[] = []
  for (const sandbox of sandboxes) logLines.push((await sandbox.stop()).logLines)
  console.log(
    `Request Sandbox benchmark (${rounds} rounds of ${durationMs} ms a side, ${concurrency} keep-alive connections from a raw-socket client (bench/load.ts); the sandbox as \`npm start\` runs it: embedded chain, terminal log on (text), written to a file; medians)`,
  )
  trees.forEach((tree, i) => {
    const column = i + 1
    if (trees.length > 1) console.log(i === 0 ? `after (${tree}):` : `before (${tree}):`)
    console.log(throughputRow('GET /v1/currencies', turns.read, 0.85, column))
    console.log(throughputRow('POST /v2/request', turns.create, 0.5, column))
    const answered = [...turns.read, ...turns.create].reduce((n, row) => n + row[column]!.completed, 0)
    console.log(
      `terminal log: ${logLines[i]} lines written for ${answered} measured calls (plus warm-up and banner)`,
    )
    const errors = [...turns.read, ...turns.create].reduce((n, row) => n + row[column]!.errors, 0)
    if (errors) console.log(`errors during the sandbox runs: ${errors} (left out of req/s)`)
  })
  const bareErrors = [...turns.read, ...turns.create].reduce((n, row) => n + row[0]!.errors, 0)
  if (bareErrors) console.log(`errors during the bare server's runs: ${bareErrors} (left out of req/s)`)
  return turns
}

async function main() {
  await measureThroughput()
  const rssMb = await memoryAfter(10_000)

  const startup = await measureStartup()
  console.log(formatStartup(startup))
  console.log(
    `resident memory, sandbox + anvil, after 10000 created requests: ${rssMb.toFixed(0)} MB (target < 250 MB)`,
  )
  console.log(formatPaymentLatency(await measurePaymentLatency({ runs: 30 })))
  console.log(formatRecurringCatchUp(await measureRecurringCatchUp(10)))
  console.log(formatTerminalLogCost(await measureTerminalLogCost()))
  for (const line of formatChainRestart(await measureChainRestart(5))) console.log(line)
  await measureState()
}

const only = process.argv[2]
const run =
  only === 'throughput'
    ? () => measureThroughput().then(() => {})
    : only === 'soak'
      ? () => soak().then(() => {})
      : only === 'fuzz'
        ? async () => {
            if (await fuzz()) process.exitCode = 1
          }
        : only === 'state'
          ? measureState
          : main
run().catch((error) => {
  console.error(error)
  process.exit(1)
})
