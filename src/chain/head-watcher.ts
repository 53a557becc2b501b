// Tells when a chain may have changed: anvil pushes every new block over a WebSocket on its own port
// (eth_subscribe newHeads), so detection needs no fast polling. A slow heartbeat still runs, because some
// changes produce no block (evm_revert, an anvil restart); while the socket is down, it runs fast instead.
import WebSocket from 'ws'
import { OWN_RPC_HEADERS } from './own-traffic.ts'

/** Options of watchHeads. */
export interface HeadWatcherOptions {
  /** the chain's HTTP JSON-RPC URL; the socket is the same host and port over ws:// */
  rpcUrl: string
  /** called on every pushed head and every heartbeat (the caller reads the chain itself) */
  onTick: () => void
  /** heartbeat while the socket is up (default 250 ms): catches reverts and restarts */
  heartbeatMs?: number
  /** polling interval while the socket is down (default 25 ms) */
  fallbackMs?: number
  /** delay before reopening a closed socket (default 200 ms) */
  reconnectMs?: number
}

/** A running watch; stop() closes the socket and the timers. */
export interface HeadWatcher {
  /** whether the push channel is open (false: polling at the fallback rate) */
  readonly pushing: boolean
  stop(): void
}

/** The WebSocket URL of an anvil reached at `rpcUrl` (same host and port). */
export function socketUrlOf(rpcUrl: string): string | null {
  const url = new URL(rpcUrl)
  if (url.protocol === 'http:') url.protocol = 'ws:'
  else if (url.protocol === 'https:') url.protocol = 'wss:'
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return null
  return url.toString()
}

/** Watches a chain's heads: push when the node offers it, a heartbeat always, fast polling as a fallback. */
export function watchHeads(options: HeadWatcherOptions): HeadWatcher {
  const heartbeatMs = options.heartbeatMs ?? 250
  const fallbackMs = options.fallbackMs ?? 25
  const reconnectMs = options.reconnectMs ?? 200
  const socketUrl = socketUrlOf(options.rpcUrl)
  let socket: WebSocket | null = null
  let subscribed = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let reconnectTimer: NodeJS.Timeout | undefined

  const arm = () => {
    clearTimeout(timer)
    if (stopped) return
    timer = setTimeout(
      () => {
        options.onTick()
        arm()
      },
      subscribed ? heartbeatMs : fallbackMs,
    )
    timer.unref()
  }

  const open = () => {
    if (stopped || !socketUrl) return
    const ws = new WebSocket(socketUrl, { headers: OWN_RPC_HEADERS })
    socket = ws
    ws.on('open', () => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    })
    ws.on('message', (raw) => {
      let message: { id?: number; result?: unknown; method?: string; error?: unknown }
      try {
        message = JSON.parse(String(raw))
      } catch {
        return
      }
      if (message.id === 1) {
        subscribed = typeof message.result === 'string'
        // Catch up on whatever happened while the socket was down.
        options.onTick()
        arm()
      } else if (message.method === 'eth_subscription') options.onTick()
    })
    ws.on('error', () => {})
    ws.on('close', () => {
      subscribed = false
      if (socket === ws) socket = null
      if (stopped) return
      arm()
      reconnectTimer = setTimeout(open, reconnectMs)
      reconnectTimer.unref()
    })
    // The socket must never keep the process alive on its own.
    ;(ws as unknown as { _socket?: { unref?: () => void } })._socket?.unref?.()
    ws.once('open', () => (ws as unknown as { _socket?: { unref?: () => void } })._socket?.unref?.())
  }

  open()
  arm()
  return {
    get pushing() {
      return subscribed
    },
    stop() {
      stopped = true
      clearTimeout(timer)
      clearTimeout(reconnectTimer)
      socket?.removeAllListeners('close')
      socket?.terminate()
      socket = null
    },
  }
}
