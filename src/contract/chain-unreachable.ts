// Whether a chain node could not be reached: the API answers such a failure 503 (src/errors/), and the watchers read
// the same blocks again instead of skipping what they could not read (src/chain/commerce-escrow.ts).

/** The code the lean JSON-RPC client (src/chain/json-rpc.ts) gives an answer that is not JSON-RPC: a gateway's page. */
export const NOT_JSON_RPC = 'ENOTJSONRPC'

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'EHOSTUNREACH',
  NOT_JSON_RPC,
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
