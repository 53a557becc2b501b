// The steps of createSandbox that build and wire the sandbox's state: the services and the control plane's state,
// what an event sets off, what a world leaving memory takes along, and what --state-dir brings back.
import { join } from 'node:path'
import { TenantDirectory } from '../auth/directory.ts'
import { createOperator, refreshCommerceEscrow, type SandboxKeys, syncChainTime } from '../chain/index.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { DEFAULT_MAX_CLOCK_ADVANCE_MS, type SecuritySettings } from '../contract/security.ts'
import { FaucetLimit } from '../control/faucet-limit.ts'
import { Journal } from '../control/journal.ts'
import { ScenarioEngine } from '../control/scenarios/engine.ts'
import type { ScenarioRegistry } from '../control/scenarios/registry.ts'
import type { SandboxState, SandboxStateWithoutScenarios, SandboxTopics } from '../control/services.ts'
import { StreamSlots } from '../control/stream-slots.ts'
import { EventBus } from '../events/event-bus.ts'
import { StateDir } from '../persistence/index.ts'
import { OnboardingLedger } from '../resources/orchestrators/index.ts'
import { PortalCredentials } from '../resources/portal/index.ts'
import { PaymentReferenceIndex } from '../resources/requests/index.ts'
import { followPaymentEvent } from '../resources/secure-payments/index.ts'
import { SnapshotStore } from '../snapshots/index.ts'
import { createIdGenerator } from '../store/ids.ts'
import { TenantIds } from '../store/tenant-ids.ts'
import { Tenants } from '../store/tenants.ts'
import { WebhookDelivery, WebhookRegistry } from '../webhooks/index.ts'
import type { Catalogs } from './catalogs.ts'
import type { ChainFleet } from './chains.ts'
import { networksOnUseOf, startableOf } from './dispatcher.ts'
import type { SandboxOptions } from './options.ts'

export type Log = (message: string, error?: unknown) => void

/** where unexpected errors go: `options.log`, else the console */
export function logOf(options: Pick<SandboxOptions, 'log'>): Log {
  return (
    options.log ??
    ((message: string, error?: unknown) => console.error(`[request-sandbox] ${message}`, error ?? ''))
  )
}

/** What a shared demo holds against strangers, from the options. */
function securityOf(options: SandboxOptions): SecuritySettings {
  return {
    exposed: Boolean(options.exposed),
    portal: !options.apiKeys || Boolean(options.portal),
    allowedOrigins: new Set(options.allowedOrigins ?? []),
    adminKey: options.adminKey,
    maxClockAdvanceMs:
      options.maxClockAdvanceSeconds !== undefined
        ? options.maxClockAdvanceSeconds * 1000
        : DEFAULT_MAX_CLOCK_ADVANCE_MS,
  }
}

/**
 * The services and the control plane's state: worlds whose clocks move the chains' time, ids, journal, event bus,
 * webhook delivery (never to the chains' own ports), portal, snapshots, and the scenario engine built from the rest.
 */
