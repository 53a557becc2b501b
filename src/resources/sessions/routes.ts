// Session tokens stand in for the dashboard login of the real service (its Auth API issues them with a cookie
// session); the sandbox issues them to any API key, bound to that key's tenant.
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import { NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'
import type { Services } from '../services.ts'

const defineRoute = routesUsing<Services<'directory' | 'ids' | 'worlds'>>()

const SessionBody = z.object({
  /** lifetime on the tenant's clock (default one day, at most 30 days) */
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 86400)
    .optional(),
})

/** Live session tokens one key may hold: each is a sandbox-wide directory entry (saved with --state-dir). */
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
  if (live >= MAX_SESSIONS_PER_KEY)
    throw new SandboxError(
      429,
      `A key may hold at most ${MAX_SESSIONS_PER_KEY} live session tokens: end one with DELETE /__sandbox/sessions/{token} or let it expire`,
    )
}

/** `POST /__sandbox/sessions` issues a Bearer token for endpoint 15 and its neighbours; DELETE ends it. */
export const sessionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/sessions',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Issues a session token (Authorization: Bearer) bound to the caller's tenant",
    statuses: [201, 429],
    body: SessionBody,
    handler(ctx, { body }) {
      // sessions expire on the tenant's default clock, the one authentication reads
      const clock = ctx.worlds.get(ctx.world.tenant).clock
      roomForSession(ctx.directory.sessionToTenant, ctx.world.tenant, clock.now())
      const token = `sess_${ctx.ids.hex(24)}`
      const expiresAt = new Date(clock.now().getTime() + (body.ttlSeconds ?? 86400) * 1000)
      ctx.directory.sessionToTenant.set(token, {
        tenant: ctx.world.tenant,
        expiresAt: expiresAt.toISOString(),
      })
      return { status: 201, body: { token, tokenType: 'Bearer', expiresAt: expiresAt.toISOString() } }
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sandbox/sessions/:token',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Ends one of the caller's session tokens",
    statuses: [200, 404],
    params: z.object({ token: z.string() }),
    handler(ctx, { params }) {
      const entry = ctx.directory.sessionToTenant.get(params.token)
      if (!entry || entry.tenant !== ctx.world.tenant) throw new NotFoundError('Session not found')
      ctx.directory.sessionToTenant.delete(params.token)
      return { status: 200, body: { success: true } }
    },
  }),
]
