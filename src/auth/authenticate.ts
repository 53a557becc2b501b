import type { Caller } from '../contract/caller.ts'
import type { NeutralRequest } from '../contract/neutral.ts'
import type { CredentialPorts } from '../contract/ports.ts'
import type { RouteDefinition } from '../contract/route.ts'
import { UnauthorizedError } from '../contract/sandbox-error.ts'
import { authenticateClientId } from './client-id.ts'
import { authenticateSession } from './session.ts'

/** Options of authentication that come from the sandbox's configuration. */
export interface AuthOptions {
  /** strict mode: only these API keys pass; undefined accepts any non-empty key */
  apiKeys?: ReadonlySet<string>
}

/**
 * Resolves the caller of an authenticated route, or throws in the service's shape: 401 for a missing or unknown
 * credential, 403 for a client ID that is inactive, revoked, or used from an Origin it does not allow.
 */
export async function authenticate(
  request: NeutralRequest,
  route: Pick<RouteDefinition, 'credentials'>,
  shared: CredentialPorts,
  options: AuthOptions,
): Promise<Caller> {
  const key = request.headers['x-api-key']?.trim()
  if (key) {
    if (options.apiKeys && !options.apiKeys.has(key)) throw new UnauthorizedError()
    return { tenant: key, via: 'api-key' }
  }
  const accepted = route.credentials
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
