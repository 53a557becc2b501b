// What one /rpc request may make the shared chain execute. anvil runs an eth_call for as much gas as the call (or its
// block overrides) asks, well past the block gas limit: one anonymous call of 1e9 gas holds anvil for seconds, 1e12
// for many minutes, and every key's payments, detection and pages wait behind it. So every `gas` and `gasLimit` a
// call sends is at most the block gas limit (what a call without one gets), and a request (one call or a batch)
// executes code at most MAX_RPC_EXECUTIONS times; past either, 400 naming the bound before anything reaches anvil.
import { SandboxError } from '../contract/sandbox-error.ts'

/** The block gas limit of the sandbox's chains: the most gas one call may ask for. */
export const MAX_RPC_CALL_GAS = 30_000_000n
/** Calls that execute contract code (eth_call and the like, each call of eth_simulateV1) in one request. */
export const MAX_RPC_EXECUTIONS = 20

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

/** Refuses (400) a JSON-RPC body that asks the chain for more gas per call, or more executions, than allowed. */
export function checkRpcCost(calls: readonly unknown[]): void {
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
}
