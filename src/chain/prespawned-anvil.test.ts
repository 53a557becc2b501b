// The anvil bin/request-sandbox.mjs spawns before it loads the command is the one the first chain runs on when it
// fits (same chain id, default host and port); one that does not fit is stopped, and a new one spawned.
import { type ChildProcess, spawn } from 'node:child_process'
import { afterEach, expect, it } from 'vitest'
import { anvilBinaryPath, spawnAnvil } from './anvil.ts'

const slot = Symbol.for('request-sandbox:prespawned-anvil')
const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL')
})

/** what bin/request-sandbox.mjs leaves behind: an anvil spawned for `chainId`, in the global slot */
function prespawn(chainId: number): ChildProcess {
  const child = spawn(
    anvilBinaryPath(),
    ['--chain-id', String(chainId), '--host', '127.0.0.1', '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  started.push(child)
  ;(globalThis as Record<symbol, unknown>)[slot] = { chainId, child, release: () => {} }
  return child
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()))

it('runs the first chain on the anvil the command spawned before it loaded', async () => {
  const child = prespawn(11155111)
  const anvil = await spawnAnvil({ chainId: 11155111 })
  try {
    expect(anvil.pid).toBe(child.pid)
    expect((globalThis as Record<symbol, unknown>)[slot]).toBeUndefined()
    const answer = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    expect(((await answer.json()) as { result: string }).result).toBe('0xaa36a7')
  } finally {
    await anvil.stop()
  }
})

it('stops a spawned anvil that does not fit and starts its own', async () => {
  const child = prespawn(8453)
  const anvil = await spawnAnvil({ chainId: 11155111 })
  try {
    expect(anvil.pid).not.toBe(child.pid)
    await exited(child)
    expect((globalThis as Record<symbol, unknown>)[slot]).toBeUndefined()
  } finally {
    await anvil.stop()
  }
})
