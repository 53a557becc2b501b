// Whitelabel branding (orchestrators/whitelabel-branding.mdx): one orchestrator row and at most one row per linked
// client ID; 409 on a second create, PATCH sets only the fields sent, DELETE is idempotent. A secure payment's page
// gets one row, the most specific: the client ID's, else the orchestrator's (fields a row leaves unset fall back to
// the page's defaults, never to the other row).
import type { World } from '../../contract/world.ts'
import { NotLinkedError, OrchestratorConflictError, OrchestratorNotFoundError } from './errors.ts'
import { activeLinkOf, type Ctx, orchestratorOf } from './links.ts'
import type { BrandingBody, BrandingRecord } from './schema.ts'
import { orchestratorState } from './tables.ts'

const ORCHESTRATOR_ROW = 'orchestrator'

function rowKey(world: World, clientId: string | undefined): string {
  if (clientId === undefined) return ORCHESTRATOR_ROW
  if (orchestratorState(world).links.get(clientId)?.status !== 'active') throw new NotLinkedError()
  return clientId
}

function view(row: BrandingRecord & { key: string }): BrandingRecord {
  const { key: _key, ...record } = row
  return record
}

function fieldsOf(body: BrandingBody) {
  const { clientId: _clientId, ...fields } = body
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Omit<
    BrandingBody,
    'clientId'
  >
}

/** `POST /v2/orchestrators/branding`. */
export async function createBranding(ctx: Ctx, body: BrandingBody): Promise<BrandingRecord> {
  const key = rowKey(ctx.world, body.clientId)
  const table = orchestratorState(ctx.world).branding
  if (table.get(key)) throw new OrchestratorConflictError('Branding already exists: use PATCH to update it')
  const now = ctx.world.clock.now()
  return view(
    await table.insert({
      key,
      id: ctx.ids.ulid(now.getTime()),
      orchestratorId: orchestratorOf(ctx).id,
      ...(body.clientId ? { clientIdId: body.clientId } : {}),
      ...fieldsOf(body),
      displayRequestBranding: body.displayRequestBranding ?? false,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    }),
  )
}

/** `GET /v2/orchestrators/branding`: the effective row (a client ID's, else the orchestrator's), or 404. */
export function getBranding(ctx: Ctx, clientId: string | undefined): BrandingRecord {
  const table = orchestratorState(ctx.world).branding
  const row =
    (clientId !== undefined ? table.get(rowKey(ctx.world, clientId)) : undefined) ??
    table.get(ORCHESTRATOR_ROW)
  if (!row) throw new OrchestratorNotFoundError('Branding not found')
  return view(row)
}

/** `PATCH /v2/orchestrators/branding`: only the fields sent change. */
export async function updateBranding(ctx: Ctx, body: BrandingBody): Promise<BrandingRecord> {
  const key = rowKey(ctx.world, body.clientId)
  const table = orchestratorState(ctx.world).branding
  if (!table.get(key)) throw new OrchestratorNotFoundError('Branding not found')
  const fields = fieldsOf(body)
  return view(
    (await table.update(key, (d) => {
      Object.assign(d, fields)
      d.updatedAt = ctx.world.clock.now().toISOString()
    }))!,
  )
}

/** `DELETE /v2/orchestrators/branding`: removes the row if there is one. */
export async function deleteBranding(ctx: Ctx, clientId: string | undefined): Promise<boolean> {
  const key = clientId === undefined ? ORCHESTRATOR_ROW : clientId
  const table = orchestratorState(ctx.world).branding
  if (!table.get(key)) return false
  table.delete(key)
  return true
}

/** The orchestrator row, for the onboarding page. */
export function orchestratorBranding(world: World): BrandingRecord | null {
  const row = orchestratorState(world).branding.get(ORCHESTRATOR_ROW)
  return row ? view(row) : null
}

/**
 * What a secure payment made under `clientId` shows: the orchestrator of its active link and the branding row
 * that applies (client row, else orchestrator row), resolved when the page loads.
 */
export function brandingForClientId(
  shared: Pick<Ctx, 'directory' | 'worlds'>,
  clientId: string | null,
): { orchestratorId: string; branding: BrandingRecord | null } | null {
  if (!clientId) return null
  const owner = shared.directory.clientIdToTenant.get(clientId)
  const platform = owner ? shared.worlds.get(owner.tenant, owner.scenario) : undefined
  const link = platform ? activeLinkOf(platform, clientId) : undefined
  if (!link || !platform) return null
  const orchestrator = shared.worlds.get(link.orchestratorKey, platform.scenario)
  const table = orchestrator ? orchestratorState(orchestrator).branding : undefined
  const row = table?.get(clientId) ?? table?.get(ORCHESTRATOR_ROW)
  return { orchestratorId: link.orchestratorId, branding: row ? view(row) : null }
}
