// The authenticate stage: the caller a route's credentials admit (auth/), and the control API closed to writes
// from other origins.
import { type AuthOptions, apiKeyCaller, authenticate } from '../auth/authenticate.ts'
import type { Caller } from '../contract/caller.ts'
import type { NeutralRequest } from '../contract/neutral.ts'
import { isAuthenticated } from '../contract/route.ts'
import { ForbiddenError } from '../contract/sandbox-error.ts'
import { trustedOrigin } from '../contract/security.ts'
import type { SandboxState } from '../control/services.ts'
import type { AnyRoute, Stages } from './stages.ts'

export function authenticateStage(shared: SandboxState, options: AuthOptions): Stages['authenticate'] {
  return (method: string, request: NeutralRequest, route: AnyRoute): Caller | null | Promise<Caller> => {
    // a page of another origin cannot change a key's state through the control API (the sandbox's own pages can;
    // /rpc is a chain node for any dapp: its guard refuses admin methods to browsers)
    if (
      route.surface === 'control' &&
      method !== 'GET' &&
      !route.path.startsWith('/rpc') &&
      !trustedOrigin(request, shared.security, 'control-write')
    )
      throw new ForbiddenError(
        `Cross-origin writes to the control API are refused (Origin ${request.headers.origin}); allow the origin with --allowed-origins`,
      )
    if (!isAuthenticated(route)) return null
    // an API key (nearly every call) is checked without a wait; the other credentials may look things up
    return apiKeyCaller(request, route, shared, options) ?? authenticate(request, route, shared, options)
  }
}
