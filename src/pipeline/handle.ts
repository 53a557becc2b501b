// The handle stage: a route's handler called with the call's context. A context is one object per call whose
// prototype (built once) holds the sandbox's services; the call's scope (`tenant`, `caller`, `world`) sits on top.
import { isPromise } from '../contract/maybe-promise.ts'
import type { CallInfo } from '../contract/middleware.ts'
import { type NeutralResponse, neutralResponse } from '../contract/neutral.ts'
import type { RouteResult } from '../contract/route.ts'
import type { CallScope } from '../contract/route-context.ts'
import type { SandboxState } from '../control/services.ts'
import type { IdGenerator } from '../store/ids.ts'
import type { Stages } from './stages.ts'

const scenarioOf = Symbol('scenario')
const routePath = Symbol('route path')

/** The context object of one call (what handlers get as `ctx`). */
type CallContext = SandboxState & { -readonly [K in keyof CallScope]: CallScope[K] } & {
  [scenarioOf]: string
  [routePath]: string
}

export function handleStage(
  shared: SandboxState,
  /** with --seed: the id generator of each key (handlers of a key's calls draw from it instead of the shared one) */
  idsFor: ((tenant: string) => IdGenerator) | undefined,
): Stages['handle'] {
  const contextBase = Object.create(shared, {
    world: {
      get(this: CallContext) {
        if (this.tenant === null) throw new Error(`route ${this[routePath]} is public and has no world`)
        return shared.worlds.get(this.tenant, this[scenarioOf])
      },
    },
  }) as SandboxState

  return ({ route }, call: CallInfo, input) => {
    const ctx = Object.create(contextBase) as CallContext
    ctx.tenant = call.caller?.tenant ?? null
    ctx.caller = call.caller
    ctx[scenarioOf] = call.scenario
    ctx[routePath] = route.path
    if (ctx.tenant !== null && idsFor) ctx.ids = idsFor(ctx.tenant)
    const result = route.handler(ctx, input)
    return isPromise(result) ? result.then(toResponse) : toResponse(result)
  }
}

/** A handler's result as the neutral response the rest of the pipeline reads (every field present: one shape). */
function toResponse(result: RouteResult): NeutralResponse {
  return neutralResponse(result.status, result.headers ?? {}, result.body, result)
}
