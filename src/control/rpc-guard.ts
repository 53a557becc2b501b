// The guard of the JSON-RPC proxy (/rpc, /rpc/{network}). The chain is shared by every key, so methods that change
// it for everyone (anvil_*, evm_*, hardhat_*, debug_*, and anything else that is not eth_*, net_* or web3_*) need an
// API key, are refused to web pages, and in strict mode (--api-keys) pass only when --rpc-admin allows them.
// What wallets need (eth_*, net_*, web3_*) stays open, CORS included, within what one call may make the chain
// execute (rpc-cost.ts).
import type { MaybePromise } from '../contract/maybe-promise.ts'
import type { CallInfo, Middleware } from '../contract/middleware.ts'
import { MAX_BODY_BYTES, type NeutralResponse } from '../contract/neutral.ts'
import { SandboxError, UnauthorizedError } from '../contract/sandbox-error.ts'
import { clientAddress } from '../contract/security.ts'
import { checkRpcCost, RawTransactionRate, RpcExecutionGate, rawTransactionBytes } from './rpc-cost.ts'

/** Options of the /rpc guard. */
export interface RpcGuardOptions {
  /** strict mode: only these API keys pass */
  apiKeys?: ReadonlySet<string>
  /** strict mode: the keys it admits besides `apiKeys` (the live keys of claimable sandboxes) */
  admitsKey?: (key: string) => boolean
  /**
   * the keys of claimable sandboxes (--claimable): strangers' keys, refused every admin method (each changes the chain
   * of every key), whatever --rpc-admin allows the server's other keys
   */
  claimedKey?: (key: string) => boolean
  /**
   * Admin methods strict-mode keys may call: exact names, prefixes ending in `*` (`evm_*`), or `*` for all.
   * Without strict mode, any API key may call them.
   */
  rpcAdmin?: readonly string[]
  /** the listener is not loopback-only: as in strict mode, admin methods pass only when --rpc-admin allows them */
  exposed?: boolean
  /** /rpc requests executing contract code one client address may have under way (everyone: twice it); none: no bound */
  executingPerAddress?: number
  /** KB of raw transactions one client address may send a minute; none: no bound */
  txKbPerMinute?: number
}

// eth_sendUnsignedTransaction (anvil) sends from any address without its key: an impersonation, not a wallet call.
const openMethod = /^(eth|net|web3)_/
const adminEthMethods = new Set(['eth_sendUnsignedTransaction'])

/** Whether a JSON-RPC method changes or reads the shared chain beyond what a wallet does (needs a key). */
export function isAdminRpcMethod(method: string): boolean {
  return !openMethod.test(method) || adminEthMethods.has(method)
}

/** The calls of a JSON-RPC body (one call or a batch); [] when the body is not JSON. */
export function rpcCalls(rawBody: string | undefined): unknown[] {
  // past the limit the dispatcher answers 413 before anything reaches the chain
  if (!rawBody || rawBody.length > MAX_BODY_BYTES) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(rawBody)
  } catch {
    return []
  }
  return Array.isArray(parsed) ? parsed : [parsed]
}

/** The method names of a JSON-RPC body (one call or a batch); [] when the body is not JSON-RPC. */
export function rpcMethods(rawBody: string | undefined): string[] {
  return methodsOf(rpcCalls(rawBody))
}

function methodsOf(calls: readonly unknown[]): string[] {
  return calls.flatMap((c) =>
    c && typeof c === 'object' && typeof (c as { method?: unknown }).method === 'string'
      ? [(c as { method: string }).method]
      : [],
  )
}

function allowedBy(patterns: readonly string[], method: string): boolean {
  return patterns.some(
    (p) => p === '*' || p === method || (p.endsWith('*') && method.startsWith(p.slice(0, -1))),
  )
}

// The Tron node's calls that run contract code on its anvil (TronGrid's constant calls and energy estimates): bounded
// with /rpc's executing calls.
const TRON_EXECUTING = /\/tron\/wallet(solidity)?\/(triggerconstantcontract|estimateenergy)\/?$/i

/** Whether a route is the JSON-RPC proxy. */
export function isRpcRoute(path: string): boolean {
  return path === '/rpc' || path.startsWith('/rpc/')
}

/** Refuses admin JSON-RPC methods to callers without a key, to web pages, and in strict mode unless allowed. */
export function rpcGuardMiddleware(options: RpcGuardOptions): Middleware {
  const allowed = options.rpcAdmin ?? []
  const perAddress = options.executingPerAddress
  const executing =
    perAddress === undefined ? null : new RpcExecutionGate({ perAddress, total: 2 * perAddress })
  const kb = options.txKbPerMinute
  const sent = kb === undefined ? null : new RawTransactionRate(kb)
  // not an async function around every call: only /rpc calls and the Tron node's executing ones take the guard's path
  return (call, next) =>
    isRpcRoute(call.route.path)
      ? guard(call, next)
      : executing && TRON_EXECUTING.test(call.request.path)
        ? gated(executing, call, next)
        : next()
  async function gated(
    gate: RpcExecutionGate,
    call: CallInfo,
    next: () => MaybePromise<NeutralResponse>,
  ): Promise<NeutralResponse> {
    const release = gate.enter(clientAddress(call.request))
    try {
      return await next()
    } finally {
      release()
    }
  }
  async function guard(call: CallInfo, next: () => MaybePromise<NeutralResponse>): Promise<NeutralResponse> {
    const calls = rpcCalls(call.request.rawBody)
    sent?.admit(clientAddress(call.request), rawTransactionBytes(calls), Date.now())
    if (checkRpcCost(calls) === 0 || !executing) return admitted(call, calls, next)
    return gated(executing, call, () => admitted(call, calls, next))
  }
  async function admitted(
    call: CallInfo,
    calls: readonly unknown[],
    next: () => MaybePromise<NeutralResponse>,
  ): Promise<NeutralResponse> {
    const admin = methodsOf(calls).filter(isAdminRpcMethod)
    if (admin.length === 0) return next()
    const { headers } = call.request
    const names = [...new Set(admin)].join(', ')
    // A web page can send text/plain without a preflight, and any page sends an Origin: neither may touch the chain.
    if (headers.origin !== undefined || headers['sec-fetch-site'] !== undefined) {
      throw new SandboxError(
        403,
        `${names} changes the chain of every key: refused to web pages (the call has an Origin); call it from a script or a test`,
      )
    }
    const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (type !== 'application/json') {
      throw new SandboxError(415, `${names} needs an application/json body (got ${type || 'none'})`)
    }
    const key = headers['x-api-key']?.trim()
    if (!key) {
      throw new UnauthorizedError(
        `${names} changes the chain of every key: send an x-api-key (eth_*, net_* and web3_* need none)`,
      )
    }
    if (options.claimedKey?.(key))
      throw new SandboxError(
        403,
        `${names} changes the chain of every key: refused to the keys of claimable sandboxes (--rpc-admin allows the server's other keys only)`,
      )
    if (options.apiKeys || options.exposed) {
      if (options.apiKeys && !options.apiKeys.has(key) && !options.admitsKey?.(key))
        throw new UnauthorizedError()
      const refused = [...new Set(admin)].filter((m) => !allowedBy(allowed, m))
      if (refused.length > 0) {
        throw new SandboxError(
          403,
          `${refused.join(', ')} changes the chain of every key: refused ${options.apiKeys ? 'in strict mode' : 'on a shared listener'} (allow it with --rpc-admin ${refused[0]})`,
        )
      }
    }
    return next()
  }
}
