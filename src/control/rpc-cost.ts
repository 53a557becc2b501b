// What one /rpc request may make the shared chain execute. anvil runs an eth_call for as much gas as the call (or its
// block overrides) asks, well past the block gas limit: one anonymous call of 1e9 gas holds anvil for seconds, 1e12
// for many minutes, and every key's payments, detection and pages wait behind it. So every `gas` and `gasLimit` a
// call sends is at most the block gas limit (what a call without one gets), and a request (one call or a batch)
// executes code at most MAX_RPC_EXECUTIONS times; past either, 400 naming the bound before anything reaches anvil.
// Within those bounds a stranger looping 30,000,000-gas calls on ten connections still held anvil so that another
// key's faucet mint took 5 s instead of 30 ms; so requests that execute code run a few at a time per client address
// (an IPv6 address with its /64) and in all on a shared listener (RpcExecutionGate, --rpc-executing; 429 past it). The sandbox's own calls to its chains
// do not pass through /rpc: they are never refused, and wait behind at most that many.
import { SandboxError } from '../contract/sandbox-error.ts'
import { addressGroup } from '../contract/security.ts'

/** The block gas limit of the sandbox's chains: the most gas one call may ask for. */
export const MAX_RPC_CALL_GAS = 30_000_000n
/** Calls that execute contract code (eth_call and the like, each call of eth_simulateV1) in one request. */
export const MAX_RPC_EXECUTIONS = 10

// Methods that run the EVM on the node's own time (a sent transaction is bounded by its sender's funds and the block).
const executing = new Set([
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_simulateV1',
  'eth_callMany',
])
const gasFields = new Set(['gas', 'gasLimit'])

function gasOf(value: unknown): bigint | null {
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value))
  if (typeof value !== 'string') return null
  try {
    return BigInt(value)
  } catch {
    return null
  }
}

/** Every `gas`/`gasLimit` inside `params` (call objects, block overrides, simulated blocks), with its path. */
function gasValues(value: unknown, path: string, out: { path: string; gas: unknown }[], depth = 0): void {
  // bodies are nested at most 64 levels (body-limits); a call's params are far shallower
  if (depth > 8 || value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`
    if (gasFields.has(key)) out.push({ path: at, gas: inner })
    else gasValues(inner, at, out, depth + 1)
  }
}

/** How many executions a call counts for: one, or each call of each simulated block. */
function executionsOf(method: string, params: unknown): number {
  if (method !== 'eth_simulateV1' && method !== 'eth_callMany') return 1
  const blocks = Array.isArray(params) ? params[0] : undefined
  const list =
    method === 'eth_simulateV1'
      ? (blocks as { blockStateCalls?: unknown } | undefined)?.blockStateCalls
      : blocks
  if (!Array.isArray(list)) return 1
  return Math.max(
    1,
    list.reduce((n: number, block: unknown) => {
      const calls =
        (block as { calls?: unknown; transactions?: unknown } | null)?.calls ??
        (block as { transactions?: unknown } | null)?.transactions
      return n + (Array.isArray(calls) ? calls.length : 1)
    }, 0),
  )
}

/**
 * Refuses (400) a JSON-RPC body that asks the chain for more gas per call, or more executions, than allowed; the
 * calls it executes otherwise.
 */
export function checkRpcCost(calls: readonly unknown[]): number {
  let executions = 0
  calls.forEach((call, index) => {
    if (!call || typeof call !== 'object') return
    const { method, params } = call as { method?: unknown; params?: unknown }
    if (typeof method !== 'string' || !executing.has(method)) return
    executions += executionsOf(method, params)
    const where = calls.length > 1 ? `[${index}].params` : 'params'
    const found: { path: string; gas: unknown }[] = []
    gasValues(params, where, found)
    for (const { path, gas } of found) {
      const amount = gasOf(gas)
      if (amount !== null && amount > MAX_RPC_CALL_GAS)
        throw new SandboxError(
          400,
          `${method}: ${path} asks for ${amount} gas; a call on the sandbox's shared chain gets at most ${MAX_RPC_CALL_GAS} (the block gas limit)`,
        )
    }
  })
  if (executions > MAX_RPC_EXECUTIONS)
    throw new SandboxError(
      400,
      `this request executes ${executions} calls (eth_call, eth_estimateGas, ...); one /rpc request executes at most ${MAX_RPC_EXECUTIONS}: split the batch`,
    )
  return executions
}

