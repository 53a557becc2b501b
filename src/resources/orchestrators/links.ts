// Client-ID links and onboarding link intents (orchestrators/client-id-linking.mdx, kyt-plans.mdx).
// An orchestrator is the tenant of its key: its links, intents, fees, branding live in its world. A client ID's
// one link record also lives beside the client ID, in the platform's world (`clientLinks`): that record is what
// refuses a second link (by any orchestrator, even after an unlink) and what paired authentication checks.
// A link needs the platform's consent: a direct link carries the owner's API key (client IDs are public: a `cli_…`
// alone proves nothing), hosted onboarding is the platform's own confirmation. Without it, 403 and no record, so a
// stranger can neither take a client ID over nor spend its one link.
// Differences from the real service: the hosted onboarding page is the sandbox's own (the platform types its wallet
// address: the page has no script to connect a wallet); the client ID it creates belongs to a platform tenant
// scoped to the orchestrator and the wallet (onboarding-limits.ts), in the orchestrator's scenario.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { OrchestratorGrant } from '../../contract/caller.ts'
import type { NeutralRequest } from '../../contract/neutral.ts'
import { publicBaseUrl } from '../../contract/public-url.ts'
import type { World } from '../../contract/world.ts'
import { clientIdState, createClientId } from '../client-ids/index.ts'
import { registerDestination } from '../payee-destinations/index.ts'
import { inWorld, type Uses } from '../services.ts'
import {
  AlreadyLinkedError,
  ConsentRequiredError,
  IntentUnavailableError,
  NotLinkedError,
  OrchestratorNotFoundError,
  OrchestratorRequestError,
} from './errors.ts'
import {
  admitIntent,
  isPlatformTenant,
  platformFullError,
  platformTenantOf,
  reservePlatform,
} from './onboarding-limits.ts'
import type { KytPlan, LinkIntentBody, LinkIntentRecord, LinkRecord } from './schema.ts'
import { orchestratorState } from './tables.ts'

export type Ctx = Uses<'currencies' | 'directory' | 'events' | 'ids' | 'onboarding' | 'portal' | 'worlds'>

/** An intent stays usable two days on the orchestrator's clock (client-id-linking.mdx). */
export const INTENT_LIFETIME_MS = 2 * 24 * 3600 * 1000

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** The orchestrator id of a key: 26 Crockford base-32 characters of its SHA-256 (stable, not the key). */
export function orchestratorIdOf(key: string): string {
  const digest = createHash('sha256').update(key).digest()
  let out = ''
  for (let i = 0; i < 26; i++) out += CROCKFORD[digest[i]! % 32]
  return out
}

/** The orchestrator of an orchestrator-key call. */
export function orchestratorOf(ctx: Pick<Ctx, 'caller' | 'tenant'>): OrchestratorGrant {
  const key = ctx.tenant ?? ''
  return ctx.caller?.orchestrator ?? { key, id: orchestratorIdOf(key) }
}

/** The world and record of a public client ID, or 404. */
export function platformOf(ctx: Pick<Ctx, 'directory' | 'worlds'>, clientId: string) {
  const owner = ctx.directory.clientIdToTenant.get(clientId)
  const world = owner ? ctx.worlds.get(owner.tenant, owner.scenario) : undefined
  const record = owner && world ? clientIdState(world).clientIds.get(owner.id) : undefined
  if (!world || !record) throw new OrchestratorNotFoundError('Client ID not found')
  return { world, record }
}

/** Whether `apiKey` is the key of the tenant that owns `platform` (a value refused as x-api-key never is). */
function isOwnerKey(ctx: Pick<Ctx, 'portal'>, platform: World, apiKey: string | undefined): boolean {
  if (!apiKey || ctx.portal.standing(apiKey) === 'refused' || isPlatformTenant(apiKey)) return false
  const given = createHash('sha256').update(apiKey).digest()
  return timingSafeEqual(given, createHash('sha256').update(platform.tenant).digest())
}

/** The active link record of a client ID, wherever its platform lives (what paired authentication checks). */
export function activeLinkOf(platform: World, clientId: string) {
  const link = orchestratorState(platform).clientLinks.get(clientId)
  return link?.status === 'active' ? link : undefined
}

/** Records a link in both worlds. */
async function recordLink(
  ctx: Ctx,
  orchestrator: World,
  platform: World,
  clientId: string,
  extra: { intentId: string | null; kyt: KytPlan | null; platformKyt: LinkRecord['platformKyt'] },
): Promise<LinkRecord> {
  if (orchestratorState(platform).clientLinks.get(clientId)) throw new AlreadyLinkedError()
  const now = orchestrator.clock.now()
  const linkId = ctx.ids.ulid(now.getTime())
  await orchestratorState(platform).clientLinks.insert({
    clientId,
    orchestratorKey: orchestrator.tenant,
    orchestratorId: orchestratorIdOf(orchestrator.tenant),
    linkId,
    status: 'active',
  })
  return orchestratorState(orchestrator).links.insert({
    clientId,
    linkId,
    status: 'active',
    ...extra,
    createdAt: now.toISOString(),
    unlinkedAt: null,
  })
}

