// How the command stops: with 0 only on a signal, with 1 and a message otherwise (a port in use with or without
// --state-dir); the parent watchdog stops it only when its parent is seen gone, never because /proc could not be
// read; and running out of file descriptors (streams held open) stops neither the server nor the process.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parentGone, parentOf } from '../../src/cli/watchdog.ts'
import { waitFor } from '../support/wait.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const started: ChildProcess[] = []
const dirs: string[] = []

afterAll(() => {
  for (const child of started) if (child.pid && child.exitCode === null) child.kill('SIGKILL')
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Starts `sh -c script` with the node binary as $0; answers the child and its output so far. */
function startShell(script: string, env: Record<string, string> = {}) {
  const child = spawn('sh', ['-c', script, process.execPath], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  const out = { stdout: '', stderr: '' }
  child.stdout!.on('data', (chunk: Buffer) => {
    out.stdout += chunk
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    out.stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  return { child, out, exited }
}

describe('the parent watchdog', () => {
  const watched = { parent: 100, npm: 50 }

  it('stops when its parent changed, or npm is no longer its parent', () => {
    expect(parentGone(watched, { ppid: () => 1, parentOf: () => 50 })).toBe(true)
    expect(parentGone(watched, { ppid: () => 100, parentOf: () => 1 })).toBe(true)
    expect(parentGone(watched, { ppid: () => 100, parentOf: () => 50 })).toBe(false)
    expect(parentGone({ parent: 100, npm: null }, { ppid: () => 100, parentOf: () => null })).toBe(false)
  })

  it('does not stop when /proc cannot be read (EMFILE): that says nothing about the parent', () => {
    const emfile = () => {
      throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' })
    }
    expect(parentOf(100, emfile)).toBeNull()
    expect(parentGone(watched, { ppid: () => 100, parentOf: (pid) => parentOf(pid, emfile) })).toBe(false)
    expect(parentOf(100, () => '100 (sh (x) y) S 50 100 100')).toBe(50)
  })
})

describe('request-sandbox exit codes', () => {
  it('exits 1 naming a port in use with --state-dir, as without it', async () => {
    const busy: Server = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as { port: number }).port
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-exit-'))
    dirs.push(dir)
    try {
      const run = startShell(`exec "$0" bin/request-sandbox.mjs --port ${port} --no-chain --state-dir ${dir}`)
      expect(await run.exited).toBe(1)
      expect(run.out.stderr).toContain(`port ${port} is already in use`)
    } finally {
      busy.close()
    }
  }, 60_000)

  it.runIf(existsSync('/proc/self/stat'))(
    'keeps running and serving under `npm start` when streams take every file descriptor, and stops with 0 on SIGTERM',
    async () => {
      // a hard limit of 256 open files (node cannot raise it), npm's environment (the watchdog reads /proc), and
      // stream bounds above what the limit allows (so that the descriptors run out)
      const run = startShell('ulimit -n 256 && exec "$0" bin/request-sandbox.mjs --port 0 --no-chain -q', {
        npm_lifecycle_event: 'start',
        SANDBOX_MAX_STREAMS: '100000',
        SANDBOX_MAX_STREAMS_TOTAL: '100000',
      })
      const url = await waitFor(() => /listening on (http:\/\/\S+)/.exec(run.out.stdout)?.[1], {
        timeoutMs: 30_000,
        what: 'the first line',
      })
      const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
      const requests: http.ClientRequest[] = []
      const open = () =>
        new Promise<string>((resolve) => {
          const request = http.get(
            `${url}/__sandbox/stream`,
            { agent, headers: { 'x-api-key': 'fd-hog' } },
            (response) => resolve(String(response.statusCode)),
          )
          request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
          requests.push(request)
        })
      const answers = await Promise.all(Array.from({ length: 300 }, open))
      // the descriptors did run out: some connections were closed unanswered
      expect(answers.filter((a) => a !== '200').length).toBeGreaterThan(0)
      // several turns of the watchdog while no descriptor is left
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(run.child.exitCode, run.out.stderr).toBeNull()
      for (const request of requests) request.destroy()
      agent.destroy()
      const health = await waitFor(
        () =>
          fetch(`${url}/__sandbox/health`).then(
            (r) => (r.status === 200 ? r.status : undefined),
            () => undefined,
          ),
        { timeoutMs: 10_000, what: 'the sandbox serving again' },
      )
      expect(health).toBe(200)
      expect(run.child.exitCode).toBeNull()
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
    },
    60_000,
  )
})
