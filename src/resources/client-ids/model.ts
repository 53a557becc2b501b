// Differences from the real service: client IDs live on the sandbox's /v2/client-ids (the service also runs them
// on its separate Auth API with cookie sessions); `allowedDomains` may be empty on create (a back-end ID, as the
// docs describe) but needs 1-10 origins on update, as the interface says; `payeeDestinationId` binds a payee destination (see payee-destinations' `destinationForClientId`).
import { getAddress } from 'viem'
import type { CredentialDirectory } from '../../contract/ports.ts'
import { OneFieldError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'
import type { Uses } from '../services.ts'
import { ClientIdNotFoundError, RevokedClientIdError } from './errors.ts'
import type { ClientIdRecord, CreateClientIdBody, UpdateClientIdBody } from './schema.ts'
import { clientIdState } from './tables.ts'

type Ctx = Uses<'directory' | 'ids'>

/** A public client ID in the documented form (`cli_` + 12 lower-case hex), unique across the sandbox. */
function newPublicClientId(ctx: Ctx): string {
  for (;;) {
    const candidate = `cli_${ctx.ids.hex(6)}`
    if (!ctx.directory.clientIdToTenant.has(candidate)) return candidate
  }
}

const checksum = (address: string | null | undefined) => (address ? getAddress(address) : null)

/** Creates an active client ID for the caller's tenant and indexes its public id. */
export async function createClientId(ctx: Ctx, body: CreateClientIdBody): Promise<ClientIdRecord> {
  const { world } = ctx
  const shared = ctx
  const now = world.clock.now()
  const record = await clientIdState(world).clientIds.insert({
    id: shared.ids.ulid(now.getTime()),
    clientId: newPublicClientId(ctx),
    label: body.label,
    allowedDomains: body.allowedDomains,
    feePercentage: body.feePercentage ?? null,
    feeAddress: checksum(body.feeAddress),
    operatorWalletAddress: checksum(body.operatorWalletAddress),
    payeeDestinationId: body.payeeDestinationId ?? null,
    defaultPreApprovalExpiry: body.defaultPreApprovalExpiry ?? null,
    defaultAuthorizationExpiry: body.defaultAuthorizationExpiry ?? null,
    status: 'active',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    lastUsedAt: null,
  })
  shared.directory.clientIdToTenant.set(record.clientId, {
    tenant: world.tenant,
    scenario: world.scenario,
    id: record.id,
  })
  return record
}

/** The caller's client IDs, oldest first (revoked ones included, with their status). */
export function listClientIds(ctx: Ctx): ClientIdRecord[] {
  return clientIdState(ctx.world).clientIds.all()
}

/** One of the caller's client IDs by internal id; 404 otherwise. */
export function getClientId(ctx: Ctx, id: string): ClientIdRecord {
  const record = clientIdState(ctx.world).clientIds.get(id)
  if (!record) throw new ClientIdNotFoundError()
  return record
}

/** Applies a PUT: absent fields stay, `null` unsets, a revoked ID never comes back, fees need their address. */
export async function updateClientId(
  ctx: Ctx,
  id: string,
  body: UpdateClientIdBody,
): Promise<ClientIdRecord> {
  const current = getClientId(ctx, id)
  if (current.status === 'revoked' && body.status !== undefined && body.status !== 'revoked') {
    throw new RevokedClientIdError()
  }
  const pick = <K extends keyof UpdateClientIdBody & keyof ClientIdRecord>(key: K) =>
    body[key] === undefined ? current[key] : body[key]
  const feePercentage = pick('feePercentage') as string | null
  const feeAddress = pick('feeAddress') as string | null
  if (feePercentage !== null && feeAddress === null) {
    throw new OneFieldError('feeAddress', 'feeAddress is required when feePercentage is set')
  }
  const now = ctx.world.clock.now().toISOString()
  const updated = await clientIdState(ctx.world).clientIds.update(id, (draft) => {
    if (body.label !== undefined) draft.label = body.label
    if (body.allowedDomains !== undefined) draft.allowedDomains = body.allowedDomains
    draft.feePercentage = feePercentage
    draft.feeAddress = checksum(feeAddress)
    if (body.operatorWalletAddress !== undefined)
      draft.operatorWalletAddress = checksum(body.operatorWalletAddress)
    if (body.payeeDestinationId !== undefined) draft.payeeDestinationId = body.payeeDestinationId
    if (body.defaultPreApprovalExpiry !== undefined)
      draft.defaultPreApprovalExpiry = body.defaultPreApprovalExpiry
    if (body.defaultAuthorizationExpiry !== undefined)
      draft.defaultAuthorizationExpiry = body.defaultAuthorizationExpiry
    if (body.status !== undefined) draft.status = body.status
    draft.updatedAt = now
  })
  return updated!
}

/** Revokes a client ID for good (DELETE); revoking twice is harmless. */
export async function revokeClientId(ctx: Ctx, id: string): Promise<ClientIdRecord> {
  const current = getClientId(ctx, id)
  if (current.status === 'revoked') return current
  return updateClientId(ctx, id, { status: 'revoked' })
}

/**
 * Names `world` in the directory for each of its client IDs: a world filled back from a snapshot (the key's worlds
 * were dropped first, and their client IDs with them) keeps its client IDs authenticating.
 */
export function indexClientIds(directory: Pick<CredentialDirectory, 'clientIdToTenant'>, world: World): void {
  for (const record of clientIdState(world).clientIds.all())
    directory.clientIdToTenant.set(record.clientId, {
      tenant: world.tenant,
      scenario: world.scenario,
      id: record.id,
    })
}
