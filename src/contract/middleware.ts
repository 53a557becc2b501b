import type { Caller } from './caller.ts'
import type { MaybePromise } from './maybe-promise.ts'
import type { NeutralRequest, NeutralResponse } from './neutral.ts'
import type { RouteDefinition } from './route.ts'

/** What a middleware knows about the call it wraps. Middlewares may set `scenario` before the handler runs. */
export interface CallInfo {
  request: NeutralRequest
  route: RouteDefinition<unknown, unknown, unknown, never>
  /** null on public routes */
  caller: Caller | null
  /** the scenario whose world the call uses ('default' unless a middleware picks another) */
  scenario: string
  /** a note for the caller on how the call was understood: sent as `x-sandbox-hint`, printed on its log line */
  hint?: string
}

/**
 * Wraps every matched, authenticated call (scenario selection, fault injection, journal). Call `next()` to run
 * the rest of the chain and the handler; errors thrown by `next()` are already rendered into the response. `next()`
 * answers at once when nothing in the rest of the call waits (a promise otherwise): a middleware that does not wait
 * returns what it gives, one that does `await`s it (both are fine; only `.then` on it assumes a promise).
 */
export type Middleware = (
  call: CallInfo,
  next: () => MaybePromise<NeutralResponse>,
) => MaybePromise<NeutralResponse>

/** Whether a call is to the sandbox's control API (the route declares its surface). */
export function isControlRoute(call: Pick<CallInfo, 'route'>): boolean {
  return call.route.surface === 'control'
}
