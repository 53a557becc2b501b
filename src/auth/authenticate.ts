import type { NeutralRequest } from '../contract/neutral.ts'
import type { RouteDefinition } from '../contract/route.ts'
import type { SharedState } from '../contract/route-context.ts'
import { UnauthorizedError } from '../errors/sandbox-error.ts'
import { authenticateClientId, type ClientIdGrant } from './client-id.ts'
import { portalSessionPlatform } from './portal-session.ts'
import { authenticateSession } from './session.ts'

/** How a caller proved who it is (`portal-session`: the portal's `session_token` cookie). */
export type CredentialKind = 'api-key' | 'client-id' | 'session' | 'portal-session'

/** Who is calling: the tenant whose world the call reads and writes. */
export interface Caller {
  /** the tenant key (the API key; for client IDs and sessions, the API key that created them) */
  tenant: string
  /** how the caller proved it */
  via: CredentialKind
  /** the client ID used, on client-ID calls (its fee settings apply to calldata) */
  clientId?: ClientIdGrant
  /** the portal platform, on cookie-session calls */
  platformId?: string
}

/** Options of authentication that come from the sandbox's configuration. */
export interface AuthOptions {
  /** strict mode: only these API keys pass; undefined accepts any non-empty key */
  apiKeys?: ReadonlySet<string>
}

// Where the V2 document makes x-api-key optional because `x-client-id` + `Origin` is the alternative.
const clientIdPaths = /^\/v2\/(currencies|request|payments|payouts|secure-payments|payee-destination)(\/|$)/
// Endpoint 15 and its neighbours: an API key or a session token (`Authorization: Bearer`).
const sessionPaths = /^\/v2\/client-ids(\/|$)/
// FULL's portal endpoints: the session_token cookie only (webhooks also keep the sandbox's x-api-key management).
const portalOnlyPaths = /^\/v[12]\/(key|auth\/logout|platforms|request-tech)(\/|$)/
const webhookPaths = /^\/v[12]\/webhook(\/|$)/

/** The credentials a route accepts, from the service's documents (the API key is accepted everywhere). */
export function acceptedCredentials(
  route: Pick<RouteDefinition<unknown, unknown, unknown>, 'path'>,
): CredentialKind[] {
  if (portalOnlyPaths.test(route.path)) return ['portal-session']
  if (webhookPaths.test(route.path)) return ['api-key', 'portal-session']
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
  const accepted = acceptedCredentials(route)
  const key = request.headers['x-api-key']?.trim()
  if (key && accepted.includes('api-key')) {
    // keys issued by the portal answer by their state (and pass strict mode); any other key is its own tenant
    const standing = shared.directory.portal.standing(key)
    if (standing === 'refused') throw new UnauthorizedError()
    if (standing === 'unknown' && options.apiKeys && !options.apiKeys.has(key)) throw new UnauthorizedError()
    return { tenant: key, via: 'api-key' }
  }
  const clientId = request.headers['x-client-id']?.trim()
  if (clientId && accepted.includes('client-id')) {
    const grant = await authenticateClientId(clientId, request.headers.origin, shared)
    return { tenant: grant.tenant, via: 'client-id', clientId: grant }
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
  if (bearer && accepted.includes('session')) {
    return { tenant: authenticateSession(bearer, shared), via: 'session' }
  }
  if (accepted.includes('portal-session')) {
    const platform = portalSessionPlatform(request.headers, shared)
    if (platform) return { tenant: platform.tenant, via: 'portal-session', platformId: platform.id }
  }
  throw new UnauthorizedError()
}
