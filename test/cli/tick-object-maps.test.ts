// The command keeps Node's tick objects on V8's fast path through full garbage collections
// (bin/tick-object-maps.mjs). Each process is asked, through V8's own %DebugPrint, for the state of the feedback
// slots with which `process.nextTick` defines its tick objects' keys: after a full collection that ran while no tick
// object was alive, a plain Node process has given them up (megamorphic: every tick object built in V8's runtime),
// and the command has not, without enabling an async hook (which would turn off V8's PromiseHook protector, and with
// it the inlining of promises, for the life of the process).
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from '../support/cli-sandbox.ts'

const scratch = mkdtempSync(join(tmpdir(), 'tick-maps-'))
const probe = join(scratch, 'probe.cjs')
// on SIGUSR2: enough tick objects for nextTick to have its feedback, a full collection from a timer (no tick object
// is alive there), one more tick object, then the slots' states and an exit. V8 prints through C's buffered stdout,
// which only the exit flushes; into a file, as a pipe Node made non-blocking can drop part of it.
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
const FLAGS = ['--allow-natives-syntax', '--expose-gc', '--trace-protector-invalidation', '-r', probe]

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let runs = 0

/**
 * Runs node with the probe and `args`, signals it once `ready` is printed, and returns what it printed and the
 * states of nextTick's DefineKeyedOwnPropertyInLiteral slots.
 */
async function probed(args: string[], ready: string): Promise<{ out: string; states: string[] }> {
  const file = join(scratch, `out-${++runs}.txt`)
  const fd = openSync(file, 'w')
  const child = spawn(process.execPath, [...FLAGS, ...args], { cwd: root, stdio: ['ignore', fd, fd] })
  closeSync(fd)
  let ended: string | undefined
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      ended = `could not start: ${error.message}`
      resolve()
    })
    child.once('exit', (code, signal) => {
      ended = `exited (${code ?? signal})`
      resolve()
    })
  })
  let seen = false
  try {
    const deadline = Date.now() + 40_000
    while (ended === undefined && Date.now() < deadline) {
      if (readFileSync(file, 'utf8').includes(ready)) {
        seen = true
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    if (seen) {
      child.kill('SIGUSR2')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  const out = readFileSync(file, 'utf8')
  const states = [...out.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!)
  // Node 20's nextTick defines its two computed keys and two named ones this way: another count means the process
  // did not get that far, or this Node builds its tick objects differently (and the test and the module must be
  // looked at again)
  if (states.length !== 4) {
    const how = [
      seen ? `"${ready}" seen` : `"${ready}" never printed`,
      ended ?? 'still running, killed',
      `feedback vector printed: ${out.includes('feedback vector')}`,
    ]
    throw new Error(
      `${states.length} DefineKeyedOwnPropertyInLiteral slots printed, not 4 (${how.join('; ')}):\n${out.slice(-2000)}`,
    )
  }
  return { out, states }
}

// Node 20 only: later versions build tick objects with a symbol of their own, and the module keeps nothing there
describe.runIf(process.versions.node.startsWith('20.'))(
  "Node's tick objects through a full garbage collection",
  () => {
    it('a plain Node process gives up the fast path (what the command guards against)', async () => {
      const { states } = await probed(
        ['-e', "process.stdout.write('ready\\n'); setTimeout(() => process.exit(2), 60_000)"],
        'ready',
      )
      // if this fails, this Node keeps its tick objects' maps by itself: bin/tick-object-maps.mjs may be unneeded
      expect(states, 'a plain process kept its slots monomorphic').toContain('MEGAMORPHIC')
    }, 60_000)

    it('the request-sandbox command keeps it, with no async hook enabled', async () => {
      const { out, states } = await probed(
        ['bin/request-sandbox.mjs', '--port', '0', '--quiet', '--no-chain'],
        'listening on',
      )
      expect(states.filter((state) => state !== 'MONOMORPHIC')).toEqual([])
      expect(out).not.toContain('Invalidating protector cell PromiseHook')
    }, 60_000)
  },
)
