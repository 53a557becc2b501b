// The command line as a user runs it: a sandbox started with `request-sandbox --port 0` in a child process, and
// the tools (`request-sandbox trigger …`) run as child processes against it.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Loose } from './loose.ts'

export const root = fileURLToPath(new URL('../../', import.meta.url))

/** A sandbox running in a child process. */
export interface CliSandbox {
  url: string
  process: ChildProcess
  /** what it printed so far */
  output(): string
  /** what it printed so far on stdout alone (the terminal log) */
  stdout(): string
  stop(): Promise<void>
}

/**
 * Starts `request-sandbox --port 0 --quiet …` (without `--quiet` when `quiet` is false: the whole terminal log) and
 * resolves with its URL once it listens.
 */
export async function startCliSandbox(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  { quiet = true }: { quiet?: boolean } = {},
): Promise<CliSandbox> {
  const flags = ['--port', '0', ...(quiet ? ['--quiet'] : []), ...args]
  const child = spawn(process.execPath, ['bin/request-sandbox.mjs', ...flags], {
    cwd: root,
    env: { ...process.env, ...env },
  })
  let out = ''
  let stdout = ''
  child.stdout.on('data', (c: Buffer) => {
    out += c
    stdout += c
  })
  child.stderr.on('data', (c: Buffer) => {
    out += c
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 60_000)
    const check = () => {
      const found = /listening on (http:\/\/[\d.:]+)/.exec(out)
      if (found) {
        clearTimeout(timer)
        resolve(found[1]!)
      }
    }
    child.stdout.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`sandbox exited with ${code}: ${out}`))
    })
  })
  return {
    url,
    process: child,
    output: () => out,
    stdout: () => stdout,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** The result of a tool run to its end. */
export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `request-sandbox <args>` to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliRun> {
  const child = spawn(process.execPath, ['bin/request-sandbox.mjs', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => {
    stdout += c
  })
  child.stderr.on('data', (c: Buffer) => {
    stderr += c
  })
  if (input !== undefined) child.stdin.end(input)
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

/** Starts a long-running tool (listen, logs tail); `lines` grows as it prints. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['bin/request-sandbox.mjs', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  })
  const state = { stdout: '', stderr: '' }
  child.stdout.on('data', (c: Buffer) => {
    state.stdout += c
  })
  child.stderr.on('data', (c: Buffer) => {
    state.stderr += c
  })
  return {
    child,
    state,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** A fresh API key for one test. */
export const freshKey = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`

/** Calls the sandbox's API with a key; answers status and parsed body. */
export async function api(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Loose }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: response.status, body: parsed }
}
