// Orchestrator keys (`x-orchestrator-key`, orchestrators/overview.mdx): any key of the documented form (`orc_…`) is
// its own orchestrator, a tenant like an API key (strict mode: only those named by --orchestrator-keys). Paired with
// an `x-client-id` on the payment-link routes, the call runs as that client ID, which must be actively linked to
// this orchestrator; a linked client ID alone may no longer create payment links there.
import type { Caller, ClientIdGrant, OrchestratorGrant } from '../contract/caller.ts'
import type { CredentialPorts } from '../contract/ports.ts'
import { ForbiddenError, UnauthorizedError } from '../contract/sandbox-error.ts'
import { activeLinkOf, ORCHESTRATOR_KEY, orchestratorIdOf } from '../resources/orchestrators/index.ts'

/** The orchestrator a key names, or 401 (malformed, or not configured in strict mode). */
export function authenticateOrchestrator(
  key: string,
  allowed: ReadonlySet<string> | undefined,
): OrchestratorGrant {
  if (!ORCHESTRATOR_KEY.test(key)) throw new UnauthorizedError('Invalid orchestrator key')
  if (allowed && !allowed.has(key)) throw new UnauthorizedError('Invalid orchestrator key')
  return { key, id: orchestratorIdOf(key) }
}

/** Where a client ID's link record lives. */
function linkOf(grant: ClientIdGrant, shared: CredentialPorts) {
  const owner = shared.directory.clientIdToTenant.get(grant.clientId)
  const world = owner ? shared.worlds.get(owner.tenant, owner.scenario) : undefined
  return world ? activeLinkOf(world, grant.clientId) : undefined
}

/** A paired call: the client ID must be linked to this orchestrator (403 otherwise). */
export function pairedCaller(
  orchestrator: OrchestratorGrant,
  grant: ClientIdGrant,
  shared: CredentialPorts,
): Caller {
  const link = linkOf(grant, shared)
  if (!link || link.orchestratorKey !== orchestrator.key)
    throw new ForbiddenError('Client ID is not linked to this orchestrator')
  return { tenant: grant.tenant, via: 'client-id', clientId: grant, orchestrator }
}

/** On a route that takes the orchestrator pair, a linked client ID alone is refused (403). */
export function refuseLinkedAlone(grant: ClientIdGrant, shared: CredentialPorts): void {
  if (linkOf(grant, shared))
    throw new ForbiddenError(
      'This client ID is linked to an orchestrator: send x-orchestrator-key with x-client-id to create payment links',
    )
}
