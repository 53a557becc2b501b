// The services resources may use, each typed by its owner (the chain's door, the file of a resource that defines it,
// the webhook port, the contract's ports). A resource names the ones it uses: its routes with
// `routesUsing<Services<'a' | 'b'>>()`, its model functions with a context type `Uses<'a' | 'b'>`. The sandbox builds
// one object satisfying all of them (`buildState` of src/sandbox/build-services.ts, typed `SandboxState` in
// src/control/services.ts); tenants, scenarios, the journal and webhook delivery are not among them.
import type { LiveChain, Relayer, SandboxOperator } from '../chain/index.ts'
import type { CurrencyCatalog } from '../contract/currencies.ts'
import type { NetworkTable } from '../contract/networks.ts'
import type { CredentialDirectory, EventSink, WorldLookup } from '../contract/ports.ts'
import type { CallScope } from '../contract/route-context.ts'
import type { FlowTracing } from '../contract/tracing.ts'
import type { World } from '../contract/world.ts'
import type { IdGenerator } from '../store/ids.ts'
import type { WebhookPort } from '../webhooks/index.ts'
import type { OnboardingLedger } from './orchestrators/onboarding-limits.ts'
import type { PortalCredentials } from './portal/credentials.ts'
import type { ConversionRegistry } from './rates/registry.ts'
import type { PaymentReferenceIndex } from './requests/reference-index.ts'

/** Every service a resource may receive. */
export interface ResourceServices {
  currencies: CurrencyCatalog
  networks: NetworkTable
  /** the first live chain (what /rpc serves); null when the sandbox runs without a chain */
  chain: LiveChain | null
  /** every live chain by network name (one anvil each) */
  chains: ReadonlyMap<string, LiveChain>
  /**
   * Whether `network`, not running, starts when a call names it (the command's default, networks on first use);
   * false with `--only-networks`, outside `--networks-on-use`, or without embedded chains.
   */
  startsOnUse(network: string): boolean
  /** the cross-chain operator (settles payment intents on the live chains); null without a chain */
  operator: SandboxOperator | null
  /** the recurring-payment relayer of each live chain that has a recurring proxy */
  relayers: ReadonlyMap<string, Relayer>
  events: EventSink
  ids: IdGenerator
  /** keccak256(payment reference) -> requests of any tenant: what the payment detector matches logs against */
  paymentReferences: PaymentReferenceIndex
  /** rates, conversion routes and the conversion contracts installed on the live chains */
  conversion: ConversionRegistry
  /** read access to every tenant's worlds (cross-tenant matching, payer pages, sessions) */
  worlds: WorldLookup
  /** credentials that name their tenant indirectly: client IDs, session tokens, payer page links */
  directory: CredentialDirectory
  /** the portal's state: platform accounts, cookie sessions, issued API keys, values refused as x-api-key */
  portal: PortalCredentials
  /** the platform worlds hosted onboarding created, per orchestrator and wallet, and their bound */
  onboarding: OnboardingLedger
  /** a key's webhook registrations and its test deliveries */
  webhooks: WebhookPort
  /** delays of the compliance provider's timed decisions, in tenant-clock milliseconds */
  compliance: { kycReviewMs: number; paymentDetailReviewMs: number }
  /** the sandbox's off-ramp deposit address: crypto-to-fiat requests are paid to it */
  offrampAddress: string
  /** traces (OpenTelemetry): undefined unless OTEL_EXPORTER_OTLP_ENDPOINT turned them on */
  tracing: FlowTracing | undefined
  /** real time (a tenant's time is world.clock.now()) */
  now(): Date
  log(message: string, error?: unknown): void
}

/** The services named by `K`, as a model function or a route declares what it uses. */
export type Services<K extends keyof ResourceServices> = Pick<ResourceServices, K>

/** A handler's or model function's context: the services named by `K` plus the call scope (world, caller). */
export type Uses<K extends keyof ResourceServices> = Pick<ResourceServices, K> & CallScope

/**
 * A context bound to `world` that outlives the call that made it (timed tasks, a payer page acting for its
 * tenant): the same services, the world's tenant, no caller.
 */
export function inWorld<S extends object>(services: S, world: World): S & CallScope {
  // defined, not assigned: `services` may be a call's context, whose `world` is a getter
  return Object.create(services, {
    tenant: { value: world.tenant, enumerable: true },
    caller: { value: null, enumerable: true },
    world: { value: world, enumerable: true },
  }) as S & CallScope
}
