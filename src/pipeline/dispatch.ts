// The request pipeline: neutral request in, neutral response out, every stage of `Stages` (stages.ts) once, in
// this order: route → authenticate → middlewares → validate → handle → render. Both transports call the function
// `createDispatcher` returns; the middlewares and their order come from the sandbox's assembly
// (`src/sandbox/dispatcher.ts`).
import { type AuthOptions, bothCredentialsHint } from '../auth/authenticate.ts'
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

/** Builds the function both transports call: neutral request in, neutral response out, errors rendered once. */
export function createDispatcher(
  routes: readonly AnyRoute[],
  shared: SandboxState,
  options: DispatchOptions = {},
): (request: NeutralRequest) => Promise<NeutralResponse> {
  const stages = createStages(routes, shared, options)
  const { render } = stages

  return async function dispatch(request) {
    const method = request.method.toUpperCase()
    if (method === 'OPTIONS') return render.preflight(request)
    let response: NeutralResponse
    try {
      response = await call(method, request)
    } catch (error) {
      response = render.error(error)
    }
    const durable = options.durable?.()
    if (durable) response = await render.afterCommit(durable, response)
    return render.headers(request, response)
  }

  /** route → authenticate → middlewares around the route's own run; the caller's hint added to the answer. */
  async function call(method: string, request: NeutralRequest): Promise<NeutralResponse> {
    const match = stages.route(method, request.path)
    const { route } = match
    const authenticated = stages.authenticate(method, request, route)
    const caller = authenticated instanceof Promise ? await authenticated : authenticated
    const info: CallInfo = { request, route, caller, scenario: 'default' }
    const run = (): Promise<NeutralResponse> => runRoute(match, info)
    const hint = caller ? bothCredentialsHint(request, route, caller) : undefined
    if (hint === undefined) return stages.middlewares(info, run)
    info.hint = hint
    const response = await stages.middlewares(info, run)
    response.headers = { ...response.headers, [HINT_HEADER]: hint }
    return response
  }

  /** validate → handle, an error rendered here (the middlewares see the answer), a JSON body serialised once. */
  async function runRoute(match: MatchedRoute, info: CallInfo): Promise<NeutralResponse> {
    let response: NeutralResponse
    try {
      response = await stages.handle(match, info, stages.validate(match, info.request))
    } catch (error) {
      response = render.error(error)
    }
    return render.body(response)
  }
}
