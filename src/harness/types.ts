// The test harness as one interface: what a test drives its own tenant with (scenario, clock, faucet, chain,
// events, webhooks, journal, reset). Two implementations share it: in-process over a sandbox object
// (`createTestSandbox` in `request-sandbox/msw`, ./in-process.ts) and over HTTP against a running server's control
// API (`remoteTenant` in `request-sandbox/msw/browser`, ./remote.ts). Types only: the browser bundle may import it.
import type { Address } from 'viem'
import type { NetworkName } from '../chain/index.ts'
import type { EventType, SandboxEvent } from '../contract/events.ts'
import type { FaucetResult } from '../control/faucet.ts'
import type { JournalEntry, JournalFilter } from '../control/journal.ts'
import type { ScenarioState } from '../control/scenarios/engine.ts'
import type { DeliveryRecord } from '../webhooks/index.ts'

export type { EventType, FaucetResult, JournalEntry, JournalFilter, SandboxEvent, ScenarioState }

/** A webhook registered through the harness: where it goes and the secret its deliveries are signed with. */
export interface HarnessWebhook {
  id: string
  url: string
  secret: string
}

/** A webhook delivery as the harness shows it: every attempt, the exact signed bytes (`body`) and their parse. */
export type HarnessDelivery = Omit<DeliveryRecord, 'tenant'> & { payload: unknown }

/** One live chain as GET /__sandbox/chain describes it (RPC URLs through the sandbox when it has a host). */
export interface HarnessChain {
  network: NetworkName
  chainId: number
  /** the JSON-RPC URL a wallet uses */
  rpcUrl: string
  /** anvil's own URL */
  anvilRpcUrl: string
  contracts: Record<string, Address>
  tokens: Record<string, Address>
  /** the `tron` chain only: what Tron tooling (TronWeb) needs */
  tron?: HarnessTronInfo
}

/** The Tron face of the `tron` chain: TronWeb's `fullHost`, `T…` addresses, funded accounts with their keys. */
export interface HarnessTronInfo {
  /** the sandbox's TronGrid-style full node (give it to TronWeb as `fullHost`); null without a public URL */
  fullHost: string | null
  contracts: Record<string, string>
  tokens: Record<string, string>
  /** funded with TRX (the native balance) and every TRC-20; the keys are the EVM accounts' keys */
  accounts: { address: string; hexAddress: string; privateKey: string }[]
}

/** GET /__sandbox/chain: the first live chain (its funded default accounts and the sandbox's roles) and all chains. */
export interface HarnessChainInfo extends HarnessChain {
  accounts: { address: Address; privateKey: `0x${string}` }[]
  chains: HarnessChain[]
  roles: { deployer: Address; relayer: Address; operator: Address }
}

/** A test's own tenant: an API key nobody else uses, with the control API bound to it. */
export interface HarnessTenant<Target = string> {
  readonly apiKey: string
  /** the headers the app must send (`x-api-key`) */
  readonly headers: Record<string, string>
  /** switches this tenant to a scenario (seeded); its ids are in the result */
  use(scenario: string): Promise<ScenarioState>
  /** the tenant's current scenario, seeded, with its ids */
  scenario(): Promise<ScenarioState>
  /** the tenant clock: timed transitions and recurring payments run as it moves; the chains' time follows */
  clock: {
    now(): Promise<Date>
    advance(seconds: number): Promise<Date>
  }
  /** mints a token or sets the ETH balance of an address on the currency's live chain */
  faucet(address: string, currency: string, amount: string): Promise<FaucetResult>
  /** the live chains (404 error when the sandbox runs without one) */
  chainInfo(): Promise<HarnessChainInfo>
  /** the domain events of the tenant's current world, oldest first (optionally of one type) */
  events(type?: EventType): Promise<SandboxEvent[]>
  /** resolves with the first event of `type` (already emitted or to come) */
  waitForEvent(type: EventType, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  /** emits a domain event in the tenant's world, as a resource would: journal and webhooks follow */
  emit(type: EventType, payload: Record<string, unknown>): Promise<SandboxEvent>
  /** API calls, events and webhook delivery attempts, newest first */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>
  webhooks: {
    /** registers a webhook for this tenant's events; `secret` pins its signing secret (64 hex) */
    deliverTo(target: Target, options?: { secret?: string }): Promise<HarnessWebhook>
    /** deliveries of this tenant, newest first */
    deliveries(): Promise<HarnessDelivery[]>
    /** resolves when a delivery of `event` reaches `state` (default delivered) */
    waitForDelivery(
      event: string,
      options?: { state?: DeliveryRecord['state']; timeoutMs?: number },
    ): Promise<HarnessDelivery>
  }
  /** drops this tenant's worlds and journal (webhooks and scenario choice stay) */
  reset(): Promise<void>
}
