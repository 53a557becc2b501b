// `--rate-limit documented`: the production rate limit of api-reference/authentication.mdx ("Rate limits"): 300
// requests a minute (the Default tier's 5 a second) for each `x-client-id` and client IP address, a sustained breach
// blocking that client ID and address for 5 minutes. Off by default: the page gives non-production environments a
// higher limit. Windows and blocks run on the tenant clock of the client ID's account (advance it to get past one);
// the address is the one the signup limit counts (contract/security.ts: the peer, or the hop a local proxy appended
// to X-Forwarded-For); an MSW call has no peer: the last hop of its X-Forwarded-For, if any.
import type { Middleware } from '../../contract/middleware.ts'
import type { NeutralRequest } from '../../contract/neutral.ts'
import { clientAddress as peerAddress } from '../../contract/security.ts'
import type { World } from '../../contract/world.ts'
import type { SandboxState } from '../../control/services.ts'
import { faultResponse } from './faults.ts'

/**
 * The documented figures: requests per window, the window, and the block after a breach; and the sandbox's own
 * bound, how many client ID x address buckets one world keeps (past it the oldest are forgotten).
 */
export const DOCUMENTED_RATE_LIMIT = {
  limit: 300,
  windowMs: 60_000,
  blockMs: 5 * 60_000,
  maxBuckets: 1000,
} as const

/** The figures a limit runs with. */
export interface RateLimitFigures {
  limit: number
  windowMs: number
  blockMs: number
  maxBuckets: number
}

/** Which rate limit `--rate-limit` selects. */
export type RateLimitMode = 'off' | 'documented'

interface Bucket {
  start: number
  count: number
  blockedUntil: number
}

/** The client address a limit is scoped to. */
function clientAddress(request: NeutralRequest): string {
  if (request.remoteAddress) return peerAddress(request)
  return request.headers['x-forwarded-for']?.split(',').at(-1)?.trim() || 'direct'
}

/** One world's buckets, oldest first, and when its finished ones were last dropped. */
interface WorldBuckets {
  buckets: Map<string, Bucket>
  sweptAt: number
}

/**
 * Room for one more bucket in `mine`: past `maxBuckets`, the buckets whose window and block are over are dropped (at
 * most once a window: a scan of all of them), then the oldest, so a new address costs no scan of the others.
 */
function makeRoom(mine: WorldBuckets, now: number, figures: RateLimitFigures): void {
  const { buckets } = mine
  if (buckets.size < figures.maxBuckets) return
  if (now >= mine.sweptAt + figures.windowMs) {
    mine.sweptAt = now
    for (const [k, b] of buckets)
      if (now >= b.start + figures.windowMs && now >= b.blockedUntil) buckets.delete(k)
  }
  for (const k of buckets.keys()) {
    if (buckets.size < figures.maxBuckets) break
    buckets.delete(k)
  }
}

/** The documented limit on client-ID calls (API-key and control calls are not limited by it). */
export function documentedRateLimitMiddleware(
  shared: SandboxState,
  figures: RateLimitFigures = DOCUMENTED_RATE_LIMIT,
): Middleware {
  const worlds = new WeakMap<World, WorldBuckets>()
  return (call, next) => {
    const grant = call.caller?.via === 'client-id' ? call.caller.clientId : undefined
    if (!grant || call.route.surface === 'control') return next()
    const world = shared.tenants.get(call.caller!.tenant, call.scenario)
    let mine = worlds.get(world)
    if (!mine) {
      mine = { buckets: new Map(), sweptAt: Number.NEGATIVE_INFINITY }
      worlds.set(world, mine)
    }
    const key = `${grant.clientId} ${clientAddress(call.request)}`
    const now = world.clock.now().getTime()
    let bucket = mine.buckets.get(key)
    if (!bucket) {
      // many addresses over time: the world keeps at most `maxBuckets` of them
      makeRoom(mine, now, figures)
      bucket = { start: now, count: 0, blockedUntil: 0 }
      mine.buckets.set(key, bucket)
    } else if (now >= bucket.start + figures.windowMs) {
      bucket.start = now
      bucket.count = 0
    }
    if (now < bucket.blockedUntil) return Promise.resolve(throttled(bucket.blockedUntil - now))
    if (bucket.count >= figures.limit) {
      bucket.blockedUntil = now + figures.blockMs
      return Promise.resolve(throttled(figures.blockMs))
    }
    bucket.count++
    return next()
  }
}

function throttled(waitMs: number) {
  const response = faultResponse(429, Math.max(1, Math.ceil(waitMs / 1000)))
  response.headers['x-sandbox-fault'] = 'rate-limit-documented'
  return response
}
