import type { Caller } from '../auth/authenticate.ts'
import type { TenantDirectory } from '../auth/directory.ts'
import type { SandboxOperator } from '../chain/operator.ts'
import type { Relayer } from '../chain/relayer.ts'
import type { LiveChain } from '../chain/types.ts'
import type { Journal } from '../control/journal.ts'
import type { ScenarioEngine } from '../control/scenarios/engine.ts'
import type { EventBus } from '../events/event-bus.ts'
import type { WebhookDelivery } from '../events/webhook-delivery.ts'
import type { CurrencyCatalog } from '../resources/currencies/catalog.ts'
import type { ConversionRegistry } from '../resources/rates/registry.ts'
import type { PaymentReferenceIndex } from '../resources/requests/reference-index.ts'
import type { IdGenerator } from '../store/ids.ts'
import type { Tenants } from '../store/tenants.ts'
import type { World } from '../store/world.ts'
import type { NetworkTable } from './networks.ts'

/** What every tenant shares: one chain, one token list, one id source. Named as shared on purpose. */
export interface SharedState {
  currencies: CurrencyCatalog
  networks: NetworkTable
  /** the first live chain (what /rpc serves); null when the sandbox runs without a chain */
  chain: LiveChain | null
  /** every live chain by network name (one anvil each) */
  chains: ReadonlyMap<string, LiveChain>
  /** the cross-chain operator (settles payment intents on the live chains); null without a chain */
  operator: SandboxOperator | null
  /** the recurring-payment relayer of each live chain that has a recurring proxy */
  relayers: ReadonlyMap<string, Relayer>
  events: EventBus
  ids: IdGenerator
  tenants: Tenants
  /** keccak256(payment reference) -> requests of any tenant: what the payment detector matches logs against */
  paymentReferences: PaymentReferenceIndex
  /** rates, conversion routes and the conversion contracts installed on the live chains */
  conversion: ConversionRegistry
  /** credentials that name their tenant indirectly: client IDs, session tokens, payer page links */
  directory: TenantDirectory
  /** delays of the compliance provider's timed decisions, in tenant-clock milliseconds */
  compliance: { kycReviewMs: number; paymentDetailReviewMs: number }
  /** the sandbox's off-ramp deposit address: crypto-to-fiat requests are paid to it */
  offrampAddress: string
  /** scenario selection per key and seeding per world */
  scenarios: ScenarioEngine
  /** every key's API calls, events and webhook deliveries */
  journal: Journal
  /** webhook registrations and delivery */
  webhooks: WebhookDelivery
  /** strict mode (--api-keys): only configured keys pass, and the sandbox never lists the keys it has seen */
  strictKeys: boolean
  /** real time (a tenant's time is world.clock.now()) */
  now(): Date
  log(message: string, error?: unknown): void
}

/** What a handler sees: the shared state and, on authenticated routes, the caller's world. */
export interface RouteContext {
  shared: SharedState
  /** the caller's credential, null on public routes */
  tenant: string | null
  /** who called (how, and with which client ID); null or absent on public routes */
  caller?: Caller | null
  /** the caller's world; throws on public routes */
  readonly world: World
}
