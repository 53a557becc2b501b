// The process's exit against --state-dir's checkpointer thread (issue 31 item 11: "libsql printed a panic once when a
// sandbox was stopped with SIGTERM"). Run alone: `npx tsx bench/exit-panic.ts [runs] [child|cli] [checkout]`.
// - child (default): test/support/writer-exit-child.ts, a process that calls process.exit while the checkpointer
//   copies a 48 MB WAL; counts the runs that ended with a Rust panic (exit 134) instead of their own code.
// - cli: the real command with --state-dir (kept across runs: each start brings the last run's worlds back), creates
//   from 16 clients over 20 keys, SIGTERM at a random moment in its first 2 s of serving; counts panics, exits other
//   than 0, and exits that happened while a worker thread was still running (a preload counts them: the moments a
//   libsql call of that thread could have been cut off).
// `checkout`: the tree whose command and writer run (default this one), e.g. a worktree of the commit before the fix.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('..', import.meta.url))

/** A preload that reports on stderr a process exit with a worker thread still running. */
const LIVE_WORKERS = `
const wt = require('node:worker_threads')
if (wt.isMainThread) {
  const live = new Set()
  const Worker = wt.Worker
  wt.Worker = class extends Worker {
    constructor(...args) { super(...args); live.add(this); this.once('exit', () => live.delete(this)) }
  }
  require('node:module').syncBuiltinESMExports()
  process.on('exit', (code) => { if (live.size) process.stderr.write('LIVE-WORKERS ' + live.size + ' at exit ' + code + '\\n') })
}
`

interface Run {
  code: number | null
  signal: string | null
  stderr: string
}

function exitOf(child: ReturnType<typeof spawn>, stderr: () => string, limitMs: number): Promise<Run> {
  const hard = setTimeout(() => child.kill('SIGKILL'), limitMs)
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(hard)
      resolve({ code, signal, stderr: stderr() })
    }),
  )
}

async function childRun(checkout: string, dir: string): Promise<Run> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'test/support/writer-exit-child.ts'),
      join(dir, `state-${Date.now()}.db`),
      'exit',
      checkout,
    ],
    { cwd: here, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c
  })
  return exitOf(child, () => stderr, 60_000)
}

async function cliRun(checkout: string, dir: string, preload: string): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['bin/request-sandbox.mjs', '--port', '0', '--quiet', '--state-dir', join(dir, 'state')],
    {
      cwd: checkout,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: `--require ${preload}` },
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c
  })
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c
  })
  const exited = exitOf(child, () => stderr, 90_000)
  const url = await new Promise<string | null>((resolve) => {
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(stdout)
      if (match) resolve(match[1]!)
    })
    void exited.then(() => resolve(null))
  })
  let stop = false
  const clients: Promise<void>[] = []
  if (url)
    for (let c = 0; c < 16; c++)
      clients.push(
        (async () => {
          for (let n = 0; !stop; n++) {
            try {
              const res = await fetch(`${url}/v2/request`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-api-key': `exit-panic-${(c + n) % 20}` },
                body: JSON.stringify({
                  amount: '1',
                  invoiceCurrency: 'USD',
                  paymentCurrency: 'FAU-sepolia',
                  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
                }),
              })
              await res.arrayBuffer()
            } catch {
              await new Promise((r) => setTimeout(r, 5))
            }
          }
        })(),
      )
  await new Promise((r) => setTimeout(r, Math.random() * 2000))
  try {
    process.kill(child.pid!, 'SIGTERM')
  } catch {
    // already gone
  }
  const run = await exited
  stop = true
  await Promise.all(clients)
  return run
}

export async function measureExitPanics(runs: number, mode: 'child' | 'cli', checkout = here) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-exit-panic-'))
  const preload = join(dir, 'live-workers.cjs')
  writeFileSync(preload, LIVE_WORKERS)
  let panics = 0
  let nonZero = 0
  let liveWorkers = 0
  try {
    for (let i = 0; i < runs; i++) {
      const run = mode === 'child' ? await childRun(checkout, dir) : await cliRun(checkout, dir, preload)
      const panic = /panicked/.test(run.stderr)
      if (panic) panics++
      if (run.code !== 0) nonZero++
      if (/LIVE-WORKERS/.test(run.stderr)) liveWorkers++
      process.stdout.write(
        `run ${i + 1}: exit ${run.code ?? run.signal}${panic ? ` PANIC ${/panicked at (\S+)/.exec(run.stderr)?.[1]}` : ''}\n`,
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { runs, mode, panics, nonZero, ...(mode === 'cli' ? { liveWorkers } : {}) }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [runs = '20', mode = 'child', checkout] = process.argv.slice(2)
  console.log(await measureExitPanics(Number(runs), mode === 'cli' ? 'cli' : 'child', checkout ?? here))
}
