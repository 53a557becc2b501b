import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ClaimableOptions } from './claimable/index.ts'
import { isLoopbackHost } from './contract/security.ts'
import type { McpHttpOptions } from './mcp/index.ts'
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
import { createRequestListener } from './transports/node-http.ts'
import { startingGate } from './transports/starting.ts'

/** Options of startServer: the sandbox's options plus where to listen. */
export interface StartServerOptions extends SandboxOptions {
  /** 0 (default) lets the OS pick a free port */
  port?: number
  host?: string
  /** serve through the Express app instead of the bare request listener (same routes, slower; for tests of createApp) */
  express?: boolean
  /** how long a client may take to send its headers and its whole request, in ms: slower ones get 408 and are closed */
  timeouts?: ServerTimeouts
  /** `/mcp`, the MCP server for coding agents: its bounds, or false to leave it out */
  mcp?: McpHttpOptions | false
  /** claimable sandboxes (POST /__sandbox/sandboxes): off unless given */
  claimable?: ClaimableOptions
}

/** Limits on slow or stuck clients (Node's headersTimeout / requestTimeout). */
export interface ServerTimeouts {
  /** until the last header line (default 10 000) */
  headersMs?: number
  /** until the last body byte (default 30 000; at least headersMs) */
  requestMs?: number
}

/** The Node server options that close slow clients within the configured time, checked every second or faster. */
export function timeoutOptions(timeouts: ServerTimeouts = {}) {
  const headersTimeout = timeouts.headersMs ?? 10_000
  const requestTimeout = Math.max(timeouts.requestMs ?? 30_000, headersTimeout)
  for (const [name, ms] of Object.entries({ headersTimeout, requestTimeout }))
    if (!Number.isFinite(ms) || ms <= 0) throw new Error(`invalid ${name} ${ms}`)
  return {
    headersTimeout,
    requestTimeout,
    // Node checks the two timeouts on this interval (30 s by default): a stuck client would get up to that much more
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeout / 4))),
  }
}

/** How long an idle keep-alive connection is kept (above the 60 s idle timeout of common proxies). */
export const KEEP_ALIVE_MS = 65_000

/** A running sandbox server. */
export interface RunningServer {
  url: string
  port: number
  sandbox: Sandbox
  server: Server
  /** stops listening, then stops the chain */
  close(): Promise<void>
}

