import type { TenantDirectory } from '../auth/directory.ts'
import type { ChainSupervisor } from '../chain/index.ts'
import type { SecuritySettings } from '../contract/security.ts'
import type { EventBus } from '../events/event-bus.ts'
import type { PaymentListener } from '../resources/requests/index.ts'
import type { ResourceServices } from '../resources/services.ts'
// the store's own module, not the door: the door's save and restore take this state (a cycle)
import type { SnapshotStore } from '../snapshots/store.ts'
import type { Tenants } from '../store/tenants.ts'
import type { WebhookDelivery } from '../webhooks/index.ts'
import type { FaucetLimit } from './faucet-limit.ts'
import type { Journal, JournalTopics } from './journal.ts'
import type { ScenarioEngine } from './scenarios/engine.ts'
import type { StreamSlots } from './stream-slots.ts'

/**
 * The topics of the sandbox's event bus besides domain events: each journal entry as recorded (`journal`: the
 * terminal log, --state-dir, the live streams of one key), each payment the detectors record (`payment`: the
 * terminal log).
 */
export interface SandboxTopics extends JournalTopics {
  payment: Parameters<PaymentListener>
}

/**
 * The whole state of one sandbox, as the control plane sees it: every resource service plus what only control
 * sees (tenants, scenarios, the journal, webhook delivery). Resources never receive this type.
 */
export interface SandboxState extends ResourceServices {
  /** every world, keyed by credential x scenario (the same object as `worlds`) */
  tenants: Tenants
  /** the one channel for what happens: domain events (webhooks, journal) and the topics above */
  events: EventBus<SandboxTopics>
  directory: TenantDirectory
  /** scenario selection per key and seeding per world */
  scenarios: ScenarioEngine
  /** every key's API calls, events and webhook deliveries */
  journal: Journal
  /** webhook registrations and delivery */
  webhooks: WebhookDelivery
  /** the supervisor of each live chain (restarts a dead anvil with its state, reinstalls a reset node's contracts) */
  supervisors: ReadonlyMap<string, ChainSupervisor>
  /** named snapshots of keys (files under --state-dir, else memory) */
  snapshots: SnapshotStore
  /** the streams (live journal, listen clients) open per key and in all, within their bounds */
  streams: StreamSlots
  /** strict mode (--api-keys): only configured keys pass, and the sandbox never lists the keys it has seen */
  strictKeys: boolean
  /** what a shared demo holds against strangers (listener, portal, trusted origins, admin key, clock bound) */
  security: SecuritySettings
  /** each key's faucet calls this minute on a shared listener (outside the worlds: resets and restores keep it) */
  faucetLimit: FaucetLimit
}

/** The control plane's state without its scenario engine (what the engine itself is built from). */
export type SandboxStateWithoutScenarios = Omit<SandboxState, 'scenarios'>
