// Before/after throughput of two checkouts, interleaved with a bare node:http server so that a busy machine moves
// all three alike: `npx tsx bench/compare-trees.ts <other checkout> [rounds]`. Prints each round's ratios to the
// bare server and their medians, to hold a refactor to "not lower than before". Both trees run
// as `npm start` does: the terminal log on, written to a file (BENCH_QUIET=1 adds --quiet).
import { execFileSync } from 'node:child_process'
import { load } from './load.ts'
import { cpuMs, freePort, startChild, startDefaultSandbox, waitFor200 } from './processes.ts'

const here = new URL('..', import.meta.url).pathname
const other = process.argv[2]
const rounds = Number(process.argv[3] ?? 3)
if (!other) throw new Error('usage: npx tsx bench/compare-trees.ts <other checkout> [rounds]')
const durationMs = Number(process.env.BENCH_MS ?? 2000)
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
})
const headers = { 'content-type': 'application/json', 'x-api-key': 'compare' }

/** Requests per second, and the server's CPU time per create (µs: less swayed by a busy machine than req/s). */
async function measure(base: string, pid: number) {
  const run = (method: 'GET' | 'POST', path: string) =>
    load({
      url: `${base}${path}`,
      method,
      headers,
      concurrency: 32,
      durationMs,
      ...(method === 'POST' ? { body } : {}),
    })
  await run('GET', '/v1/currencies')
  const read = await run('GET', '/v1/currencies')
  const before = cpuMs(pid)
  const create = await run('POST', '/v2/request')
  // an answer >= 400 is not counted in req/s: a tree that refuses the call must show it, not just look slow
  if (read.errors + create.errors)
    console.log(`  ${base}: ${read.errors} failed reads, ${create.errors} failed creates (left out of req/s)`)
  return {
    read: read.rps,
    create: create.rps,
    createCpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, create.completed),
  }
}

/** `--quiet` under BENCH_QUIET=1 when the tree's command has it; by default both trees run as users run them. */
function quietFlag(tree: string): string[] {
  if (process.env.BENCH_QUIET !== '1') return []
  const help = execFileSync('node', [`${tree}/bin/request-sandbox.mjs`, '--help'], { encoding: 'utf8' })
  return help.includes('--quiet') ? ['--quiet'] : []
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ratios = {
  old: { read: [] as number[], create: [] as number[], cpu: [] as number[] },
  new: { read: [] as number[], create: [] as number[], cpu: [] as number[] },
}
for (let round = 0; round < rounds; round++) {
  const barePort = await freePort()
  const bare = startChild('node', [`${here}bench/bare-server.mjs`, String(barePort)])
  await new Promise((r) => bare.child.stdout!.once('data', r))
  const b = await measure(`http://127.0.0.1:${barePort}`, bare.child.pid!)
  await bare.stop()
  for (const [name, tree] of [
    ['old', other],
    ['new', here],
  ] as const) {
    const port = await freePort()
    // the default configuration: the terminal log on, written to a file (BENCH_QUIET=1: --quiet)
    const child = startDefaultSandbox(`${tree}/bin/request-sandbox.mjs`, [
      '--no-chain',
      ...quietFlag(tree),
      '--port',
      String(port),
    ])
    await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`, 60_000)
    const s = await measure(`http://127.0.0.1:${port}`, child.child.pid!)
    await child.stop()
    ratios[name].read.push(s.read / b.read)
    ratios[name].create.push(s.create / b.create)
    ratios[name].cpu.push(s.createCpuUs)
    console.log(
      `round ${round + 1} ${name}: read ${s.read.toFixed(0)} req/s (${(s.read / b.read).toFixed(2)}x), create ${s.create.toFixed(0)} req/s (${(s.create / b.create).toFixed(2)}x, ${s.createCpuUs.toFixed(1)} µs CPU each); bare ${b.read.toFixed(0)} / ${b.create.toFixed(0)} (${b.createCpuUs.toFixed(1)} µs)`,
    )
  }
}
for (const name of ['old', 'new'] as const) {
  console.log(
    `${name} (${name === 'old' ? other : here}): median read ratio ${median(ratios[name].read).toFixed(2)}x, median create ratio ${median(ratios[name].create).toFixed(2)}x, median CPU per create ${median(ratios[name].cpu).toFixed(1)} µs`,
  )
}
