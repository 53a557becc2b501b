// `/mcp` on the sandbox's server: the MCP streamable HTTP transport, authenticated like every call (the key in
// x-api-key, checked by the dispatcher itself, strict mode included), each session bound to the key that opened it.
// Bounded like every stream a stranger can open: sessions per key and in all, an idle session closed, the body size;
// past a bound 429 or 413 in the API's error shape, naming the limit and the flag that raises it. Answers are JSON
// (no server-sent-events stream is held open: GET answers 405, which the protocol allows).
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { readCappedBody } from '../contract/capped-body.ts'
import { type ClaimedKeys, claimedShare, claimedShareNote } from '../contract/claimed-share.ts'
import { MAX_BODY_BYTES, type NeutralRequest } from '../contract/neutral.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { type SecuritySettings, trustedOrigin } from '../contract/security.ts'
import { type Dispatching, dispatchApi } from './api.ts'
import { buildMcpServer } from './tools.ts'
import { packageVersion } from './version.ts'

/** The path the MCP server answers on. */
export const MCP_PATH = '/mcp'

/** Bounds of `/mcp`. */
export interface McpHttpOptions {
  /** sessions one key may hold open (--mcp-sessions; default 5) */
  sessionsPerKey?: number
  /** sessions of every key together (--mcp-sessions-total; default 200) */
  sessionsTotal?: number
  /** a session unused this long is closed, in ms (--mcp-idle in seconds; default 10 minutes) */
  idleMs?: number
  /** the keys of claimable sandboxes: their sessions together are at most half of `sessionsTotal` */
  claimed?: ClaimedKeys
  /**
   * whether a key's claimable sandbox has expired (`closeKey` closes its sessions then): a session whose key expired
   * while it was being opened is closed once it is
   */
  expired?: (key: string) => boolean
}

export const MCP_DEFAULTS = { sessionsPerKey: 5, sessionsTotal: 200, idleMs: 600_000 } as const
/** The longest idle bound a timer can hold (about 24.8 days): a longer one is this one. */
export const MAX_MCP_IDLE_MS = 2 ** 31 - 1

/** What `/mcp` needs of a sandbox. */
export interface McpTarget extends Dispatching {
  log(message: string, error?: unknown): void
  shared: { security: SecuritySettings }
}

interface Session {
  key: string
  transport: StreamableHTTPServerTransport
  server: McpServer
  timer?: NodeJS.Timeout
}

