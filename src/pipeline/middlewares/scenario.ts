// The scenario middleware: which of a key's worlds a call uses (`x-sandbox-scenario`, else the key's chosen
// scenario), seeded before the first API call that needs it.
import { isControlRoute, type Middleware } from '../../contract/middleware.ts'
import { publicBaseUrl } from '../../contract/public-url.ts'
import type { SandboxState } from '../../control/services.ts'
import { renderError } from '../../errors/render-error.ts'
import { guarded } from './guarded.ts'

/**
 * Picks the call's world: `x-sandbox-scenario`, else the key's chosen scenario; seeds it before API calls. Not an
 * async function: a world already seeded (nearly every call) goes straight on, with no promise of its own.
 */
export function scenarioMiddleware(shared: SandboxState): Middleware {
  return (call, next) => {
    if (!call.caller) return next()
    let seeding: Promise<unknown> | undefined
    try {
      const header = call.request.headers['x-sandbox-scenario']?.trim()
      const name = header || shared.scenarios.selected(call.caller.tenant)
      shared.scenarios.resolve(name)
      call.scenario = name
      // Control routes seed only when they need the state (GET/PUT /__sandbox/scenario): a scenario whose seed
      // fails must never lock its key out of the control API.
      if (!isControlRoute(call) && !shared.scenarios.isSeeded(shared.tenants.get(call.caller.tenant, name))) {
        seeding = shared.scenarios.world(call.caller.tenant, name, () => publicBaseUrl(call.request))
      }
    } catch (error) {
      return Promise.resolve(renderError(error, shared.log))
    }
    if (seeding === undefined) return next()
    return guarded(shared.log, async () => {
      await seeding
      return next()
    })
  }
}
