// --state-dir's checkpointer thread and the process's exit (issue 31 item 11: "libsql printed a panic once when a
// sandbox was stopped with SIGTERM"). Node stops a worker thread when the process exits; a libsql call in flight in
// that thread then aborts the whole process (neon's external.rs: `assertion left == right failed, left:
// PendingException`, exit 134) and prints a Rust panic. The exit must wait for the call and the thread make no other,
// however the process ends (here: while the checkpointer copies a 48 MB WAL, without close()).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from '../support/cli-sandbox.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function run(
  end: 'exit' | 'drain',
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-writer-exit-'))
  dirs.push(dir)
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/writer-exit-child.ts', join(dir, 'state.db'), end],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => {
    stdout += c
  })
  child.stderr.on('data', (c: Buffer) => {
    stderr += c
  })
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
}

describe('the process ends while the checkpointer thread is inside a libsql call', () => {
  // process.exit (the command's stop, an uncaught error) and an event loop that runs dry (a sandbox never closed)
  for (const end of ['exit', 'drain'] as const)
    it(`${end}: exits with its own code, no Rust panic (two runs)`, async () => {
      for (let i = 0; i < 2; i++) {
        const { code, signal, stdout, stderr } = await run(end)
        expect(stdout).toContain('exiting')
        expect(stderr).not.toMatch(/panicked/)
        expect({ code, signal }).toEqual({ code: 0, signal: null })
      }
    }, 120_000)
})
