// Faults on demand: `x-sandbox-delay` and `x-sandbox-status` on one call, or a world's rules (latency, failure
// status, rate limit) on every API call. The answers are the bodies the service's NestJS stack gives.
import { STATUS_CODES } from 'node:http'
import type { NeutralResponse } from '../../contract/neutral.ts'
import { BadRequestError, UnauthorizedError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'

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
