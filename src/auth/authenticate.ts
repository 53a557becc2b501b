import type { Caller, CredentialKind } from '../contract/caller.ts'
import type { NeutralRequest } from '../contract/neutral.ts'
import type { RouteDefinition } from '../contract/route.ts'
import type { SharedState } from '../contract/route-context.ts'
import { UnauthorizedError } from '../contract/sandbox-error.ts'
import { authenticateClientId } from './client-id.ts'
import { authenticateSession } from './session.ts'

/** Options of authentication that come from the sandbox's configuration. */
export interface AuthOptions {
  /** strict mode: only these API keys pass; undefined accepts any non-empty key */
  apiKeys?: ReadonlySet<string>
}

// Where the V2 document makes x-api-key optional because `x-client-id` + `Origin` is the alternative.
const clientIdPaths = /^\/v2\/(currencies|request|payments|payouts|secure-payments|payee-destination)(\/|$)/
// Endpoint 15 and its neighbours: an API key or a session token (`Authorization: Bearer`).
const sessionPaths = /^\/v2\/client-ids(\/|$)/

/** The credentials a route accepts, from the service's documents (the API key is accepted everywhere). */
export function acceptedCredentials(
  route: Pick<RouteDefinition<unknown, unknown, unknown>, 'path'>,
): CredentialKind[] {
  if (clientIdPaths.test(route.path)) return ['api-key', 'client-id']
  if (sessionPaths.test(route.path)) return ['api-key', 'session']
  return ['api-key']
}

/**
 * Resolves the caller of an authenticated route, or throws in the service's shape: 401 for a missing or unknown
 * credential, 403 for a client ID that is inactive, revoked, or used from an Origin it does not allow.
 */
export async function authenticate(
  request: NeutralRequest,
  route: RouteDefinition<unknown, unknown, unknown>,
  shared: SharedState,
  options: AuthOptions,
): Promise<Caller> {
  const key = request.headers['x-api-key']?.trim()
  if (key) {
    if (options.apiKeys && !options.apiKeys.has(key)) throw new UnauthorizedError()
    return { tenant: key, via: 'api-key' }
  }
  const accepted = acceptedCredentials(route)
  const clientId = request.headers['x-client-id']?.trim()
  if (clientId && accepted.includes('client-id')) {
    const grant = await authenticateClientId(clientId, request.headers.origin, shared)
    return { tenant: grant.tenant, via: 'client-id', clientId: grant }
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
  if (bearer && accepted.includes('session')) {
    return { tenant: authenticateSession(bearer, shared), via: 'session' }
  }
  throw new UnauthorizedError()
}
