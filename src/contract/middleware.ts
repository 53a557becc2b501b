import type { Caller } from './caller.ts'
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
 * the rest of the chain and the handler; errors thrown by `next()` are already rendered into the response.
 */
export type Middleware = (call: CallInfo, next: () => Promise<NeutralResponse>) => Promise<NeutralResponse>

/** Whether a call is to the sandbox's control API (the route declares its surface). */
export function isControlRoute(call: Pick<CallInfo, 'route'>): boolean {
  return call.route.surface === 'control'
}
