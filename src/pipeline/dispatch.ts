// The request pipeline: neutral request in, neutral response out, every stage of `Stages` (stages.ts) once, in
// this order: route → authenticate → middlewares → validate → handle → render. Both transports call the function
// `createDispatcher` returns; the middlewares and their order come from the sandbox's assembly
// (`src/sandbox/dispatcher.ts`). A call whose stages all answer at once is answered at once (no promise): each stage
// goes on synchronously from a value and through `then` from a promise (contract/maybe-promise.ts).
import { type AuthOptions, bothCredentialsHint } from '../auth/authenticate.ts'
import type { Caller } from '../contract/caller.ts'
import { isPromise, type MaybePromise } from '../contract/maybe-promise.ts'
import type { CallInfo, Middleware } from '../contract/middleware.ts'
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import { HINT_HEADER, RouteNotFoundError } from '../contract/sandbox-error.ts'
import type { SandboxState } from '../control/services.ts'
import type { IdGenerator } from '../store/ids.ts'
import { authenticateStage } from './authenticate.ts'
import { middlewareChain } from './chain.ts'
import { handleStage } from './handle.ts'
import { renderStage } from './render.ts'
import { createRouter } from './router.ts'
import type { AnyRoute, MatchedRoute, Stages } from './stages.ts'
import { validateInput } from './validate.ts'

/** Options of the dispatcher that come from the sandbox's configuration. */
export interface DispatchOptions extends AuthOptions {
  /** run around every matched call, outermost first */
  middleware?: Middleware[]
  /** with --seed: the id generator of each key (handlers of a key's calls draw from it instead of the shared one) */
  idsFor?: (tenant: string) => IdGenerator
  /**
   * With --state-dir: what an answer waits for before it leaves (the commit of the changes made so far; undefined
   * when nothing is pending, and always without a state dir).
   */
  durable?: () => Promise<void> | undefined
}

/** The stages of the sandbox's pipeline over a route table. */
export function createStages(
  routes: readonly AnyRoute[],
  shared: SandboxState,
  options: DispatchOptions = {},
): Stages {
  const router = createRouter(routes)
  return {
    route(method, path) {
      const match = router.match(method, path)
      if (!match) throw new RouteNotFoundError(method, path)
      return match
    },
    authenticate: authenticateStage(shared, options),
    middlewares: middlewareChain(options.middleware ?? []),
    validate: validateInput,
    handle: handleStage(shared, options.idsFor),
    render: renderStage(routes, shared),
  }
}

/**
 * Builds the function both transports call: neutral request in, neutral response out (at once when no stage waited),
 * errors rendered once.
 */
export function createDispatcher(
  routes: readonly AnyRoute[],
  shared: SandboxState,
  options: DispatchOptions = {},
): (request: NeutralRequest) => MaybePromise<NeutralResponse> {
  const stages = createStages(routes, shared, options)
  const { render } = stages

  return function dispatch(request) {
    const method = request.method.toUpperCase()
    if (method === 'OPTIONS') return render.preflight(request)
    let response: MaybePromise<NeutralResponse>
    try {
      response = call(method, request)
    } catch (error) {
      response = render.error(error)
    }
    if (isPromise(response))
      return response.then(
        (answer) => leave(request, answer),
        (error) => leave(request, render.error(error)),
      )
    return leave(request, response)
  }

  /** The answer once its changes are committed (--state-dir), with its headers. */
  function leave(request: NeutralRequest, response: NeutralResponse): MaybePromise<NeutralResponse> {
    const durable = options.durable?.()
    if (durable)
      return render.afterCommit(durable, response).then((answer) => render.headers(request, answer))
    return render.headers(request, response)
  }

  /** route → authenticate → the rest of the call. */
  function call(method: string, request: NeutralRequest): MaybePromise<NeutralResponse> {
    const match = stages.route(method, request.path)
    const authenticated = stages.authenticate(method, request, match.route)
    if (authenticated instanceof Promise)
      return authenticated.then((caller) => callAs(match, request, caller))
    return callAs(match, request, authenticated)
  }

  /** middlewares around the route's own run; the caller's hint added to the answer. */
  function callAs(
    match: MatchedRoute,
    request: NeutralRequest,
    caller: Caller | null,
  ): MaybePromise<NeutralResponse> {
    const info: CallInfo = { request, route: match.route, caller, scenario: 'default' }
    const run = (): MaybePromise<NeutralResponse> => runRoute(match, info)
    const hint = caller ? bothCredentialsHint(request, match.route, caller) : undefined
    if (hint === undefined) return stages.middlewares(info, run)
    info.hint = hint
    const response = stages.middlewares(info, run)
    return isPromise(response) ? response.then((answer) => hinted(answer, hint)) : hinted(response, hint)
  }

  /** validate → handle, an error rendered here (the middlewares see the answer), a JSON body serialised once. */
  function runRoute(match: MatchedRoute, info: CallInfo): MaybePromise<NeutralResponse> {
    let response: MaybePromise<NeutralResponse>
    try {
      response = stages.handle(match, info, stages.validate(match, info.request))
    } catch (error) {
      return render.body(render.error(error))
    }
    if (isPromise(response))
      return response.then(
        (answer) => render.body(answer),
        (error) => render.body(render.error(error)),
      )
    return render.body(response)
  }
}

function hinted(response: NeutralResponse, hint: string): NeutralResponse {
  response.headers = { ...response.headers, [HINT_HEADER]: hint }
  return response
}
