// Start-up figures (`npm run bench`, or `npx tsx bench/startup.ts`): the command on an unchanged tree (process
// spawn to the first 200 of /__sandbox/health, embedded chain ready) and the first call naming a network started on
// its first use, the first start of a fresh clone (its build included), createTestSandbox in-process (a worker's
// first, then a sandbox per test: beforeEach = createTestSandbox + MSW's resetHandlers, afterEach = close).
// BENCH_BEFORE=<checkout> times that tree's command and per-test sandbox in the same turns. Medians, with the
// machine's load; printed, never asserted.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort, startChild, startOptionsOf, waitFor200 } from './processes.ts'

const root = new URL('..', import.meta.url).pathname
const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : null

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * Spawns `bin/request-sandbox.mjs` of `repo` as its `npm start` does: the ms from spawn to the first 200 of its health, then (`onUse`) the ms
 * of a first call naming a network it does not run yet (started on that call).
 */
async function timeToHealthy(repo: string, onUse = false): Promise<{ healthy: number; onUse: number }> {
  const port = await freePort()
  const started = performance.now()
  const bin = join(repo, 'bin/request-sandbox.mjs')
  // npm start's command: its Node options, then the bin
  const sandbox = startChild(process.execPath, [...startOptionsOf(bin), bin, '--port', String(port)])
  try {
    await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`, 60_000)
    const healthy = performance.now() - started
    if (!onUse) return { healthy, onUse: Number.NaN }
    const call = performance.now()
    const answer = await fetch(`http://127.0.0.1:${port}/v2/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'bench-on-use' },
      body: JSON.stringify({
        amount: '1',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      }),
    })
    if (answer.status !== 201) throw new Error(`a call naming base answered ${answer.status}`)
    return { healthy, onUse: performance.now() - call }
  } finally {
    await sandbox.stop()
  }
}

/** A test file's sandboxes in one process: a worker's first, then `perTest` sandboxes made and closed as beforeEach/afterEach do. */
async function testSandboxes(repo: string, perTest: number) {
  const { createTestSandbox } = (await import(join(repo, 'src/msw.ts'))) as typeof import('../src/msw.ts')
  const { setupServer } = await import('msw/node')
  // modules loaded and compiled once (a worker imports them before its first test)
  await (await createTestSandbox({ reuseChains: false })).close()
  const first: number[] = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    const rn = await createTestSandbox({ reuseChains: false })
    first.push(performance.now() - started)
    await rn.close()
  }
  const server = setupServer()
  server.listen({ onUnhandledRequest: 'bypass' })
  const beforeEach: number[] = []
  const afterEach: number[] = []
  try {
    await (await createTestSandbox()).close() // the worker's first: its chain is kept for the next
    for (let i = 0; i < perTest; i++) {
      const started = performance.now()
      const rn = await createTestSandbox()
      server.resetHandlers(...rn.handlers)
      beforeEach.push(performance.now() - started)
      // a test: a request created, so the next sandbox has something to forget
      const tenant = await rn.tenant()
      await rn.sandbox.dispatch({
        method: 'POST',
        path: '/v2/request',
        query: {},
        headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
        rawBody: JSON.stringify({
          amount: '1',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
        }),
      })
      const closing = performance.now()
      await rn.close()
      afterEach.push(performance.now() - closing)
    }
  } finally {
    server.close()
  }
  return { first, beforeEach, afterEach }
}

/** Medians of each start-up figure over `runs` runs. */
export async function measureStartup(runs = 5) {
  const load = loadavg()[0]!
  await timeToHealthy(root) // builds dist/ if the tree changed since the last build
  if (before) await timeToHealthy(before)
  const unchanged: number[] = []
  const onUse: number[] = []
  const beforeUnchanged: number[] = []
  // alternated with the other tree's, so a busy moment of the machine hits both
  for (let i = 0; i < runs; i++) {
    const run = await timeToHealthy(root, true)
    unchanged.push(run.healthy)
    onUse.push(run.onUse)
    if (before) beforeUnchanged.push((await timeToHealthy(before)).healthy)
  }

  // a clone of the committed tree, node_modules linked (what `npm ci` would put there), no dist/
  const scratch = mkdtempSync(join(tmpdir(), 'sandbox-clone-'))
  let fresh: number
  try {
    execFileSync('git', ['clone', '--quiet', root, join(scratch, 'repo')])
    symlinkSync(join(root, 'node_modules'), join(scratch, 'repo/node_modules'))
    fresh = (await timeToHealthy(join(scratch, 'repo'))).healthy
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }

  const sandboxes = await testSandboxes(root, 20)
  const beforeSandboxes = before ? await testSandboxes(before, 5) : null
  return {
    load,
    loadAfter: loadavg()[0]!,
    unchangedMs: median(unchanged),
    unchanged,
    onUseMs: median(onUse),
    onUse,
    beforeUnchanged,
    freshCloneMs: fresh,
    testSandboxMs: median(sandboxes.first),
    testSandbox: sandboxes.first,
    beforeEachMs: median(sandboxes.beforeEach),
    beforeEach: sandboxes.beforeEach,
    afterEachMs: median(sandboxes.afterEach),
    afterEach: sandboxes.afterEach,
    beforeSandboxes,
  }
}

/** The figures as printed lines. */
export function formatStartup(f: Awaited<ReturnType<typeof measureStartup>>): string {
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ')
  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`
  const lines = [
    `start-up figures, load average ${f.load.toFixed(2)} before, ${f.loadAfter.toFixed(2)} after (2 cores)`,
    `start, unchanged tree (spawn -> health 200, chain deployed): median ${f.unchangedMs.toFixed(0)} ms of ${list(f.unchanged)} (target <= 700 ms)`,
    `first call naming a network started on that call (USDC-base): median ${f.onUseMs.toFixed(0)} ms of ${list(f.onUse)} (target <= 1000 ms)`,
    `start, fresh clone (build included): ${f.freshCloneMs.toFixed(0)} ms (target <= 8000 ms)`,
    `createTestSandbox, a worker's first (modules loaded, own chain): median ${f.testSandboxMs.toFixed(0)} ms of ${list(f.testSandbox)} (target <= 300 ms)`,
    `a sandbox per test: beforeEach (createTestSandbox + resetHandlers) median ${f.beforeEachMs.toFixed(1)} ms (${range(f.beforeEach)}, ${f.beforeEach.length} tests; target <= 50 ms), afterEach (close) median ${f.afterEachMs.toFixed(1)} ms (${range(f.afterEach)})`,
  ]
  if (f.beforeUnchanged.length)
    lines.push(
      `before (${before}): start median ${median(f.beforeUnchanged).toFixed(0)} ms of ${list(f.beforeUnchanged)}`,
    )
  if (f.beforeSandboxes)
    lines.push(
      `before (${before}): createTestSandbox first median ${median(f.beforeSandboxes.first).toFixed(0)} ms, per test beforeEach median ${median(f.beforeSandboxes.beforeEach).toFixed(0)} ms (${range(f.beforeSandboxes.beforeEach)}), afterEach median ${median(f.beforeSandboxes.afterEach).toFixed(0)} ms`,
    )
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatStartup(await measureStartup()))
  process.exit(0)
}
