// Session tokens stand in for the dashboard login of the real service (its Auth API issues them with a cookie
// session); the sandbox issues them to any API key, bound to that key's tenant. Each is a sandbox-wide directory
// entry (`directory.sessionToTenant`, saved with --state-dir).
import type { Uses } from '../services.ts'
import { SessionNotFoundError, TooManySessionsError } from './errors.ts'
import type { SessionBody } from './schema.ts'

type Ctx = Uses<'directory' | 'ids' | 'worlds'>

/** Live session tokens one key may hold. */
export const MAX_SESSIONS_PER_KEY = 100

/**
 * The caller's live sessions, forgetting its expired ones on the way; past the bound, 429 naming it. Sessions are
 * rare calls: a scan of the directory's sessions (at most this bound per key) is cheaper than an index kept in step.
 */
function roomForSession(
  sessions: Map<string, { tenant: string; expiresAt: string }>,
  tenant: string,
  now: Date,
) {
  let live = 0
  for (const [token, entry] of sessions) {
    if (entry.tenant !== tenant) continue
    if (new Date(entry.expiresAt) <= now) sessions.delete(token)
    else live++
  }
  if (live >= MAX_SESSIONS_PER_KEY) throw new TooManySessionsError(MAX_SESSIONS_PER_KEY)
}

/**
 * Issues a session token bound to the caller's tenant, expiring on the tenant's default clock (the one authentication
 * reads).
 */
export function openSession(ctx: Ctx, body: SessionBody) {
  const clock = ctx.worlds.get(ctx.world.tenant).clock
  roomForSession(ctx.directory.sessionToTenant, ctx.world.tenant, clock.now())
  const token = `sess_${ctx.ids.hex(24)}`
  const expiresAt = new Date(clock.now().getTime() + (body.ttlSeconds ?? 86400) * 1000)
  ctx.directory.sessionToTenant.set(token, {
    tenant: ctx.world.tenant,
    expiresAt: expiresAt.toISOString(),
  })
  return { token, tokenType: 'Bearer', expiresAt: expiresAt.toISOString() }
}

/** Ends one of the caller's session tokens (404 for a token it does not hold). */
export function endSession(ctx: Ctx, token: string) {
  const entry = ctx.directory.sessionToTenant.get(token)
  if (!entry || entry.tenant !== ctx.world.tenant) throw new SessionNotFoundError()
  ctx.directory.sessionToTenant.delete(token)
}
