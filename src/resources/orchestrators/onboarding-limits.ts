// The worlds hosted onboarding creates, and their bounds. A completed onboarding puts the platform's new client ID
// in a platform tenant scoped to the orchestrator that sent the link and to the wallet the platform confirmed
// (`platform:<orchestratorId>:0x…`): two orchestrators onboarding one wallet get two tenants and never see each
// other's client IDs or payment links. Each such tenant is a world in memory, so one orchestrator key may create at
// most `--max-onboarded-platforms` of them, and one wallet may have at most as many (one per orchestrator that
// onboarded it); past either, the completion answers 429 naming the limit and the flag. What an orchestrator stores
// besides is bounded by `--max-link-intents`: its open link intents (each also an entry of the sandbox-wide directory)
// and the client IDs one of its platforms receives through onboarding. Platform tenants are never
// an `x-api-key` (their names are derived from public values): the platform reaches its client ID through the
// orchestrator's paired calls, as the service's onboarded platforms do.
import type { CredentialDirectory } from '../../contract/ports.ts'
import { SandboxError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'
import { orchestratorState } from './tables.ts'

/** Platform worlds one orchestrator key may create by onboarding, and one wallet may have (default). */
export const DEFAULT_MAX_ONBOARDED_PLATFORMS = 20

/** The flag (and environment variable) that raises the bound. */
export const MAX_ONBOARDED_PLATFORMS_FLAG = '--max-onboarded-platforms'

/** Open link intents one orchestrator key may hold, and client IDs one platform may receive by onboarding (default). */
export const DEFAULT_MAX_LINK_INTENTS = 100

/** The flag that raises it. */
export const MAX_LINK_INTENTS_FLAG = '--max-link-intents'

const PLATFORM_PREFIX = 'platform:'
const PLATFORM_TENANT = /^platform:([0-9A-Z]{26}):(0x[0-9a-f]{40})$/

/** The tenant of the platform an orchestrator (by its id) onboarded with `wallet`. */
export function platformTenantOf(orchestratorId: string, wallet: string): string {
  return `${PLATFORM_PREFIX}${orchestratorId}:${wallet.toLowerCase()}`
}

/** Whether a value names a platform tenant (which never passes as an `x-api-key`). */
export function isPlatformTenant(value: string): boolean {
  return value.startsWith(PLATFORM_PREFIX)
}

/** 429: the orchestrator or the wallet has as many platform worlds as the bound allows. */
export class OnboardingLimitError extends SandboxError {
  override name = 'OnboardingLimitError'
  constructor(message: string) {
    super(429, message)
  }
}

/**
 * The sandbox-wide part: the bound, and the platform tenants of each wallet and of each orchestrator, read from the
 * names of the worlds created or brought back from the state dir (a platform tenant is never reset: its name is
 * no key). Counting here too, not only in the orchestrator's world, keeps the bound across a reset of that key.
 */
export class OnboardingLedger {
  readonly maxPlatforms: number
  readonly maxIntents: number
  readonly #tenantsOfWallet = new Map<string, Set<string>>()
  readonly #walletsOfOrchestrator = new Map<string, Set<string>>()

  constructor(limits: { maxPlatforms?: number | undefined; maxIntents?: number | undefined } = {}) {
    this.maxPlatforms = Math.max(1, limits.maxPlatforms ?? DEFAULT_MAX_ONBOARDED_PLATFORMS)
    this.maxIntents = Math.max(1, limits.maxIntents ?? DEFAULT_MAX_LINK_INTENTS)
  }

  /** Notes a world: a platform tenant counts for its wallet and its orchestrator from now on. */
  notice(world: Pick<World, 'tenant'>): void {
    const match = PLATFORM_TENANT.exec(world.tenant)
    if (!match) return
    const [, orchestratorId, wallet] = match as unknown as [string, string, string]
    add(this.#tenantsOfWallet, wallet, world.tenant)
    add(this.#walletsOfOrchestrator, orchestratorId, wallet)
  }

  /** The platform tenants of a wallet. */
  tenantsOfWallet(wallet: string): ReadonlySet<string> {
    return this.#tenantsOfWallet.get(wallet.toLowerCase()) ?? new Set()
  }

  /** The wallets an orchestrator (by its id) has platform worlds for. */
  walletsOfOrchestrator(orchestratorId: string): ReadonlySet<string> {
    return this.#walletsOfOrchestrator.get(orchestratorId) ?? new Set()
  }

  /**
   * Counts `tenant` for its wallet from now on (before its world exists), or throws 429 when the wallet already
   * has `maxPlatforms` other platform tenants.
   */
  reserve(wallet: string, tenant: string): void {
    const tenants = this.tenantsOfWallet(wallet)
    if (tenants.has(tenant)) return
    if (tenants.size >= this.maxPlatforms)
      throw new OnboardingLimitError(
        `Wallet ${wallet.toLowerCase()} reached the limit of orchestrators that onboarded it (${this.maxPlatforms}, ` +
          `${MAX_ONBOARDED_PLATFORMS_FLAG}): each is a world in memory. Start the sandbox with a higher ` +
          MAX_ONBOARDED_PLATFORMS_FLAG,
      )
    this.notice({ tenant })
  }
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key) ?? new Set<string>()
  set.add(value)
  map.set(key, set)
}

/**
 * Reserves the platform world of `wallet` for an onboarding of `orchestrator` (checked before anything is created),
 * or throws 429 past either bound; answers the release to call once the completion is done (or failed).
 * Reservations are held across the completion's awaits, so forms posted at the same time cannot pass together.
 */
export function reservePlatform(
  ledger: OnboardingLedger,
  orchestrator: World,
  orchestratorId: string,
  wallet: string,
): () => void {
  const address = wallet.toLowerCase()
  const { creatingPlatforms: creating, platformWorlds } = orchestratorState(orchestrator)
  // the orchestrator's own record (kept by --state-dir) and the sandbox's (kept across a reset of the key)
  const known = new Set([
    ...platformWorlds.keys(),
    ...ledger.walletsOfOrchestrator(orchestratorId),
    ...creating,
  ])
  if (known.has(address)) return () => {}
  if (known.size >= ledger.maxPlatforms)
    throw new OnboardingLimitError(
      `This orchestrator key reached the limit of onboarded platform wallets (${ledger.maxPlatforms}, ` +
        `${MAX_ONBOARDED_PLATFORMS_FLAG}): each is a world in memory. Complete this onboarding with a wallet it ` +
        `onboarded before, or start the sandbox with a higher ${MAX_ONBOARDED_PLATFORMS_FLAG}`,
    )
  ledger.reserve(address, platformTenantOf(orchestratorId, address))
  creating.add(address)
  return () => {
    creating.delete(address)
  }
}

/**
 * Makes room for a new link intent of `orchestrator`, or throws 429: it holds at most `maxIntents` unused ones. When
 * it is full, the expired ones (nobody can complete them) are dropped first, their onboarding tokens with them.
 */
export function admitIntent(
  ledger: OnboardingLedger,
  directory: Pick<CredentialDirectory, 'onboardingTokenToWorld'>,
  orchestrator: World,
): void {
  const { intents, completing } = orchestratorState(orchestrator)
  const open = () => intents.all().filter((intent) => !intent.used)
  if (open().length < ledger.maxIntents) return
  const now = orchestrator.clock.now().getTime()
  for (const intent of open())
    if (now >= Date.parse(intent.expiresAt) && !completing.has(intent.id)) {
      intents.delete(intent.id)
      directory.onboardingTokenToWorld.delete(intent.token)
    }
  if (open().length >= ledger.maxIntents)
    throw new OnboardingLimitError(
      `This orchestrator key holds ${ledger.maxIntents} open link intents, the limit of this sandbox ` +
        `(${MAX_LINK_INTENTS_FLAG}): wait for some to be completed or to expire (two days on the key's clock), or ` +
        `start the sandbox with a higher ${MAX_LINK_INTENTS_FLAG}`,
    )
}

/** 429: the platform of a wallet received `maxIntents` client IDs through the orchestrator's onboarding. */
export function platformFullError(ledger: OnboardingLedger): OnboardingLimitError {
  return new OnboardingLimitError(
    `This platform wallet received ${ledger.maxIntents} client IDs through this orchestrator's onboarding, the ` +
      `limit of this sandbox (${MAX_LINK_INTENTS_FLAG}): start the sandbox with a higher ${MAX_LINK_INTENTS_FLAG}`,
  )
}