/** The request listener with `/mcp` in front of `inner`, and the function that closes every session. */
export function withMcp(
  target: McpTarget,
  inner: RequestListener,
  options: McpHttpOptions = {},
): {
  listener: RequestListener
  close(): Promise<void>
  /** closes the sessions of one key (a claimed key that expired) */
  closeKey(key: string): Promise<void>
  sessions(key?: string): number
} {
  const limits = { ...MCP_DEFAULTS, ...options }
  limits.idleMs = Math.min(limits.idleMs, MAX_MCP_IDLE_MS)
  const sessions = new Map<string, Session>()
  /** sessions of each key, open or being opened */
  const held = new Map<string, number>()
  let heldTotal = 0
  /** sessions of claimed keys */
  let heldClaimed = 0
  const claimed = limits.claimed ?? (() => false)
  const take = (key: string) => {
    held.set(key, (held.get(key) ?? 0) + 1)
    heldTotal++
    const ofClaimed = claimed(key)
    if (ofClaimed) heldClaimed++
    let given = false
    return () => {
      if (given) return
      given = true
      const left = (held.get(key) ?? 1) - 1
      if (left > 0) held.set(key, left)
      else held.delete(key)
      heldTotal--
      if (ofClaimed) heldClaimed--
    }
  }
  const releases = new Map<string, () => void>()

  const end = async (id: string) => {
    const session = sessions.get(id)
    if (!session) return
    sessions.delete(id)
    clearTimeout(session.timer)
    releases.get(id)?.()
    releases.delete(id)
    await session.server.close().catch(() => {})
  }
  const touch = (id: string, session: Session) => {
    clearTimeout(session.timer)
    session.timer = setTimeout(() => void end(id), limits.idleMs)
    session.timer.unref()
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = req.headers as Record<string, string>
    const neutral: NeutralRequest = {
      method: req.method ?? 'GET',
      path: MCP_PATH,
      query: {},
      headers,
      rawBody: undefined,
      ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
    }
    // a page of another origin (DNS rebinding included) never drives a key's tools
    if (!trustedOrigin(neutral, target.shared.security, 'control-write'))
      return refuse(res, new SandboxError(403, 'MCP calls from this Origin are not allowed'))
    if (req.method !== 'POST' && req.method !== 'DELETE')
      return refuse(
        res,
        new SandboxError(405, 'POST MCP messages to /mcp (no server-sent-events stream is offered)', {
          headers: { allow: 'POST, DELETE' },
        }),
      )
    const key = headers['x-api-key']?.trim()
    if (!key)
      return refuse(
        res,
        new SandboxError(401, 'Send your API key in x-api-key: an MCP session acts as that key', {
          body: { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' },
        }),
      )
    const id = headers['mcp-session-id']
    if (id !== undefined) {
      const session = sessions.get(id)
      // another key's session is as unknown as one that never was
      if (!session || session.key !== key)
        return refuse(res, new SandboxError(404, 'No such MCP session: initialize a new one'))
      touch(id, session)
      if (req.method === 'DELETE') {
        await session.transport.handleRequest(req, res)
        await end(id)
        return
      }
      const body = await readJson(req)
      if (body instanceof SandboxError) return refuse(res, body)
      await session.transport.handleRequest(req, res, body)
      return
    }
    if (req.method !== 'POST') return refuse(res, new SandboxError(400, 'No MCP session id given'))
    const body = await readJson(req)
    if (body instanceof SandboxError) return refuse(res, body)
    if (!isInitializeRequest(body))
      return refuse(res, new SandboxError(400, 'Initialize an MCP session first (no mcp-session-id given)'))
    if ((held.get(key) ?? 0) >= limits.sessionsPerKey)
      return refuse(
        res,
        new SandboxError(
          429,
          `A key may hold at most ${limits.sessionsPerKey} MCP sessions open at once: close one (DELETE /mcp), let one idle out, or start the sandbox with a higher --mcp-sessions`,
          { headers: { 'retry-after': '5' } },
        ),
      )
    if (heldTotal >= limits.sessionsTotal)
      return refuse(
        res,
        new SandboxError(
          429,
          `The sandbox holds its most MCP sessions (${limits.sessionsTotal}, every key's): try again later, or start the sandbox with a higher --mcp-sessions-total`,
          { headers: { 'retry-after': '5' } },
        ),
      )
    const share = claimedShare(limits.sessionsTotal)
    if (heldClaimed >= share && claimed(key))
      return refuse(
        res,
        new SandboxError(
          429,
          `The sandbox holds its most MCP sessions: ${claimedShareNote(`${share} MCP sessions`, '--mcp-sessions-total')}`,
          { headers: { 'retry-after': '5' } },
        ),
      )
    const release = take(key)
    try {
      const api = dispatchApi(target, key, neutral)
      // the key is checked by the dispatcher, as on every call (strict mode, portal keys, refused keys)
      const probe = await api('GET', '/__sandbox/webhooks/deliveries')
      if (probe.status === 401 || probe.status === 403) {
        release()
        res.writeHead(probe.status, { 'content-type': 'application/json; charset=utf-8' })
        res.end(JSON.stringify(probe.body))
        return
      }
      const server = buildMcpServer(api, packageVersion())
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sessionId) => {
          const session: Session = { key, transport, server }
          sessions.set(sessionId, session)
          releases.set(sessionId, release)
          touch(sessionId, session)
        },
      })
      await server.connect(transport)
      await transport.handleRequest(req, res, body)
      if (!transport.sessionId || !sessions.has(transport.sessionId)) {
        release()
        await server.close().catch(() => {})
      } else if (limits.expired?.(key)) {
        // its key expired after the probe admitted it: `closeKey` ran before this session was there
        await end(transport.sessionId)
      }
    } catch (error) {
      release()
      throw error
    }
  }

  return {
    listener(req, res) {
      // not /mcp (nearly every call) is told without cutting the target: it would have to start with the path
      const url = req.url ?? '/'
      if (!url.startsWith(MCP_PATH) || (url.length > MCP_PATH.length && url[MCP_PATH.length] !== '?'))
        return inner(req, res)
      handle(req, res).catch((error: unknown) => {
        target.log('/mcp: unexpected error', error)
        if (!res.headersSent) refuse(res, new SandboxError(500, 'Internal server error'))
        else res.end()
      })
    },
    async close() {
      await Promise.all([...sessions.keys()].map(end))
    },
    async closeKey(key) {
      await Promise.all([...sessions].filter(([, session]) => session.key === key).map(([id]) => end(id)))
    },
    sessions: (key) => (key === undefined ? heldTotal : (held.get(key) ?? 0)),
  }
}

function refuse(res: ServerResponse, error: SandboxError): void {
  res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', ...error.headers })
  res.end(JSON.stringify(error.body))
}

/** The JSON body, at most the API's body bound (1 MB): past it 413, not JSON 400, both in the error shape. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readCappedBody(req)
  if ('over' in body)
    return new SandboxError(
      413,
      `An MCP message is at most ${MAX_BODY_BYTES} bytes, the API's body bound: send smaller arguments`,
    )
  if ('cut' in body) return new SandboxError(400, 'The MCP message was cut short')
  try {
    return JSON.parse(body.text)
  } catch {
    return new SandboxError(400, 'An MCP message is a JSON-RPC message in JSON')
  }
}
