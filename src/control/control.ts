// The control API as plain functions of the sandbox: the /__sandbox/* routes and the test harness both call
// these, so a test that drives the sandbox in-process does exactly what an HTTP client of the control API does.

import type { LiveChain } from '../chain/index.ts'
import type { EventType, SandboxEvent } from '../contract/events.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import type { World } from '../contract/world.ts'
import type { HarnessChainInfo, HarnessTronInfo, HarnessWebhook } from '../harness/types.ts'
import { TRON_PATH, toTronAddress, tronHex } from '../tron/index.ts'
import { type DeliveryRecord, redeliver, registerWebhook } from '../webhooks/index.ts'
import { boundedAdvance } from './clock.ts'
import { type FaucetBody, type FaucetResult, faucet } from './faucet.ts'
import type { JournalEntry, JournalFilter } from './journal.ts'
import type { ScenarioEngine, ScenarioState } from './scenarios/engine.ts'
import type { SandboxState } from './services.ts'

/** The control API of one sandbox, for one key at a time. */
export interface SandboxControl {
  /** drops every world of the key (they are seeded afresh on next use) and its journal; webhooks stay */
  reset(tenant: string): void
  /** the scenario the key runs in (or `scenario`), seeded, with the ids its seed created */
  scenario(tenant: string, scenario?: string, baseUrl?: string): Promise<ScenarioState>
  /** switches the key to a scenario (PUT /__sandbox/scenario) and seeds it (links use `baseUrl`) */
  useScenario(tenant: string, name: string, baseUrl?: string): Promise<ScenarioState>
  /** every scenario with what it creates (and the ids seeded in the key's worlds) */
  scenarios(tenant?: string): ReturnType<ScenarioEngine['list']>
  /** the key's seeded world of its current scenario (or `scenario`) */
  world(tenant: string, scenario?: string, baseUrl?: string): Promise<World>
  /** moves the key's clock forward (its timed transitions run; the chains' time follows) */
  advanceClock(tenant: string, seconds: number, scenario?: string): Promise<Date>
  /** mints a token or sets the ETH balance of an address */
  /** `onlyAdd` (a shared listener): a native amount below the address's balance is refused */
  faucet(body: FaucetBody, options?: { onlyAdd?: boolean }): Promise<FaucetResult>
  /** the key's journal, newest first */
  journal(tenant: string, filter?: JournalFilter): JournalEntry[]
  /** the key's webhook deliveries, newest first */
  deliveries(tenant: string): DeliveryRecord[]
  /** sends a delivery again (404 when the key has no such delivery) */
  redeliver(tenant: string, deliveryId: string): DeliveryRecord
  /** the domain events of the key's world (current scenario or `scenario`), oldest first, optionally of one type */
  events(tenant: string, type?: EventType, scenario?: string): Promise<SandboxEvent[]>
  /** registers a webhook URL for the key, optionally with a pinned signing secret */
  registerWebhook(tenant: string, url: string, secret?: string): Promise<HarnessWebhook>
  /** the live chains (RPC URLs under `baseUrl`, the sandbox's public URL, when given, else anvil's own); 404 without a chain */
  chainInfo(baseUrl?: string): HarnessChainInfo
  /** emits a domain event in the key's world, as a resource would (journal, webhooks) */
  emit(
    tenant: string,
    type: EventType,
    payload: Record<string, unknown>,
    scenario?: string,
  ): Promise<SandboxEvent>
}

/** Builds the control API over a sandbox's shared state. */
export function createControl(shared: SandboxState): SandboxControl {
  const { scenarios } = shared
  return {
    reset(tenant) {
      shared.tenants.reset(tenant)
      shared.journal.clear(tenant)
    },
    async scenario(tenant, scenario, baseUrl) {
      return scenarios.state(await scenarios.world(tenant, scenario, baseUrl))
    },
    async useScenario(tenant, name, baseUrl) {
      // seeded first: a scenario that cannot be seeded here leaves the key on the one it had
      const world = await scenarios.world(tenant, name, baseUrl)
      scenarios.select(tenant, name)
      return scenarios.state(world)
    },
    scenarios: (tenant) => scenarios.list(tenant ?? null),
    world: (tenant, scenario, baseUrl) => scenarios.world(tenant, scenario, baseUrl),
    async advanceClock(tenant, seconds, scenario) {
      const world = await scenarios.world(tenant, scenario)
      return world.clock.advance(boundedAdvance(shared.security, world.clock.now(), seconds * 1000))
    },
    faucet: (body, options) => faucet(shared, body, options),
    journal: (tenant, filter) => shared.journal.list(tenant, filter),
    deliveries: (tenant) => shared.webhooks.deliveries(tenant),
    redeliver: (tenant, deliveryId) => redeliver(shared.webhooks, tenant, deliveryId),
    async events(tenant, type, scenario) {
      const world = await scenarios.world(tenant, scenario)
      return world.events.filter((e) => type === undefined || e.type === type)
    },
    async registerWebhook(tenant, url, secret) {
      const now = (await scenarios.world(tenant)).clock.now()
      return registerWebhook(shared.webhooks, tenant, url, now, secret)
    },
    chainInfo(baseUrl) {
      const { chain } = shared
      if (!chain) throw new SandboxError(404, 'This sandbox runs without a chain')
      const rpc = (network: string | null, anvil: string) =>
        baseUrl ? `${baseUrl}/rpc${network ? `/${network}` : ''}` : anvil
      return {
        network: chain.network,
        chainId: chain.chainId,
        rpcUrl: rpc(null, chain.rpcUrl),
        anvilRpcUrl: chain.rpcUrl,
        contracts: chain.contracts,
        tokens: chain.tokens,
        accounts: chain.accounts.map((a) => ({ address: a.address, privateKey: a.privateKey })),
        chains: [...shared.chains.values()].map((c) => ({
          network: c.network,
          chainId: c.chainId,
          rpcUrl: rpc(c.network, c.rpcUrl),
          anvilRpcUrl: c.rpcUrl,
          contracts: c.contracts,
          tokens: c.tokens,
          ...(c.tron ? { tron: tronInfo(c, baseUrl) } : {}),
        })),
        roles: {
          deployer: chain.roles.deployer.address,
          relayer: chain.roles.relayer.address,
          operator: chain.roles.operator.address,
        },
      }
    },
    async emit(tenant, type, payload, scenario) {
      return shared.events.emit(await scenarios.world(tenant, scenario), type, payload)
    },
  }
}

/** The Tron face of the `tron` chain for GET /__sandbox/chain. */
function tronInfo(chain: LiveChain, baseUrl: string | undefined): HarnessTronInfo {
  const tron = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, toTronAddress(v)]))
  return {
    fullHost: baseUrl ? `${baseUrl}${TRON_PATH}` : null,
    contracts: tron(chain.contracts),
    tokens: tron(chain.tokens),
    accounts: chain.accounts.map((a) => ({
      address: toTronAddress(a.address),
      hexAddress: tronHex(a.address),
      privateKey: a.privateKey.slice(2),
    })),
  }
}