export function buildState(
  options: SandboxOptions,
  catalogs: Catalogs,
  fleet: ChainFleet,
  registry: ScenarioRegistry,
  log: Log,
  keys: SandboxKeys,
): SandboxState {
  const security = securityOf(options)
  const tenants = new Tenants(log, {
    maxWorlds: options.maxWorlds ?? defaultMaxWorlds(options),
    // without --state-dir an evicted world could not come back: none is evicted, a new one past the cap is refused
    ...(options.stateDir ? {} : { full: worldsFull }),
    ...(options.claimedKey ? { claimed: options.claimedKey } : {}),
    lifecycles: [
      { created: (world) => world.clock.onAdvance((now) => syncChainTime(fleet.chains.values(), now)) },
    ],
  })
  const ids = createIdGenerator(options.seed)
  const startable = networksOnUseOf(options) === 'start' ? startableOf(options) : () => false
  const events = new EventBus<SandboxTopics>(ids, log)
  const journal = new Journal(ids, {}, events, options.claimedKey)
  const base: SandboxStateWithoutScenarios = {
    currencies: catalogs.currencies,
    networks: catalogs.networks,
    chain: fleet.first,
    chains: fleet.chains,
    startsOnUse: (network) =>
      Object.hasOwn(catalogs.networks, network) && !fleet.chains.has(network) && startable(network),
    operator: createOperator(fleet.chains),
    relayers: fleet.relayers,
    events,
    ids,
    tenants,
    worlds: tenants,
    paymentReferences: new PaymentReferenceIndex(),
    tracing: options.telemetry?.tracing,
    conversion: fleet.conversion,
    directory: new TenantDirectory(),
    portal: new PortalCredentials({
      enabled: security.portal,
      // a developer's machine registers as its tests need; a shared listener, as a person does
      signupsPerMinute: options.signupsPerMinute ?? (security.exposed ? 10 : 120),
      challengesPerAddress: options.challengesPerAddress ?? (security.exposed ? 20 : 1000),
    }),
    onboarding: new OnboardingLedger({
      maxPlatforms: options.maxOnboardedPlatforms,
      maxIntents: options.maxLinkIntents,
    }),
    compliance: {
      kycReviewMs: options.complianceDelayMs ?? 5000,
      paymentDetailReviewMs: options.paymentDetailDelayMs ?? 3000,
    },
    journal,
    webhooks: new WebhookDelivery(
      new WebhookRegistry(ids),
      { ids, journal, tenants },
      {
        exposed: security.exposed,
        ...(options.claimedKey ? { claimed: options.claimedKey } : {}),
        ...options.webhooks,
      },
    ),
    // the off-ramp provider's deposit address: derived from the deployment's secret, like the roles
    offrampAddress: keys.derive('offramp').address,
    strictKeys: Boolean(options.apiKeys),
    security,
    faucetLimit: new FaucetLimit(undefined, options.faucetTotal, options.claimedKey),
    snapshots: new SnapshotStore(options.stateDir ? join(options.stateDir, 'snapshots') : null, {
      limits: {
        ...(options.snapshots?.maxPerKey !== undefined ? { perKey: options.snapshots.maxPerKey } : {}),
        ...(options.snapshots?.keyBytes !== undefined ? { keyBytes: options.snapshots.keyBytes } : {}),
        ...(options.snapshots?.totalBytes !== undefined ? { totalBytes: options.snapshots.totalBytes } : {}),
      },
      ...(options.claimedKey ? { claimed: options.claimedKey } : {}),
    }),
    streams: new StreamSlots(
      {
        ...(options.maxStreamsPerKey !== undefined ? { perKey: options.maxStreamsPerKey } : {}),
        ...(options.maxStreamsTotal !== undefined ? { total: options.maxStreamsTotal } : {}),
      },
      options.claimedKey,
    ),
    now: () => new Date(),
    supervisors: fleet.supervisors,
    log,
  }
  // webhooks never reach the chains' ports (nor the sandbox's own)
  fleet.onEachChain((chain) => {
    const port = Number(new URL(chain.rpcUrl).port)
    if (port) base.webhooks.policy.protectPort(port)
  })
  const scenarios = new ScenarioEngine(base, registry, {
    ...(options.scenario ? { defaultScenario: options.scenario } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  })
  const shared: SandboxState = { ...base, scenarios }
  // platform worlds count for their orchestrator and wallet as they are created or brought back (--state-dir)
  tenants.attach({ created: (world) => shared.onboarding.notice(world) })
  tenants.attach({ created: (world) => shared.scenarios.applyRules(world) })
  return shared
}

/**
 * Worlds kept in memory when --max-worlds is not given: 1000 with --state-dir (the least recently used waits on disk)
 * and on a shared listener (strangers' keys: past it 507); a test suite or a developer's loopback sandbox without a
 * state dir keeps up to 100,000 (a key per test over a long suite), since none is ever dropped to make room.
 */
export function defaultMaxWorlds(options: Pick<SandboxOptions, 'stateDir' | 'exposed'>): number {
  return options.stateDir || options.exposed ? 1000 : 100_000
}

/** A new world past --max-worlds without --state-dir: 507, naming the limit and the flags that lift it. */
function worldsFull(maxWorlds: number): Error {
  return new SandboxError(
    507,
    `The sandbox holds its maximum of ${maxWorlds} worlds (API key x scenario) in memory and keeps every one of them: raise it with --max-worlds, or start with --state-dir (worlds past the limit then wait on disk), or reset keys you no longer use (POST /__sandbox/reset)`,
  )
}

/**
 * The bus's one subscriber, naming what follows each event: its key's journal, its webhooks, then what it sets off
 * (a secure payment link's request paid: the link completes and the `.checkout` variant is emitted).
 */
export function wireEvents(shared: SandboxState): void {
  shared.events.subscribe((event, world) => {
    try {
      shared.journal.record(event.tenant, {
        type: 'event',
        at: event.at,
        scenario: event.scenario,
        eventId: event.id,
        event: event.type,
        payload: event.payload,
      })
      shared.webhooks.handleEvent(event)
    } catch (error) {
      shared.log(`event listener failed on ${event.type}`, error)
    }
    return followPaymentEvent(shared, event, world)
  })
}

/**
 * A world leaving memory takes along what other pieces kept for it (nothing may keep it alive). Answers the seeded
 * id sequences of the keys (with `seed`), which the dispatcher hands each call.
 */
export function wireWorldLifecycle(
  shared: SandboxState,
  options: Pick<SandboxOptions, 'seed' | 'stateDir'>,
): TenantIds | null {
  const tenantIds = options.seed !== undefined ? new TenantIds(options.seed) : null
  // a payment to a request of a world waiting on disk brings the world back to be recorded (--state-dir)
  shared.paymentReferences.setReviver((tenant, scenario) => shared.tenants.get(tenant, scenario))
  shared.tenants.attach({
    reset: (tenant) => {
      shared.paymentReferences.forgetTenant(tenant)
      // the key's worlds waiting on disk (--state-dir) were not in memory to be dropped: their credentials go here
      shared.directory.forgetTenant(tenant)
    },
    dropped: (world, reason, lastOfTenant) => {
      // with --state-dir an evicted world waits on disk: its credentials, sessions and id sequence stay valid, and its
      // payment references stay indexed (by key and scenario, not the world object)
      if (reason === 'evict' && options.stateDir) {
        shared.paymentReferences.park(world)
        return
      }
      shared.paymentReferences.forget(world)
      shared.directory.forgetWorld(world.tenant, world.scenario)
      if (lastOfTenant && reason !== 'drop') tenantIds?.forget(world.tenant)
      if (lastOfTenant && reason === 'evict') {
        shared.journal.clear(world.tenant)
        shared.directory.forgetSessions(world.tenant)
      }
    },
  })
  return tenantIds
}

/** --state-dir: what a previous run saved comes back (before the first call and the first detector scan). */
export async function openState(
  options: Pick<SandboxOptions, 'stateDir'>,
  shared: SandboxState,
  fleet: ChainFleet,
): Promise<StateDir | null> {
  if (!options.stateDir) return null
  const stateDir = new StateDir(options.stateDir, shared, fleet.embeddedNetworks())
  // the state dir observes, brings back and commits the worlds from the first one on
  shared.tenants.attach(stateDir)
  try {
    await stateDir.load()
    // a saved chain of an earlier version came back with that version's escrow: this one's code replaces it
    await Promise.all([...fleet.chains.values()].map((chain) => refreshCommerceEscrow(chain)))
  } catch (error) {
    // a state.db that cannot be read stops the start: the file is closed, not held open behind the error
    await stateDir.abandon().catch(() => {})
    throw error
  }
  return stateDir
}
