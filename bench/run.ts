// `npm run bench`: throughput against node:http baselines (bench/throughput.ts), cold start, memory. Prints figures; no thresholds fail.
// `npm run bench -- soak`: the 90 s memory soak (bench/soak.ts); `npm run bench -- fuzz`: the long fuzz (bench/fuzz.ts);
// `npm run bench -- throughput`: the throughput turns alone (BENCH_BEFORE=<checkout>: another tree in the same turns);
// `npm run bench -- state`: --state-dir at scale (bench/state.ts); `npm run bench -- capacity`: what one process holds
// and serves (bench/capacity.ts); `npm run bench -- instructions`: instructions per call under callgrind, the floor's
// and the sandbox's (bench/instructions.ts).
import { measureCapacity } from './capacity.ts'
import { formatChainRestart, measureChainRestart } from './chain-restart.ts'
import { fuzz } from './fuzz.ts'
import { measureInstructions } from './instructions.ts'
import { formatPaymentLatency, measurePaymentLatency } from './payment-latency.ts'
import { freePort, startChild, startOptionsOf, treeRss, waitFor200 } from './processes.ts'
import { formatRecurringCatchUp, measureRecurringCatchUp } from './recurring-catch-up.ts'
import { soak } from './soak.ts'
import { formatStartup, measureStartup } from './startup.ts'
import { measureState } from './state.ts'
import { formatTerminalLogCost, measureTerminalLogCost } from './terminal-log.ts'
import { measureThroughput } from './throughput.ts'

const root = new URL('..', import.meta.url).pathname
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
})
const json = { 'content-type': 'application/json', 'x-api-key': 'bench' }

/** Resident memory of a fresh sandbox process and its anvil after exactly `count` created requests. */
async function memoryAfter(count: number): Promise<number> {
  const port = await freePort()
  const bin = `${root}bin/request-sandbox.mjs`
  // npm start's Node options: the memory of the command users run
  const sandbox = startChild('node', [...startOptionsOf(bin), bin, '--port', String(port), '--quiet'])
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

async function main() {
  await measureThroughput()
  await measureInstructions()
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
  await measureCapacity()
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
          : only === 'capacity'
            ? measureCapacity
            : only === 'instructions'
              ? measureInstructions
              : main
run().catch((error) => {
  console.error(error)
  process.exit(1)
})
