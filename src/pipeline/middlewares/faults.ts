// The fault middleware: `x-sandbox-delay` and `x-sandbox-status` on one call, or a world's rules (latency, failure
// status, rate limit) on every API call. The control API (/__sandbox/*) is never faulted, so a key stuck in
// `service-unavailable` can always switch back. The answers are the bodies the service's NestJS stack gives.
import { STATUS_CODES } from 'node:http'
import type { MaybePromise } from '../../contract/maybe-promise.ts'
import { isControlRoute, type Middleware } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import { BadRequestError, SandboxError, UnauthorizedError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'
import type { SandboxState } from '../../control/services.ts'
import { renderError } from '../../errors/render-error.ts'
import { guarded } from './guarded.ts'

/** The throttler's 429 body (NestJS ThrottlerGuard), as the service answers a rate-limit breach. */
export const THROTTLED_BODY = { statusCode: 429, message: 'ThrottlerException: Too Many Requests' }

/**
 * The response the service gives for an error status with no detail: the throttler's body for 429 (with
 * Retry-After), the body the sandbox already answers for 401, Nest's unhandled-error body for 500, and Nest's
 * built-in exception body `{statusCode, message: <reason phrase>}` otherwise.
 */
export function faultResponse(status: number, retryAfterSeconds = 1): NeutralResponse {
  if (status === 429) {
    return { status, headers: { 'retry-after': String(retryAfterSeconds) }, body: { ...THROTTLED_BODY } }
  }
  if (status === 401) return { status, headers: {}, body: new UnauthorizedError().body }
  if (status === 500) {
    return {
      status,
      headers: {},
      body: { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' },
    }
  }
  return { status, headers: {}, body: { statusCode: status, message: STATUS_CODES[status] ?? 'Error' } }
}

const NO_FAULTS: { delayMs?: number; status?: number } = Object.freeze({})

/** The faults one call asks for with its headers; 400 when a header is not understood. */
export function requestedFaults(
  headers: Record<string, string>,
  maxDelayMs: number,
): { delayMs?: number; status?: number } {
  const delayHeader = headers['x-sandbox-delay']
  const statusHeader = headers['x-sandbox-status']
  // neither header (nearly every call): one shared empty answer
  if (delayHeader === undefined && statusHeader === undefined) return NO_FAULTS
  const out: { delayMs?: number; status?: number } = {}
  const delay = delayHeader?.trim()
  if (delay !== undefined && delay !== '') {
    if (!/^\d+$/.test(delay) || Number(delay) > maxDelayMs) {
      throw new BadRequestError(
        `x-sandbox-delay must be a whole number of milliseconds from 0 to ${maxDelayMs}`,
      )
    }
    out.delayMs = Number(delay)
  }
  const status = statusHeader?.trim()
  if (status !== undefined && status !== '') {
    if (!/^\d{3}$/.test(status) || Number(status) < 400 || Number(status) > 599) {
      throw new BadRequestError('x-sandbox-status must be an HTTP error status from 400 to 599')
    }
    out.status = Number(status)
  }
  return out
}

/** Fixed windows of the tenant clock, per world: how many calls each window has let through. */
export class RateWindows {
  readonly #windows = new WeakMap<World, { start: number; count: number }>()

  /** Counts a call; returns the seconds to wait when the world's rate limit is exceeded, else null. */
  take(world: World): number | null {
    const limit = world.rules.rateLimit
    if (!limit) return null
    const now = world.clock.now().getTime()
    const size = limit.windowSeconds * 1000
    let window = this.#windows.get(world)
    if (!window || now >= window.start + size) {
      window = { start: now - ((now - (window?.start ?? now)) % size), count: 0 }
      this.#windows.set(world, window)
    }
    if (window.count >= limit.limit) return Math.max(1, Math.ceil((window.start + size - now) / 1000))
    window.count++
    return null
  }
}

/** Waits `ms` of real time. */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}

/** Options of the fault middleware. */
export interface FaultOptions {
  /** the largest x-sandbox-delay accepted, ms (default 30 000) */
  maxDelayMs?: number
  /** calls of one key waiting out a delay at once (default 20) */
  maxDelayedPerKey?: number
  /** calls of all keys waiting out a delay at once (default 500) */
  maxDelayedTotal?: number
}

/**
 * A delayed call holds its connection and a timer for up to `maxDelayMs`: how many may wait at once, per key and in
 * all, so that one key (or many made-up ones) cannot hold the server's connections open for free.
 */
function delaySlots(perKey: number, total: number) {
  const waiting = new Map<string, number>()
  let all = 0
  return {
    take(tenant: string): void {
      const mine = waiting.get(tenant) ?? 0
      if (mine >= perKey || all >= total)
        throw new SandboxError(
          429,
          mine >= perKey
            ? `This key already has ${perKey} calls waiting out a delay (x-sandbox-delay or its scenario's latency): send the next one when one of them has answered`
            : `The sandbox already has ${total} calls waiting out a delay: send this one again in a moment`,
          { headers: { 'retry-after': '1' } },
        )
      waiting.set(tenant, mine + 1)
      all++
    },
    give(tenant: string): void {
      const mine = (waiting.get(tenant) ?? 1) - 1
      if (mine > 0) waiting.set(tenant, mine)
      else waiting.delete(tenant)
      all--
    },
  }
}

/**
 * Latency, forced statuses and rate limits, from the call's headers and its world's rules. Not an async function:
 * a call with no delay (nearly every one) goes straight on, with no promise of its own.
 */
export function faultMiddleware(shared: SandboxState, options: FaultOptions = {}): Middleware {
  const windows = new RateWindows()
  const maxDelayMs = options.maxDelayMs ?? 30_000
  const slots = delaySlots(options.maxDelayedPerKey ?? 20, options.maxDelayedTotal ?? 500)
  return (call, next) => {
    if (!call.caller || isControlRoute(call)) return next()
    let asked: ReturnType<typeof requestedFaults>
    let world: ReturnType<SandboxState['tenants']['get']>
    try {
      asked = requestedFaults(call.request.headers, maxDelayMs)
      world = shared.tenants.get(call.caller.tenant, call.scenario)
    } catch (error) {
      return Promise.resolve(renderError(error, shared.log))
    }
    const delayMs = asked.delayMs ?? world.rules.latencyMs ?? 0
    if (delayMs <= 0) return faultOrNext(windows, world, asked, next)
    const { tenant } = call.caller
    try {
      slots.take(tenant)
    } catch (error) {
      return Promise.resolve(renderError(error, shared.log))
    }
    return guarded(shared.log, async () => {
      try {
        await sleep(delayMs)
      } finally {
        slots.give(tenant)
      }
      return faultOrNext(windows, world, asked, next)
    })
  }
}

/** The fault a call gets once its delay is over (its world's rate limit, a forced status), else the call itself. */
function faultOrNext(
  windows: RateWindows,
  world: Parameters<RateWindows['take']>[0],
  asked: { status?: number },
  next: () => MaybePromise<NeutralResponse>,
): MaybePromise<NeutralResponse> {
  const wait = windows.take(world)
  if (wait !== null) return Promise.resolve(tagged(faultResponse(429, wait), 'rate-limit'))
  const status = asked.status ?? world.rules.failureStatus
  if (status !== undefined)
    return Promise.resolve(tagged(faultResponse(status), asked.status ? 'x-sandbox-status' : 'rules'))
  return next()
}

function tagged(response: NeutralResponse, fault: string): NeutralResponse {
  response.headers['x-sandbox-fault'] = fault
  return response
}
