// The command keeps Node's tick objects on V8's fast path through full garbage collections
// (bin/tick-object-maps.mjs). Each process is asked, through V8's own %DebugPrint, for the state of the caches
// with which `process.nextTick` defines its tick objects' computed keys: after a full collection that ran while no
// tick object was alive, a plain Node process has given them up (megamorphic: every tick object built in V8's
// runtime), and the command has not.
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from '../support/cli-sandbox.ts'

const scratch = mkdtempSync(join(tmpdir(), 'tick-maps-'))
const probe = join(scratch, 'probe.cjs')
// on SIGUSR2: enough tick objects for nextTick to have its caches, a full collection from a timer (no tick object
// is alive there), one more tick object, then the caches' states and an exit (which flushes C's buffered stdout,
// where V8 prints: a file, as a pipe Node made non-blocking can refuse part of it)
writeFileSync(
  probe,
  `process.on('SIGUSR2', () => {
  for (let i = 0; i < 300; i++) process.nextTick(() => {})
  setTimeout(() => {
    globalThis.gc()
    globalThis.gc()
    process.nextTick(() => {})
    setTimeout(() => {
      %DebugPrint(process.nextTick)
      process.exit(0)
    }, 10)
  }, 10)
})
`,
)
const FLAGS = ['--allow-natives-syntax', '--expose-gc', '-r', probe]

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let runs = 0

/** Runs node with the probe and `args`, signals it once `ready` is printed, returns the caches' states. */
async function statesAfterCollection(args: string[], ready: string): Promise<string[]> {
  const file = join(scratch, `out-${++runs}.txt`)
  const fd = openSync(file, 'w')
  const child = spawn(process.execPath, [...FLAGS, ...args], { cwd: root, stdio: ['ignore', fd, fd] })
  closeSync(fd)
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', () => resolve())
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  try {
    while (!readFileSync(file, 'utf8').includes(ready)) {
      if (child.exitCode !== null || child.signalCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    child.kill('SIGUSR2')
    await exited
  } finally {
    clearTimeout(timer)
  }
  const out = readFileSync(file, 'utf8')
  const states = [...out.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!)
  // Node 20's nextTick defines two computed keys and two named ones this way; none found means this Node builds
  // its tick objects differently, and the test (and the module) must be looked at again
  if (states.length < 2) throw new Error(`no DefineKeyedOwnPropertyInLiteral slot in:\n${out.slice(-2000)}`)
  return states
}

describe("Node's tick objects through a full garbage collection", () => {
  it('a plain Node process gives up the fast path (what the command guards against)', async () => {
    const states = await statesAfterCollection(
      ['-e', "process.stdout.write('ready\\n'); setInterval(() => {}, 1000)"],
      'ready',
    )
    expect(states).toContain('MEGAMORPHIC')
  })

  it('the request-sandbox command keeps it', async () => {
    const states = await statesAfterCollection(
      ['bin/request-sandbox.mjs', '--port', '0', '--quiet', '--no-chain'],
      'listening on',
    )
    expect(states.filter((state) => state !== 'MONOMORPHIC')).toEqual([])
  })
})
