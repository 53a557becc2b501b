import { z } from 'zod'
import { parseDateOrTimestamp } from '../contract/primitives.ts'
import { routesUsing } from '../contract/route.ts'
import { BadRequestError } from '../contract/sandbox-error.ts'
import type { SecuritySettings } from '../contract/security.ts'
import type { SandboxState } from './services.ts'

const defineRoute = routesUsing<SandboxState>()

/**
 * `ms` when the clock may move that far: a key's clock stays within `--max-clock-advance` of real time, so the shared
 * chains (which follow the furthest clock) never reach dates that expire another key's permits. 400 past it.
 */
export function boundedAdvance(security: SecuritySettings, now: Date, ms: number): number {
  const limit = Date.now() + security.maxClockAdvanceMs
  if (now.getTime() + ms > limit) {
    const days = Math.floor(security.maxClockAdvanceMs / 86_400_000)
    throw new BadRequestError(
      `The clock may move at most ${days} days past real time (--max-clock-advance): it can reach ${new Date(limit).toISOString()}, not ${new Date(now.getTime() + ms).toISOString()}`,
    )
  }
  return ms
}

const AdvanceBody = z.union([
  z
    .object({
      seconds: z
        .number()
        .positive()
        .max(100 * 365 * 86400),
    })
    .strict(),
  z.object({ to: z.string() }).strict(),
])

/** The tenant clock: read it, move it forward (timed transitions and recurring payments run as they fall due). */
export const clockRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/clock',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The caller's clock and what is scheduled on it",
    statuses: [200],
    handler: (ctx) => ({
      status: 200,
      body: { now: ctx.world.clock.now().toISOString(), pending: ctx.world.clock.pending() },
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/clock/advance',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Moves the caller's clock forward by {seconds} or to {to} (ISO time); the chains' time follows",
    statuses: [200],
    body: AdvanceBody,
    async handler(ctx, { body }) {
      const clock = ctx.world.clock
      let ms: number
      if ('seconds' in body) ms = body.seconds * 1000
      else {
        const to = parseDateOrTimestamp(body.to)
        if (!to) throw new BadRequestError('to must be an ISO 8601 timestamp or a YYYY-MM-DD date')
        ms = to.getTime() - clock.now().getTime()
        if (ms < 0)
          throw new BadRequestError(
            `The clock only moves forward: it is already ${clock.now().toISOString()}`,
          )
      }
      const now = await clock.advance(boundedAdvance(ctx.security, clock.now(), ms))
      return { status: 200, body: { now: now.toISOString(), pending: clock.pending() } }
    },
  }),
]
