// Ctrl-C on a sandbox started with --state-dir: a terminal sends SIGINT to its whole foreground process group (the
// sandbox and every child in that group). The sandbox saves its chains' state on the way out, so its anvils must not
// be stopped by that signal before the save: the stop is quiet (no "last save … failed", no stack trace), exits 0,
// and the chain is where it was on the next start. SIGTERM to the group (a supervisor stopping the group) likewise.
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

/** The command in a process group of its own, as a shell's foreground job; stopped by signalling the whole group. */
async function start(stateDir: string) {
  const child = spawn(
    process.execPath,
    ['bin/request-sandbox.mjs', '--port', '0', '--quiet', '--state-dir', stateDir],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => {
    stdout += c
  })
  child.stderr.on('data', (c: Buffer) => {
    stderr += c
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL: ${stdout}${stderr}`)), 90_000)
    const look = () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(stdout)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout.on('data', look)
    void exited.then((code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)))
  })
  return {
    url,
    /** sends `signal` to the process group, as the terminal does; resolves with the exit code and what it printed */
    async stop(signal: NodeJS.Signals) {
      process.kill(-child.pid!, signal)
      const code = await exited
      return { code, stdout, stderr }
    },
  }
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'ctrl-c' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: unknown }
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return body.result
}

describe('stopping a --state-dir sandbox with Ctrl-C (README: "a restart picks up where it stopped")', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`${signal} to the process group: exit 0, nothing on stderr, the chain saved`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sandbox-ctrl-c-'))
      dirs.push(dir)
      const first = await start(dir)
      await rpc(first.url, 'anvil_mine', ['0x5'])
      const height = Number(await rpc(first.url, 'eth_blockNumber'))
      const stopped = await first.stop(signal)
      expect(stopped.stderr).toBe('')
      expect(stopped.stdout).not.toMatch(/failed|socket hang up|\n\s+at /)
      expect(stopped.code).toBe(0)
      const again = await start(dir)
      try {
        expect(Number(await rpc(again.url, 'eth_blockNumber'))).toBeGreaterThanOrEqual(height)
      } finally {
        await again.stop('SIGTERM')
      }
    }, 240_000)
})