/**
 * `POST /v2/orchestrators/client-ids`: links an existing client ID that never had a link, with its owner's consent
 * (`ownerKey`, the API key of the tenant that created it; 403 without it, before anything else is told).
 */
export async function linkClientId(
  ctx: Ctx,
  clientId: string,
  ownerKey: string | undefined,
): Promise<LinkRecord> {
  const { world, record } = platformOf(ctx, clientId)
  if (!isOwnerKey(ctx, world, ownerKey)) throw new ConsentRequiredError(clientId)
  if (record.status === 'revoked') throw new OrchestratorRequestError('Client ID has been revoked')
  return recordLink(ctx, ctx.world, world, clientId, { intentId: null, kyt: null, platformKyt: null })
}

/** `GET /v2/orchestrators/client-ids`: the active links, oldest first, paged. */
export function listLinks(ctx: Pick<Ctx, 'world'>, page: number, limit: number) {
  const active = orchestratorState(ctx.world)
    .links.all()
    .filter((l) => l.status === 'active')
  return {
    links: active
      .slice((page - 1) * limit, page * limit)
      .map((l) => ({ clientId: l.clientId, status: 'active' as const })),
    total: active.length,
    page,
    limit,
  }
}

/** `DELETE /v2/orchestrators/client-ids/:clientId`: ends the active link; the client ID stays unlinkable. */
export async function unlinkClientId(ctx: Ctx, clientId: string): Promise<LinkRecord> {
  const link = orchestratorState(ctx.world).links.get(clientId)
  if (link?.status !== 'active') throw new NotLinkedError()
  const now = ctx.world.clock.now().toISOString()
  const platform = ctx.directory.clientIdToTenant.get(clientId)
  const platformWorld = platform ? ctx.worlds.get(platform.tenant, platform.scenario) : undefined
  if (platformWorld)
    await orchestratorState(platformWorld).clientLinks.update(clientId, (d) => {
      d.status = 'unlinked'
    })
  return (await orchestratorState(ctx.world).links.update(clientId, (d) => {
    d.status = 'unlinked'
    d.unlinkedAt = now
  }))!
}

/** The onboarding page of an intent, on the base URL the caller reached the sandbox at. */
export function onboardingUrl(request: NeutralRequest, token: string): string {
  return `${publicBaseUrl(request)}/__sandbox/orchestrator-onboarding?token=${token}`
}

/**
 * `POST /v2/orchestrators/client-id-link-intents`: a single-use intent, two days on the key's clock (429 past
 * --max-link-intents open ones).
 */
export async function createIntent(ctx: Ctx, body: LinkIntentBody): Promise<LinkIntentRecord> {
  admitIntent(ctx.onboarding, ctx.directory, ctx.world)
  const now = ctx.world.clock.now()
  const intent = await orchestratorState(ctx.world).intents.insert({
    id: ctx.ids.ulid(now.getTime()),
    token: ctx.ids.hex(24),
    clientIdName: body.clientIdName,
    domains: body.domains ?? [],
    externalId: body.externalId ?? null,
    kyt: body.kyt ?? null,
    used: false,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INTENT_LIFETIME_MS).toISOString(),
    clientId: null,
  })
  // the page's token finds its world even after the world left memory (--state-dir keeps it on disk)
  ctx.directory.onboardingTokenToWorld.set(intent.token, {
    tenant: ctx.world.tenant,
    scenario: ctx.world.scenario,
  })
  return intent
}

/**
 * Names `world` in the directory for each of its intents' onboarding tokens: a world filled back from a snapshot
 * (the key's worlds were dropped first, and their tokens with them) keeps its onboarding links working.
 */
export function indexOnboardingTokens(
  directory: Pick<Ctx['directory'], 'onboardingTokenToWorld'>,
  world: World,
) {
  for (const intent of orchestratorState(world).intents.all())
    directory.onboardingTokenToWorld.set(intent.token, { tenant: world.tenant, scenario: world.scenario })
}

/** An intent's onboarding token: the key of the intents' token index (one function, so one index per table). */
const intentToken = (intent: LinkIntentRecord) => intent.token

/**
 * The intent behind an onboarding token: the directory names its world (brought back if it left memory), the
 * intents' token index finds it there. A token the directory does not know reads no world (the page is public).
 */
