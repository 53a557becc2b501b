import { SandboxError } from '../contract/sandbox-error.ts'

/** 503 in the service's shape: a call needed the chain and the chain did not answer (restarting, or gone). */
export class ChainUnavailableError extends SandboxError {
  override name = 'ChainUnavailableError'
  constructor(detail: string) {
    super(503, `Chain unavailable: ${detail}`)
  }
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'EHOSTUNREACH',
  // the lean JSON-RPC client's answer that is not JSON-RPC (src/chain/json-rpc.ts NOT_JSON_RPC): a gateway's error page
  'ENOTJSONRPC',
])

/**
 * Whether an error means the chain's node could not be reached (viem's HttpRequestError / WebSocket errors and
 * TimeoutError, fetch failures with a connection code anywhere in the cause chain) rather than a bug or a refused call.
 */
export function isChainUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const { name, code, cause } = e as { name?: string; code?: string; cause?: unknown }
    if (
      name === 'HttpRequestError' ||
      name === 'WebSocketRequestError' ||
      name === 'SocketClosedError' ||
      name === 'TimeoutError' // viem's transport timeout: a node that stalls
    )
      return true
    if (code && unreachableCodes.has(code)) return true
    e = cause
  }
  return false
}
