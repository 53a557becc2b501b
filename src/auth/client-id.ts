// Client-ID authentication: `x-client-id` names a client ID of some tenant (found through the directory); the
// record in that tenant's world decides. Unknown -> 401; inactive or revoked -> 403; a front-end ID (non-empty
// allowedDomains) also needs an Origin it lists -> 403 otherwise. Back-end IDs (no domains) skip the Origin check.
import type { ClientIdGrant } from '../contract/caller.ts'
import { requestOrigin } from '../contract/origins.ts'
import type { CredentialPorts } from '../contract/ports.ts'
import { ForbiddenError, UnauthorizedError } from '../contract/sandbox-error.ts'
import { clientIdState } from '../resources/client-ids/index.ts'

/** Checks a client ID and the request's Origin; records the use (`lastUsedAt`). */
export async function authenticateClientId(
  clientId: string,
  originHeader: string | undefined,
  shared: CredentialPorts,
): Promise<ClientIdGrant> {
  const owner = shared.directory.clientIdToTenant.get(clientId)
  const world = owner ? shared.worlds.get(owner.tenant, owner.scenario) : undefined
  const record = owner && world ? clientIdState(world).clientIds.get(owner.id) : undefined
  if (!owner || !world || !record) throw new UnauthorizedError('Invalid client ID')
  if (record.status === 'revoked') throw new ForbiddenError('Client ID has been revoked')
  if (record.status === 'inactive') throw new ForbiddenError('Client ID is inactive')
  const origin = requestOrigin(originHeader)
  if (record.allowedDomains.length > 0) {
    if (!origin) throw new ForbiddenError('Origin header is required for this client ID')
    if (!record.allowedDomains.includes(origin)) {
      throw new ForbiddenError(`Origin ${origin} is not allowed for this client ID`)
    }
  }
  const now = world.clock.now().toISOString()
  await clientIdState(world).clientIds.update(record.id, (draft) => {
    draft.lastUsedAt = now
  })
  return {
    tenant: owner.tenant,
    id: record.id,
    clientId: record.clientId,
    feePercentage: record.feePercentage,
    feeAddress: record.feeAddress,
    origin,
  }
}
