import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { watchChild } from './anvil-watchdog.ts'
import { OWN_RPC_HEADERS } from './own-traffic.ts'

/** Options of spawnAnvil. */
export interface SpawnAnvilOptions {
  chainId: number
  /** interface to bind (default 127.0.0.1) */
  host?: string
  /** TCP port (default 0: the OS picks a free one, read back from anvil's output) */
  port?: number
  /** extra command-line arguments */
  args?: string[]
  /** how long to wait for the RPC to answer (default 10 s) */
  timeoutMs?: number
}

/** A running anvil child process. */
export interface AnvilProcess {
  rpcUrl: string
  pid: number
  /** SIGTERM, then SIGKILL after `graceMs` (default 2 s); resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>
}

const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
}

/** Path of the anvil binary shipped by the @foundry-rs/anvil-<platform>-<arch> package. */
export function anvilBinaryPath(): string {
  const platform = `${process.platform}-${process.arch}`
  const suffix = PLATFORM_PACKAGES[platform]
  const fix =
    'run without a chain (--no-chain, or chain: false) or use an anvil you run yourself (--rpc-url http://127.0.0.1:8545, or chain: { rpcUrl })'
  if (!suffix)
    throw new Error(`no anvil binary for this platform (${platform}: @foundry-rs/anvil ships none): ${fix}`)
  const require = createRequire(import.meta.url)
  let packageJson: string
  try {
    packageJson = require.resolve(`@foundry-rs/anvil-${suffix}/package.json`)
  } catch {
    throw new Error(
      `no anvil binary for this platform (${platform}): the optional package @foundry-rs/anvil-${suffix} is not installed ` +
        `(install without --omit=optional / --no-optional), or ${fix}`,
    )
  }
  return join(dirname(packageJson), 'bin', 'anvil')
}

/** Resolves with the listening address anvil prints, or rejects if it exits or stays silent. */
function waitForListening(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    const done = (error: Error | null, address?: string) => {
      clearTimeout(timer)
      child.stdout?.off('data', onStdout)
      child.off('exit', onExit)
      child.off('error', onError)
      if (error) reject(error)
      else resolve(address!)
    }
    const onStdout = (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      const match = /Listening on (\S+)/.exec(stdout)
      if (match) done(null, match[1])
    }
    const onExit = (code: number | null, signal: string | null) =>
      done(
        new Error(
          `anvil exited (${code ?? signal}) before listening: ${stderr.trim() || stdout.slice(-500)}`,
        ),
      )
    const onError = (error: Error) => done(error)
    const timer = setTimeout(() => done(new Error(`anvil did not listen within ${timeoutMs} ms`)), timeoutMs)
    child.stdout?.on('data', onStdout)
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000)
    })
    child.on('exit', onExit)
    child.on('error', onError)
  })
}

/** Polls eth_chainId every 15 ms until the node answers with the expected id. */
export async function waitForRpc(rpcUrl: string, chainId: number, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
  for (;;) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { ...OWN_RPC_HEADERS, 'content-type': 'application/json' },
        body,
      })
      const { result } = (await response.json()) as { result?: string }
      if (result !== undefined) {
        if (Number(result) !== chainId)
          throw new Error(`${rpcUrl} answers chain id ${Number(result)}, not ${chainId}`)
        return
      }
    } catch (error) {
      if (error instanceof Error && error.message.includes('answers chain id')) throw error
    }
    if (performance.now() > deadline)
      throw new Error(`${rpcUrl} did not answer eth_chainId within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 15))
  }
}

/** Sends `signal` to the child and resolves when it has exited (true) or after `ms` (false). */
function killAndWait(child: ChildProcess, signal: NodeJS.Signals, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit)
      resolve(false)
    }, ms)
    const onExit = () => {
      clearTimeout(timer)
      resolve(true)
    }
    child.once('exit', onExit)
    child.kill(signal)
  })
}

/** What bin/request-sandbox.mjs leaves for the first chain: an anvil it spawned before loading the command. */
interface Prespawned {
  chainId: number
  child: ChildProcess
  /** forgets bin's own kill at exit (the adopter kills it from now on) */
  release(): void
}
const PRESPAWNED = Symbol.for('request-sandbox:prespawned-anvil')

/**
 * The anvil the command spawned before it loaded (`--chain-id`, 127.0.0.1, port 0, no other argument), when it is
 * what `options` asks for and still runs; one that is not is stopped, as nothing else will take it.
 */
function takePrespawned(options: SpawnAnvilOptions): ChildProcess | null {
  const slots = globalThis as unknown as Record<symbol, Prespawned | undefined>
  const slot = slots[PRESPAWNED]
  if (!slot) return null
  delete slots[PRESPAWNED]
  slot.release()
  const fits =
    slot.chainId === options.chainId &&
    (options.host ?? '127.0.0.1') === '127.0.0.1' &&
    (options.port ?? 0) === 0 &&
    !options.args?.length
  if (fits && slot.child.exitCode === null && slot.child.signalCode === null) return slot.child
  slot.child.kill('SIGKILL')
  return null
}

/**
 * Spawns anvil on 127.0.0.1 (port 0 = any free port), waits until its RPC answers, and returns its URL and pid.
 * The child is killed if this process exits without calling stop(), and by a watchdog if it is killed (SIGKILL too).
 */
export async function spawnAnvil(options: SpawnAnvilOptions): Promise<AnvilProcess> {
  const host = options.host ?? '127.0.0.1'
  const timeoutMs = options.timeoutMs ?? 30_000
  const args = ['--chain-id', String(options.chainId), '--host', host, '--port', String(options.port ?? 0)]
  const child =
    takePrespawned(options) ??
    spawn(anvilBinaryPath(), [...args, ...(options.args ?? [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // a process group of its own: Ctrl-C (SIGINT to the terminal's foreground group) reaches this process, which
      // saves the chain's state before it stops anvil, and not anvil itself
      detached: true,
    })
  const killOnExit = () => child.kill('SIGKILL')
  process.on('exit', killOnExit)
  // anvil never outlives this process, even one killed with SIGKILL (see anvil-watchdog.ts)
  const watchdog = child.pid === undefined ? null : watchChild(child.pid)
  child.once('exit', () => {
    process.off('exit', killOnExit)
    watchdog?.release()
  })
  const stop = async (graceMs = 2_000) => {
    if (!(await killAndWait(child, 'SIGTERM', graceMs))) await killAndWait(child, 'SIGKILL', graceMs)
  }
  try {
    const address = await waitForListening(child, timeoutMs)
    // Keep draining anvil's log so a full pipe never blocks it; let this process exit without stop().
    child.stdout?.resume()
    child.stderr?.resume()
    for (const stream of [child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.()
    child.unref()
    const rpcUrl = `http://${address}`
    await waitForRpc(rpcUrl, options.chainId, timeoutMs)
    if (child.pid === undefined) throw new Error('anvil has no pid')
    return { rpcUrl, pid: child.pid, stop }
  } catch (error) {
    await stop(500)
    throw error
  }
}
