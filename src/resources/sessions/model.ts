// Session tokens stand in for the dashboard login of the real service (its Auth API issues them with a cookie
// session); the sandbox issues them to any API key, bound to that key's tenant. Each is a sandbox-wide directory
// entry (`directory.sessionToTenant`, saved with --state-dir).
import type { World } from '../../contract/world.ts'
import type { Uses } from '../services.ts'
import { SessionNotFoundError, TooManySessionsError } from './errors.ts'
import type { SessionBody } from './schema.ts'
import { sessionTokenState } from './tables.ts'

type Ctx = Uses<'directory' | 'ids' | 'worlds'>

/** Live session tokens one key may hold. */
export const MAX_SESSIONS_PER_KEY = 100

type Sessions = Map<string, { tenant: string; expiresAt: string }>

/**
 * The tokens `tenant` opened (its default world's index): filled from the directory once per world in memory (the
 * directory holds the tokens --state-dir brought back); a token ended or expired elsewhere (a Bearer call, the key's
 * worlds leaving memory) is dropped when the key next opens one.
 */
function tokensOf(sessions: Sessions, tenant: string, home: World): Set<string> {
  const index = sessionTokenState(home)
  if (!index.filled) {
    index.filled = true
    for (const [token, entry] of sessions) if (entry.tenant === tenant) index.tokens.add(token)
  }
  return index.tokens
}

/** The caller's live sessions, forgetting its expired ones on the way; past the bound, 429 naming it. */
function roomForSession(sessions: Sessions, tokens: Set<string>, tenant: string, now: Date) {
  let live = 0
  for (const token of tokens) {
    const entry = sessions.get(token)
    if (entry?.tenant !== tenant) tokens.delete(token)
    else if (new Date(entry.expiresAt) <= now) {
      sessions.delete(token)
      tokens.delete(token)
    } else live++
  }
  if (live >= MAX_SESSIONS_PER_KEY) throw new TooManySessionsError(MAX_SESSIONS_PER_KEY)
}

/**
 * Issues a session token bound to the caller's tenant, expiring on the tenant's default clock (the one authentication
 * reads).
 */
export function openSession(ctx: Ctx, body: SessionBody) {
  // the key's default world: its clock is the one authentication reads, and it holds the key's token index
  const home = ctx.worlds.get(ctx.world.tenant)
  const { clock } = home
  const sessions = ctx.directory.sessionToTenant
  const tokens = tokensOf(sessions, ctx.world.tenant, home)
  roomForSession(sessions, tokens, ctx.world.tenant, clock.now())
  const token = `sess_${ctx.ids.hex(24)}`
  const expiresAt = new Date(clock.now().getTime() + (body.ttlSeconds ?? 86400) * 1000)
  sessions.set(token, { tenant: ctx.world.tenant, expiresAt: expiresAt.toISOString() })
  tokens.add(token)
  return { token, tokenType: 'Bearer', expiresAt: expiresAt.toISOString() }
}

/** Ends one of the caller's session tokens (404 for a token it does not hold). */
export function endSession(ctx: Ctx, token: string) {
  const entry = ctx.directory.sessionToTenant.get(token)
  if (!entry || entry.tenant !== ctx.world.tenant) throw new SessionNotFoundError()
  ctx.directory.sessionToTenant.delete(token)
}
