// Start-up figures (`npm run bench`, or `npx tsx bench/startup.ts`): the command on an unchanged tree (process
// spawn to the first 200 of /__sandbox/health, embedded chain), the first start of a fresh clone (its build
// included), and createTestSandbox in-process. Medians; printed, never asserted.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startChild, waitFor200 } from './processes.ts'

const root = new URL('..', import.meta.url).pathname

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Spawns `bin/request-sandbox.mjs` of `repo` and returns the ms from spawn to the first 200 of its health. */
async function timeToHealthy(repo: string): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const sandbox = startChild(process.execPath, [
    join(repo, 'bin/request-sandbox.mjs'),
    '--port',
    String(port),
  ])
  await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`, 60_000)
  const ms = performance.now() - started
  await sandbox.stop()
  return ms
}

/** Medians of each start-up figure over `runs` runs. */
export async function measureStartup(runs = 5) {
  await timeToHealthy(root) // builds dist/ if the tree changed since the last build
  const unchanged: number[] = []
  for (let i = 0; i < runs; i++) unchanged.push(await timeToHealthy(root))

  // a clone of the committed tree, node_modules linked (what `npm ci` would put there), no dist/
  const scratch = mkdtempSync(join(tmpdir(), 'sandbox-clone-'))
  let fresh: number
  try {
    execFileSync('git', ['clone', '--quiet', root, join(scratch, 'repo')])
    symlinkSync(join(root, 'node_modules'), join(scratch, 'repo/node_modules'))
    fresh = await timeToHealthy(join(scratch, 'repo'))
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }

  const { createTestSandbox } = await import('../src/msw.ts')
  await (await createTestSandbox()).close() // modules loaded and compiled once, as in a test file's second sandbox
  const testSandbox: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    const rn = await createTestSandbox()
    testSandbox.push(performance.now() - started)
    await rn.close()
  }
  return {
    unchangedMs: median(unchanged),
    unchanged,
    freshCloneMs: fresh,
    testSandboxMs: median(testSandbox),
    testSandbox,
  }
}

/** The figures as printed lines. */
export function formatStartup(f: Awaited<ReturnType<typeof measureStartup>>): string {
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ')
  return [
    `start, unchanged tree (spawn -> health 200, chain deployed): median ${f.unchangedMs.toFixed(0)} ms of ${list(f.unchanged)} (target <= 1000 ms)`,
    `start, fresh clone (build included): ${f.freshCloneMs.toFixed(0)} ms (target <= 8000 ms)`,
    `createTestSandbox ready: median ${f.testSandboxMs.toFixed(0)} ms of ${list(f.testSandbox)} (target <= 300 ms)`,
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatStartup(await measureStartup()))
  process.exit(0)
}
