// Narrow ports onto sandbox-wide state that a few resources need and only the control plane owns: finding a
// world by its tenant (cross-tenant work: payment matching, payer pages, sessions), and the directory of
// credentials that name their tenant indirectly. The control plane's Tenants and TenantDirectory implement them;
// the portal resource's PortalCredentials implements the lookup authentication makes of the portal's state.
import type { EventType, SandboxEvent } from './events.ts'
import type { World } from './world.ts'

/** Read access to the worlds of every tenant (never creates tenants' choices, never drops a world). */
export interface WorldLookup {
  /** The world of `tenant` under `scenario`, created on first use. */
  get(tenant: string, scenario?: string): World
  /** The world of `tenant` under `scenario` if it exists. */
  peek(tenant: string, scenario?: string): World | undefined
  /** Every world, for cross-tenant work such as matching a payment log to its request. */
  all(): IterableIterator<World>
}

/** Where a client ID's record lives: the tenant (API key) that created it, its scenario and internal id. */
export interface ClientIdOwner {
  tenant: string
  scenario: string
  /** internal id (the `id` of the client-ids endpoints) */
  id: string
}

/** A session token issued by `POST /__sandbox/sessions`. */
export interface SessionEntry {
  tenant: string
  /** ISO time on the tenant's clock after which the token is refused */
  expiresAt: string
}

/** The payer behind the token of an agreement or KYC link. */
export interface PayerPageOwner {
  tenant: string
  scenario: string
  clientUserId: string
}

/** The world of an orchestrator whose link intent an onboarding token opens. */
export interface OnboardingOwner {
  tenant: string
  scenario: string
}

/** The sandbox-wide indexes from a credential to its tenant, explicitly named after what they map. */
export interface CredentialDirectory {
  /** public client ID (`cli_…`, the x-client-id header) -> its owner */
  readonly clientIdToTenant: Map<string, ClientIdOwner>
  /** session token (Authorization: Bearer) -> its tenant */
  readonly sessionToTenant: Map<string, SessionEntry>
  /** token in an agreementUrl / kycUrl -> the payer it belongs to */
  readonly pageTokenToPayer: Map<string, PayerPageOwner>
  /** token of an orchestrator's onboarding link (a link intent) -> the world holding the intent */
  readonly onboardingTokenToWorld: Map<string, OnboardingOwner>
  /** token of a secure payment link or multicall payout (its public page) -> the world holding it */
  readonly securePaymentTokenToWorld: Map<string, OnboardingOwner>
}

/** What checking a client ID or a session token reads: the directory and the worlds it points into. */
export interface CredentialPorts {
  directory: CredentialDirectory
  worlds: WorldLookup
}

/** How authentication treats an `x-api-key`: keys the portal issued answer by their state, refused values 401. */
export type KeyStanding = 'active' | 'refused' | 'unknown'

/**
 * What authentication reads of the portal's state (the portal resource's PortalCredentials implements it): the
 * standing of an x-api-key, and the platform behind a live `session_token` cookie.
 */
export interface PortalCredentialLookup {
  /** Issued keys answer by their state; refused values (deleted keys, platform tenants) `refused`; else `unknown`. */
  standing(key: string): KeyStanding
  /** The platform of a live session token (`now`: ms since epoch, real time); expired tokens are dropped. */
  platformOfSession(token: string, now: number): { id: string; tenant: string } | undefined
}

/** Where resources send their events: recorded in the world's log and handed to the listeners. */
export interface EventSink {
  /** Emits an event in `world` at the world's clock time. `payload.event` is set to the type. */
  emit(
    world: World,
    type: EventType,
    payload: Record<string, unknown>,
    options?: { clientId?: string | null },
  ): SandboxEvent
}

/** One webhook delivery attempt. */
export interface DeliveryEntry {
  type: 'delivery'
  deliveryId: string
  webhookId: string
  url: string
  event: string
  test: boolean
  retryCount: number
  /** the receiver's status, null when it could not be reached or timed out */
  status: number | null
  error: string | null
  durationMs: number
  /** after this attempt: delivered, will be retried, or given up */
  outcome: 'delivered' | 'retrying' | 'failed'
}

/**
 * Where webhook delivery records each attempt (the control plane's Journal implements it), so that `events/`
 * needs nothing of `control/`.
 */
export interface DeliveryJournal {
  record(tenant: string, entry: DeliveryEntry & { at: string; scenario: string }): unknown
}
