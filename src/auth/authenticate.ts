import type { Caller } from '../contract/caller.ts'
import type { NeutralRequest } from '../contract/neutral.ts'
import { sessionTokenOf } from '../contract/portal-cookie.ts'
import type { CredentialPorts, PortalCredentialLookup } from '../contract/ports.ts'
import type { RouteDefinition } from '../contract/route.ts'
import { UnauthorizedError } from '../contract/sandbox-error.ts'
import { isPlatformTenant } from '../resources/orchestrators/index.ts'
import { authenticateClientId } from './client-id.ts'
import { authenticateOrchestrator, pairedCaller, refuseLinkedAlone } from './orchestrator.ts'
import { authenticateSession } from './session.ts'

/** Options of authentication that come from the sandbox's configuration. */
export interface AuthOptions {
  /** strict mode: only these API keys pass; undefined accepts any non-empty key */
  apiKeys?: ReadonlySet<string>
  /** strict mode: the keys it admits besides `apiKeys` (the live keys of claimable sandboxes) */
  admitsKey?: (key: string) => boolean
  /** strict mode for orchestrators: only these `x-orchestrator-key`s pass; undefined accepts any `orc_…` key */
  orchestratorKeys?: ReadonlySet<string>
}

/**
 * The caller of a route that takes the API key the request carries, without waiting (the dispatcher's common
 * case); undefined when the request has no key or the route takes none (the other credentials: `authenticate`).
 * Throws 401 for a key the portal disabled, or one strict mode does not know.
 */
export function apiKeyCaller(
  request: NeutralRequest,
  route: Pick<RouteDefinition, 'credentials'>,
  shared: { portal: PortalCredentialLookup },
  options: AuthOptions,
): Caller | undefined {
  const key = request.headers['x-api-key']?.trim()
  if (!key || !route.credentials.includes('api-key')) return undefined
  // keys issued by the portal answer by their state (and pass strict mode); any other key is its own tenant
  const standing = shared.portal.standing(key)
  if (standing === 'refused')
    throw new UnauthorizedError('Unauthorized', 'this API key was disabled or deleted in the portal')
  // an onboarded platform's tenant is named after public values (orchestrator id, wallet): never a key
  if (standing === 'unknown' && isPlatformTenant(key))
    throw new UnauthorizedError(
      'Unauthorized',
      'platform: names a platform tenant of hosted onboarding, not a key',
    )
  if (standing === 'unknown' && options.apiKeys && !options.apiKeys.has(key) && !options.admitsKey?.(key))
    throw new UnauthorizedError('Unauthorized', STRICT_HINT)
  return { tenant: key, via: 'api-key' }
}

/**
 * Resolves the caller of an authenticated route, or throws in the service's shape: 401 for a missing or unknown
 * credential, 403 for a client ID that is inactive, revoked, or used from an Origin it does not allow.
 */
export async function authenticate(
  request: NeutralRequest,
  route: Pick<RouteDefinition, 'credentials'>,
  shared: CredentialPorts & { portal: PortalCredentialLookup; now(): Date },
  options: AuthOptions,
): Promise<Caller> {
  const accepted = route.credentials
  const byKey = apiKeyCaller(request, route, shared, options)
  if (byKey) return byKey
  const clientId = request.headers['x-client-id']?.trim()
  const orchestratorKey = request.headers['x-orchestrator-key']?.trim()
  if (orchestratorKey && accepted.includes('orchestrator-key')) {
    const orchestrator = authenticateOrchestrator(orchestratorKey, options.orchestratorKeys)
    // alone on the orchestrator's own routes; paired with a client ID it linked on the payment-link routes
    if (!accepted.includes('client-id'))
      return { tenant: orchestrator.key, via: 'orchestrator-key', orchestrator }
    if (!clientId) throw new UnauthorizedError('x-orchestrator-key must be paired with x-client-id')
    const grant = await authenticateClientId(clientId, request.headers.origin, shared)
    return pairedCaller(orchestrator, grant, shared)
  }
  if (clientId && accepted.includes('client-id')) {
    const grant = await authenticateClientId(clientId, request.headers.origin, shared)
    if (accepted.includes('orchestrator-key')) refuseLinkedAlone(grant, shared)
    return { tenant: grant.tenant, via: 'client-id', clientId: grant }
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
  if (bearer && accepted.includes('session')) {
    return { tenant: authenticateSession(bearer, shared), via: 'session' }
  }
  if (accepted.includes('portal-session')) {
    const token = sessionTokenOf(request.headers.cookie)
    const platform = token ? shared.portal.platformOfSession(token, shared.now().getTime()) : undefined
    if (platform) return { tenant: platform.tenant, via: 'portal-session', platformId: platform.id }
  }
  throw new UnauthorizedError('Unauthorized', options.apiKeys ? STRICT_HINT : hintFor(accepted))
}

const STRICT_HINT =
  'this sandbox runs in strict mode: send one of the keys given with --api-keys in x-api-key'

/** What to send, by the credentials the route accepts. */
function hintFor(accepted: readonly string[]): string {
  if (accepted.includes('api-key'))
    return 'send any non-empty x-api-key header: every key works in the sandbox and is its own tenant (e.g. x-api-key: test)'
  if (accepted.includes('portal-session'))
    return 'log in first: POST /v2/auth/login (or register) sets the session_token cookie these routes read'
  if (accepted.includes('session'))
    return 'send Authorization: Bearer <token>, a token from POST /__sandbox/sessions'
  return 'send the credentials this route documents'
}

/**
 * What a call that carries both `x-api-key` and `x-client-id` is told (x-sandbox-hint, and its terminal log line): the
 * API key decides who calls, as on the service, and the client ID is not used. Undefined for any other call.
 */
export function bothCredentialsHint(
  request: NeutralRequest,
  route: Pick<RouteDefinition, 'credentials'>,
  caller: Caller | null,
): string | undefined {
  if (caller?.via !== 'api-key' || !route.credentials.includes('client-id')) return undefined
  const clientId = request.headers['x-client-id']?.trim()
  if (!clientId) return undefined
  return 'x-api-key and x-client-id were both sent: the API key was used (it takes precedence) and the client ID was ignored (its fees, Origin check and client-ID webhooks do not apply); send only x-client-id to act as the client ID'
}