export function findIntent(
  ctx: Pick<Ctx, 'directory' | 'worlds'>,
  token: string,
): { world: World; intent: LinkIntentRecord } | undefined {
  const owner = ctx.directory.onboardingTokenToWorld.get(token)
  if (!owner) return undefined
  const world = ctx.worlds.get(owner.tenant, owner.scenario)
  const [intent] = orchestratorState(world).intents.where(intentToken, token)
  return intent ? { world, intent } : undefined
}

/** Why an intent can no longer be completed, or null. */
export function intentRefusal(world: World, intent: LinkIntentRecord): string | null {
  if (intent.used) return 'This onboarding link has already been used'
  if (world.clock.now().getTime() >= Date.parse(intent.expiresAt)) return 'This onboarding link has expired'
  return null
}

/** What the platform confirms on the onboarding page. */
export interface OnboardingInput {
  walletAddress: string
  /** the token id of its payment destination (`USDC-sepolia`) */
  currency: string
  /** its screening choice, when the intent carries no plan */
  kyt: 'hypernative' | 'merklescience' | 'none'
}

/**
 * Completes an intent: a new client ID for the platform (the intent's name and domains), bound to the wallet's
 * destination, linked to the orchestrator; `client_id.linked` to the orchestrator's webhooks.
 */
export async function completeOnboarding(
  shared: Omit<Ctx, 'world' | 'tenant' | 'caller'>,
  found: { world: World; intent: LinkIntentRecord },
  input: OnboardingInput,
) {
  const { world, intent } = found
  // checked before anything is created, so a refused form leaves no half-made client ID
  const token = shared.currencies.byId(input.currency)
  if (token?.type !== 'ERC20' || !token.address)
    throw new OrchestratorRequestError(`Token ${input.currency} is not a supported ERC20 token`)
  // single use: the intent is claimed before the first await, so forms posted at the same time make one client ID
  const completing = orchestratorState(world).completing
  const refusal = completing.has(intent.id)
    ? 'This onboarding link has already been used'
    : intentRefusal(world, orchestratorState(world).intents.get(intent.id) ?? intent)
  if (refusal) throw new IntentUnavailableError(refusal)
  // a new platform world counts against --max-onboarded-platforms (429), before anything is created
  const release = reservePlatform(
    shared.onboarding,
    world,
    orchestratorIdOf(world.tenant),
    input.walletAddress,
  )
  completing.add(intent.id)
  try {
    return await completeClaimed(shared, world, intent, input)
  } finally {
    completing.delete(intent.id)
    release()
  }
}

async function completeClaimed(
  shared: Omit<Ctx, 'world' | 'tenant' | 'caller'>,
  world: World,
  intent: LinkIntentRecord,
  input: OnboardingInput,
) {
  const wallet = input.walletAddress.toLowerCase()
  // counted before the world exists: a completion that fails further on still spent its world
  const platformWorlds = orchestratorState(world).platformWorlds
  if (!platformWorlds.has(wallet)) platformWorlds.set(wallet, world.clock.now().toISOString())
  const platform = shared.worlds.get(platformTenantOf(orchestratorIdOf(world.tenant), wallet), world.scenario)
  // each onboarding of a wallet it onboarded before adds a client ID to the same world
  if (clientIdState(platform).clientIds.size >= shared.onboarding.maxIntents)
    throw platformFullError(shared.onboarding)
  const platformCtx = inWorld(shared, platform)
  const client = await createClientId(platformCtx, {
    label: intent.clientIdName,
    allowedDomains: intent.domains,
  })
  const destination = await registerDestination(platformCtx, {
    walletAddress: input.walletAddress,
    currency: input.currency,
    clientId: client.clientId,
  })
  const link = await recordLink(inWorld(shared, world), world, platform, client.clientId, {
    intentId: intent.id,
    kyt: intent.kyt,
    platformKyt: intent.kyt ? null : input.kyt,
  })
  await orchestratorState(world).intents.update(intent.id, (d) => {
    d.used = true
    d.clientId = client.clientId
  })
  const currency = shared.currencies.byId(destination.currency)
  shared.events.emit(world, 'client_id.linked', {
    clientId: client.clientId,
    orchestratorId: orchestratorIdOf(world.tenant),
    linkId: link.linkId,
    intentId: intent.id,
    externalId: intent.externalId,
    destinationId: destination.destinationId,
    destinationWalletAddress: destination.walletAddress.toLowerCase(),
    chain: destination.network,
    currency: currency?.symbol ?? destination.currency,
    timestamp: world.clock.now().toISOString(),
  })
  return { clientId: client.clientId, link, destination }
}
