import type { NeutralRequest } from '../contract/neutral.ts'
import type { RouteDefinition } from '../contract/route.ts'
import type { SharedState } from '../contract/route-context.ts'
import { UnauthorizedError } from '../errors/sandbox-error.ts'

/** Who is calling: the tenant whose world the call reads and writes. */
export interface Caller {
  /** the tenant key (the API key) */
  tenant: string
  /** how the caller proved it */
  via: 'api-key'
}

/** Options of authentication that come from the sandbox's configuration. */
export interface AuthOptions {
  /** strict mode: only these API keys pass; undefined accepts any non-empty key */
  apiKeys?: ReadonlySet<string>
}

/** Resolves the caller of an authenticated route, or throws 401 in the service's shape. */
export function authenticate(
  request: NeutralRequest,
  _route: RouteDefinition<unknown, unknown, unknown>,
  _shared: SharedState,
  options: AuthOptions,
): Caller {
  const key = request.headers['x-api-key']?.trim()
  if (!key || (options.apiKeys && !options.apiKeys.has(key))) throw new UnauthorizedError()
  return { tenant: key, via: 'api-key' }
}