/** The /rpc requests executing code now, per client address and in all; past a bound, 429. */
export class RpcExecutionGate {
  readonly #byGroup = new Map<string, number>()
  #total = 0
  constructor(readonly limits: { perAddress: number; total: number }) {}

  /** Counts a request of `address` that executes code; the function returned gives its place back (once). */
  enter(address: string): () => void {
    const group = addressGroup(address)
    const mine = this.#byGroup.get(group) ?? 0
    if (mine >= this.limits.perAddress)
      throw new SandboxError(
        429,
        `this address has ${mine} /rpc requests executing contract code (eth_call, eth_estimateGas, ...) under way, the most one address may: send the next when one has answered (the sandbox's operator raises the bound with --rpc-executing)`,
        { headers: { 'retry-after': '1' } },
      )
    if (this.#total >= this.limits.total)
      throw new SandboxError(
        429,
        `the shared chain is executing ${this.#total} /rpc requests' contract code (eth_call, eth_estimateGas, ...), the most it runs at once (twice --rpc-executing): try again in a second`,
        { headers: { 'retry-after': '1' } },
      )
    this.#byGroup.set(group, mine + 1)
    this.#total++
    let held = true
    return () => {
      if (!held) return
      held = false
      this.#total--
      const left = (this.#byGroup.get(group) ?? 1) - 1
      if (left > 0) this.#byGroup.set(group, left)
      else this.#byGroup.delete(group)
    }
  }
}

/** Bytes of raw transactions in a JSON-RPC body's eth_sendRawTransaction calls. */
export function rawTransactionBytes(calls: readonly unknown[]): number {
  let bytes = 0
  for (const call of calls) {
    const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown }
    const raw = Array.isArray(params) ? params[0] : undefined
    if (method === 'eth_sendRawTransaction' && typeof raw === 'string')
      bytes += Math.ceil((raw.length - 2) / 2)
  }
  return bytes
}

/**
 * What one client address may put on the shared chain a minute: every block anvil mines stays in its memory (and in
 * the state it saves), and a stranger's transactions cost it nothing (anvil's public accounts hold 10,000 ETH each):
 * one address sending 100 KB transactions grew anvil by 54 MB in 16 s, on the way to running it out of memory for
 * every key. Past the bound (KB of raw transactions a minute), 429 with Retry-After naming --rpc-tx-kb.
 */
export class RawTransactionRate {
  readonly #windows = new Map<string, { since: number; bytes: number }>()
  constructor(readonly kbPerMinute: number) {}

  admit(address: string, bytes: number, now: number): void {
    if (bytes === 0) return
    const group = addressGroup(address)
    let window = this.#windows.get(group)
    if (!window || now - window.since >= 60_000) {
      // forget addresses whose minute is over, so the map stays as small as the traffic of one minute
      for (const [a, w] of this.#windows) if (now - w.since >= 60_000) this.#windows.delete(a)
      window = { since: now, bytes: 0 }
      this.#windows.set(group, window)
    }
    if (window.bytes + bytes > this.kbPerMinute * 1024)
      throw new SandboxError(
        429,
        `this address sent ${Math.round(window.bytes / 1024)} KB of transactions this minute; the shared chain takes at most ${this.kbPerMinute} KB a minute from one address (the sandbox's operator raises it with --rpc-tx-kb)`,
        { headers: { 'retry-after': String(Math.max(1, Math.ceil((window.since + 60_000 - now) / 1000))) } },
      )
    window.bytes += bytes
  }
}