/**
 * Creates a sandbox and serves it over HTTP (what `npm start` and the e2e tests run). The port is bound while the
 * sandbox starts (calls that arrive before it is ready wait for it, or answer 503 in the error shape: startingGate); a
 * port in use is reported as such.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  // a listener other than loopback is a shared host: the stricter defaults of SandboxOptions.exposed apply
  const exposed = options.exposed ?? !isLoopbackHost(options.host ?? '127.0.0.1')
  // claimable sandboxes: their claims are read first, strict mode admits their live keys (admitsKey)
  const claimable = options.claimable
    ? (await import('./claimable/index.ts')).prepareClaimable(options.claimable, options.stateDir)
    : undefined
  const creating = createSandbox({
    ...options,
    exposed,
    ...(claimable ? { admitsKey: claimable.admitsKey, claimedKey: claimable.claimedKey } : {}),
  })
  // the MCP SDK loads while the sandbox starts, not before every command's first line
  const mcpLoading = options.mcp === false ? null : import('./mcp/index.ts')
  mcpLoading?.catch(() => {})
  let mcp: ReturnType<Awaited<NonNullable<typeof mcpLoading>>['withMcp']> | undefined
  let claims: import('./claimable/index.ts').Claimable | undefined
  const ready = creating.then(async (sandbox) => {
    claims = claimable?.install(sandbox)
    // with claimable sandboxes every call goes through their door (expired keys refused, calls under way counted)
    const target = claims?.guarded ?? sandbox
    let listener = options.express
      ? ((await import('./transports/express.ts')).createApp(target) as RequestListener)
      : createRequestListener(target)
    if (mcpLoading) {
      const sessions = (await mcpLoading).withMcp(target, listener, {
        ...(options.mcp || {}),
        // claimed keys' sessions are at most half of the total, and close when their key expires
        ...(claimable
          ? {
              claimed: claimable.claimedKey,
              expired: (key: string) => claimable.claimedKey(key) && !claimable.admitsKey(key),
            }
          : {}),
      })
      mcp = sessions
      listener = sessions.listener
      // an expired claimed key's MCP sessions close with it
      claims?.onExpired((key) => void sessions.closeKey(key))
    }
    return claims ? claims.wrap(listener) : listener
  })
  const timeouts = timeoutOptions(options.timeouts)
  // calls during the start wait for it as long as a client may take to send its request, then answer 503
  const server = createServer(timeouts, startingGate(ready, { waitMs: timeouts.requestTimeout, exposed }))
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s, shorter than most clients' pools and proxies
  // expect): a client that reuses a socket the server has just timed out gets ECONNRESET, which a busy client (its
  // event loop late to see the close) hits often.
  server.keepAliveTimeout = KEEP_ALIVE_MS
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const [created, bound] = await Promise.allSettled([ready.then(() => creating), listening])
  if (created.status === 'rejected' || bound.status === 'rejected') {
    if (created.status === 'fulfilled') await created.value.close()
    if (bound.status === 'fulfilled') await new Promise((resolve) => server.close(resolve))
    // a busy port is the more useful message: the sandbox may only have failed for want of it
    throw bound.status === 'rejected'
      ? listenError(bound.reason, options)
      : (created as PromiseRejectedResult).reason
  }
  const sandbox = created.value
  server.on('error', acceptFailures(sandbox.log))
  const { port } = server.address() as AddressInfo
  // webhooks never reach the sandbox's own port unless the operator allows it
  sandbox.shared.webhooks.policy.protectPort(port)
  const host =
    options.host === undefined || options.host === '0.0.0.0' || options.host === '::'
      ? '127.0.0.1'
      : options.host
  return {
    url: `http://${host}:${port}`,
    port,
    sandbox,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await mcp?.close()
      claims?.close()
      await sandbox.close()
    },
  }
}

/** How often a run of failed accepts is reported (ms). */
const ACCEPT_REPORT_MS = 10_000

/**
 * The listener's errors once it listens: a connection it could not accept (EMFILE: no file descriptor left, ENFILE,
 * ENOMEM). With no descriptor left, libuv frees the one it keeps in reserve to accept and close the waiting
 * connections (their clients see a reset); what it cannot handle so comes as the server's 'error' (unheard, it would
 * end the process). The server keeps listening either way and accepts again once descriptors are free. Reported at
 * most every ACCEPT_REPORT_MS, with how many failed since.
 */
export function acceptFailures(log: (message: string, error?: unknown) => void): (error: Error) => void {
  let reportedAt = Number.NEGATIVE_INFINITY
  let failed = 0
  return (error) => {
    failed++
    const now = Date.now()
    if (now - reportedAt < ACCEPT_REPORT_MS) return
    reportedAt = now
    const code = (error as NodeJS.ErrnoException).code ?? error.message
    log(
      `cannot accept connections (${code}${code === 'EMFILE' || code === 'ENFILE' ? ': no file descriptor left' : ''}; ${failed} failed accepts since the last report): still listening, serving again as descriptors free up`,
    )
    failed = 0
  }
}

/** A listen failure that names its cause and what to do about it. */
function listenError(error: unknown, options: StartServerOptions): unknown {
  const code = (error as NodeJS.ErrnoException).code
  const where = `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`
  if (code === 'EADDRINUSE')
    return new Error(
      `port ${options.port} is already in use on ${options.host ?? '127.0.0.1'} (another sandbox or server?): stop it, choose another port with --port <n>, or --port 0 for any free port`,
      { cause: error },
    )
  if (code === 'EACCES')
    return new Error(
      `not allowed to listen on ${where} (ports below 1024 need privileges): choose another port with --port <n>, or --port 0 for any free port`,
      { cause: error },
    )
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new Error(
      `cannot listen on ${where}: ${options.host} is not an address of this machine; use --host 127.0.0.1 (local) or 0.0.0.0 (every interface)`,
      { cause: error },
    )
  return error
}
