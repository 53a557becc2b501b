// Orchestrator fee configs (orchestrators/fees.mdx): at most one payer-borne and one recipient-borne config per
// flow, per scope (the orchestrator default, or one linked client ID); identity (fee type, flow, bearer) immutable;
// disabling keeps the pair taken. Resolution per payment: the client ID's config of a (flow, bearer) pair replaces
// the default of that pair; a pair only the client ID configures adds a fee. Without any, only the protocol fee
// applies (0 in the sandbox).
import type { World } from '../../contract/world.ts'
import {
  NotLinkedError,
  OrchestratorConflictError,
  OrchestratorNotFoundError,
  OrchestratorRequestError,
} from './errors.ts'
import { type Ctx, orchestratorOf } from './links.ts'
import type { CreateFeeConfigBody, FeeConfigRecord, UpdateFeeConfigBody } from './schema.ts'
import { orchestratorState } from './tables.ts'

function requireLinked(world: World, clientId: string | undefined) {
  if (clientId === undefined) return
  if (orchestratorState(world).links.get(clientId)?.status !== 'active') throw new NotLinkedError()
}

/** `POST /v2/orchestrators/fee-configs`. */
export async function createFeeConfig(ctx: Ctx, body: CreateFeeConfigBody): Promise<FeeConfigRecord> {
  const { world } = ctx
  requireLinked(world, body.clientId)
  const scope = body.clientId ?? null
  const taken = orchestratorState(world)
    .feeConfigs.all()
    .find((c) => c.clientId === scope && c.flow === body.flow && c.feeBearer === body.feeBearer)
  if (taken)
    throw new OrchestratorConflictError(
      `A ${body.feeBearer}-borne ${body.flow} fee config already exists${scope ? ` for ${scope}` : ''} (${taken.id}): update or reactivate it`,
    )
  const now = world.clock.now()
  return orchestratorState(world).feeConfigs.insert({
    id: ctx.ids.ulid(now.getTime()),
    orchestratorId: orchestratorOf(ctx).id,
    clientId: scope,
    feeType: 'orchestrator_fee',
    flow: body.flow,
    feeBearer: body.feeBearer,
    bps: body.bps,
    usdCap: body.usdCap ?? null,
    evmRecipientAddress: body.evmRecipientAddress ?? null,
    tronRecipientAddress: body.tronRecipientAddress ?? null,
    status: body.status ?? 'active',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  })
}

/** `GET /v2/orchestrators/fee-configs` (`?clientId` keeps that client ID's configs). */
export function listFeeConfigs(ctx: Pick<Ctx, 'world'>, clientId: string | undefined): FeeConfigRecord[] {
  const all = orchestratorState(ctx.world).feeConfigs.all()
  return clientId === undefined ? all : all.filter((c) => c.clientId === clientId)
}

function ownConfig(ctx: Pick<Ctx, 'world'>, id: string): FeeConfigRecord {
  const record = orchestratorState(ctx.world).feeConfigs.get(id)
  if (!record) throw new OrchestratorNotFoundError('Fee config not found')
  return record
}

/** `PATCH /v2/orchestrators/fee-configs/:id`: bps, usdCap, recipient addresses, status. */
export async function updateFeeConfig(
  ctx: Ctx,
  id: string,
  body: UpdateFeeConfigBody,
): Promise<FeeConfigRecord> {
  const record = ownConfig(ctx, id)
  if (body.clientId !== undefined && body.clientId !== record.clientId)
    throw new OrchestratorNotFoundError('Fee config not found for this clientId')
  for (const field of ['flow', 'feeBearer', 'feeType'] as const) {
    if (body[field] !== undefined && body[field] !== record[field])
      throw new OrchestratorRequestError(
        `${field} is immutable: disable this fee config and create a new one to change it`,
      )
  }
  const evm = body.evmRecipientAddress === undefined ? record.evmRecipientAddress : body.evmRecipientAddress
  const tron =
    body.tronRecipientAddress === undefined ? record.tronRecipientAddress : body.tronRecipientAddress
  if (evm === null && tron === null)
    throw new OrchestratorRequestError(
      'At least one of evmRecipientAddress or tronRecipientAddress is required',
    )
  return (await orchestratorState(ctx.world).feeConfigs.update(id, (d) => {
    if (body.bps !== undefined) d.bps = body.bps
    if (body.usdCap !== undefined) d.usdCap = body.usdCap
    d.evmRecipientAddress = evm
    d.tronRecipientAddress = tron
    if (body.status !== undefined) d.status = body.status
    d.updatedAt = ctx.world.clock.now().toISOString()
  }))!
}

/** `DELETE /v2/orchestrators/fee-configs/:id`: disables it (the pair stays taken); twice is harmless. */
export async function disableFeeConfig(
  ctx: Ctx,
  id: string,
  clientId: string | undefined,
): Promise<FeeConfigRecord> {
  const record = ownConfig(ctx, id)
  if (clientId !== undefined && clientId !== record.clientId)
    throw new OrchestratorNotFoundError('Fee config not found for this clientId')
  return (await orchestratorState(ctx.world).feeConfigs.update(id, (d) => {
    d.status = 'disabled'
    d.updatedAt = ctx.world.clock.now().toISOString()
  }))!
}

/** A fee config resolved for one payment, with where it came from. */
export interface ResolvedOrchestratorFee {
  configId: string
  orchestratorId: string
  feeBearer: 'payer' | 'recipient'
  bps: number
  usdCap: string | null
  evmRecipientAddress: string | null
  tronRecipientAddress: string | null
  configSource: 'client_id' | 'orchestrator_default'
}

/**
 * The orchestrator fees of a payment created now under `clientId` for `flow`: per bearer, the client ID's
 * active config, else the orchestrator's active default. Empty when the orchestrator configures none.
 */
export function resolveOrchestratorFees(
  orchestrator: World,
  clientId: string,
  flow: 'incoming' | 'outgoing',
): ResolvedOrchestratorFee[] {
  const active = orchestratorState(orchestrator)
    .feeConfigs.all()
    .filter((c) => c.status === 'active' && c.flow === flow)
  const out: ResolvedOrchestratorFee[] = []
  for (const bearer of ['payer', 'recipient'] as const) {
    const own = active.find((c) => c.clientId === clientId && c.feeBearer === bearer)
    const fallback = active.find((c) => c.clientId === null && c.feeBearer === bearer)
    const chosen = own ?? fallback
    if (!chosen) continue
    out.push({
      configId: chosen.id,
      orchestratorId: chosen.orchestratorId,
      feeBearer: bearer,
      bps: chosen.bps,
      usdCap: chosen.usdCap,
      evmRecipientAddress: chosen.evmRecipientAddress,
      tronRecipientAddress: chosen.tronRecipientAddress,
      configSource: own ? 'client_id' : 'orchestrator_default',
    })
  }
  return out
}
