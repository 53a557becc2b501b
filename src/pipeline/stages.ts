// The stages one call goes through, in order, in one type: `createDispatcher` (dispatch.ts) builds each stage once
// and runs them per call. Errors thrown by a stage are rendered by `render.error`; those of `validate` and `handle`
// inside the middleware chain (the middlewares see the rendered answer), the others around it.
import type { Caller } from '../contract/caller.ts'
import type { MaybePromise } from '../contract/maybe-promise.ts'
import type { CallInfo } from '../contract/middleware.ts'
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import type { RouteInput, TableRoute } from '../contract/route.ts'
import type { SandboxState } from '../control/services.ts'
import type { RouteMatch } from './router.ts'

/** A route of the table as the pipeline holds it (its services are the sandbox's). */
export type AnyRoute = TableRoute<SandboxState>

/** A call's route and the raw values of its path parameters. */
export type MatchedRoute = RouteMatch<AnyRoute>

/** A call's validated input. */
export type CallInput = RouteInput<unknown, unknown, unknown>

/** How the answer leaves: errors in the service's shape, JSON serialised once, CORS and security headers. */
export interface Render {
  /** the answer to a preflight (OPTIONS): 204 with the CORS headers */
  preflight(request: NeutralRequest): NeutralResponse
  /** anything thrown, as the service's error answer (unexpected errors are 500s, logged) */
  error(error: unknown): NeutralResponse
  /** a JSON body serialised once, here: the transports send this text and the journal keeps it */
  body(response: NeutralResponse): NeutralResponse
  /** the answer once `durable` (the commit of the changes so far, with --state-dir) settled: 503 if it failed */
  afterCommit(durable: Promise<void>, response: NeutralResponse): Promise<NeutralResponse>
  /** CORS headers for browsers, page security headers on HTML, `nosniff` on the rest: a fresh headers object */
  headers(request: NeutralRequest, response: NeutralResponse): NeutralResponse
}

/** The pipeline: one function per stage, in the order they run. */
export interface Stages {
  /** the route the method and path name (404 `RouteNotFoundError` when none) */
  route(method: string, path: string): MatchedRoute
  /**
   * The caller the route's credentials admit, null on a public route (401/403 otherwise); a cross-origin write to
   * the control API is refused here too. Synchronous for an API key (nearly every call).
   */
  authenticate(method: string, request: NeutralRequest, route: AnyRoute): Caller | null | Promise<Caller>
  /** the middleware chain around the rest of the call, outermost first */
  middlewares(call: CallInfo, rest: () => MaybePromise<NeutralResponse>): MaybePromise<NeutralResponse>
  /** path parameters decoded, then params, query and body checked against the route's schemas (400/413/415) */
  validate(match: MatchedRoute, request: NeutralRequest): CallInput
  /** the route's handler, with the call's context: its answer at once when the handler gives it at once */
  handle(match: MatchedRoute, call: CallInfo, input: CallInput): MaybePromise<NeutralResponse>
  render: Render
}

/** The stages' names in the order a call meets them. */
export const STAGE_ORDER = [
  'route',
  'authenticate',
  'middlewares',
  'validate',
  'handle',
  'render',
] as const satisfies readonly (keyof Stages)[]
