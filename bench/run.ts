// `npm run bench`: throughput against a bare node:http baseline, cold start, memory. Prints figures; no thresholds fail.
// `npm run bench -- soak`: the 90 s memory soak (bench/soak.ts); `npm run bench -- fuzz`: the long fuzz (bench/fuzz.ts).
import { formatChainRestart, measureChainRestart } from './chain-restart.ts'
import { fuzz } from './fuzz.ts'
import { load } from './load.ts'
import { formatPaymentLatency, measurePaymentLatency } from './payment-latency.ts'
import { freePort, startChild, treeRss, waitFor200 } from './processes.ts'
import { formatRecurringCatchUp, measureRecurringCatchUp } from './recurring-catch-up.ts'
import { soak } from './soak.ts'
import { formatStartup, measureStartup } from './startup.ts'
import { formatTerminalLogCost, measureTerminalLogCost } from './terminal-log.ts'

const root = new URL('..', import.meta.url).pathname
const durationMs = Number(process.env.BENCH_MS ?? 3000)
const concurrency = 32
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
})
const json = { 'content-type': 'application/json', 'x-api-key': 'bench' }

async function measure(base: string) {
  await load({ url: `${base}/v1/currencies`, method: 'GET', headers: json, concurrency, durationMs: 500 })
  const read = await load({
    url: `${base}/v1/currencies`,
    method: 'GET',
    headers: json,
    concurrency,
    durationMs,
  })
  const create = await load({
    url: `${base}/v2/request`,
    method: 'POST',
    body,
    headers: json,
    concurrency,
    durationMs,
  })
  return { read, create }
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
        fetch(`http://127.0.0.1:${port}/v2/request`, { method: 'POST', headers, body }).then((r) =>
          r.arrayBuffer(),
        ),
      ),
    )
  }
  const rss = treeRss(sandbox.child.pid!) / 1024 / 1024
  await sandbox.stop()
  return rss
}

async function main() {
  const barePort = await freePort()
  const bare = startChild('node', [`${root}bench/bare-server.mjs`, String(barePort)])
  await new Promise((r) => bare.child.stdout!.once('data', r))
  const bareFigures = await measure(`http://127.0.0.1:${barePort}`)
  await bare.stop()

  const port = await freePort()
  const sandbox = startChild('node', [`${root}bin/request-sandbox.mjs`, '--port', String(port), '--quiet'])
  await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`)
  const figures = await measure(`http://127.0.0.1:${port}`)

  await sandbox.stop()
  const rssMb = await memoryAfter(10_000)

  const startup = await measureStartup()
  const row = (name: string, s: { rps: number }, b: { rps: number }, target: number) =>
    `${name.padEnd(22)} sandbox ${s.rps.toFixed(0).padStart(6)} req/s   bare ${b.rps.toFixed(0).padStart(6)} req/s   ratio ${(s.rps / b.rps).toFixed(2)}x (target >= ${target}x)`
  console.log(`Request Sandbox benchmark (${durationMs} ms per run, ${concurrency} in flight, 2 processes)`)
  console.log(row('GET /v1/currencies', figures.read, bareFigures.read, 0.85))
  console.log(row('POST /v2/request', figures.create, bareFigures.create, 0.5))
  console.log(formatStartup(startup))
  console.log(
    `resident memory, sandbox + anvil, after 10000 created requests: ${rssMb.toFixed(0)} MB (target < 250 MB)`,
  )
  console.log(formatPaymentLatency(await measurePaymentLatency({ runs: 30 })))
  console.log(formatRecurringCatchUp(await measureRecurringCatchUp(10)))
  console.log(formatTerminalLogCost(await measureTerminalLogCost()))
  for (const line of formatChainRestart(await measureChainRestart(5))) console.log(line)
  const errors = figures.read.errors + figures.create.errors
  if (errors) console.log(`errors during the sandbox runs: ${errors}`)
}

const only = process.argv[2]
const run =
  only === 'soak'
    ? () => soak().then(() => {})
    : only === 'fuzz'
      ? async () => {
          if (await fuzz()) process.exitCode = 1
        }
      : main
run().catch((error) => {
  console.error(error)
  process.exit(1)
})
