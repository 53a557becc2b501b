import { keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { TenantDirectory } from './auth/directory.ts'
import {
  type ChainContracts,
  createOperator,
  createRelayer,
  type LiveChain,
  type NetworkName,
  type PaymentDetector,
  type Relayer,
  type StartedChain,
  startChain,
  startDetector,
  superviseChain,
  syncChainTime,
} from './chain/index.ts'
import { loadNetworkTable } from './contract/networks.ts'
import type { NeutralRequest, NeutralResponse } from './contract/neutral.ts'
import { createControl, type SandboxControl } from './control/control.ts'
import { Journal } from './control/journal.ts'
import { faultMiddleware, journalMiddleware, scenarioMiddleware } from './control/middleware.ts'
import { rpcGuardMiddleware } from './control/rpc-guard.ts'
import type { SandboxState, SandboxStateWithoutScenarios } from './control/sandbox-state.ts'
import { ScenarioEngine } from './control/scenarios/engine.ts'
import { loadScenarios } from './control/scenarios/registry.ts'
import { StateDir } from './control/state-dir.ts'
import { createDispatcher } from './dispatch.ts'
import { EventBus } from './events/event-bus.ts'
import { WebhookDelivery, type WebhookDeliveryOptions } from './events/webhook-delivery.ts'
import { loadCurrencyCatalog } from './resources/currencies/catalog.ts'
import { PortalCredentials } from './resources/portal/index.ts'
import { ConversionRegistry } from './resources/rates/registry.ts'
import { createDetectionSink, type PaymentListener } from './resources/requests/detection.ts'
import { PaymentReferenceIndex } from './resources/requests/reference-index.ts'
import { subscribeSecurePaymentEvents } from './resources/secure-payments/events.ts'
import { WebhookRegistry } from './resources/webhooks/registry.ts'
import { routes } from './routes.ts'
import { createIdGenerator } from './store/ids.ts'
import { TenantIds } from './store/tenant-ids.ts'
import { Tenants } from './store/tenants.ts'

/** Options of createSandbox. */
export interface SandboxOptions {
  /**
   * The chain: `'embedded'` (default) spawns anvil and installs the contracts; `{rpcUrl}` uses a running anvil
   * (installing the contracts on it); `false` runs without a chain (no balance checks, no /rpc).
   */
  chain?: 'embedded' | { rpcUrl: string } | false
  /** networks to run, one anvil each (default ['sepolia']); the first one is served at /rpc */
  networks?: NetworkName[]
  /** strict mode: only these API keys pass (otherwise every key is its own tenant) */
  apiKeys?: string[]
  /** tenant-clock ms a submitted KYC waits before the sandbox's provider approves it (default 5000) */
  complianceDelayMs?: number
  /** tenant-clock ms a new bank payment detail stays pending before it is approved (default 3000) */
  paymentDetailDelayMs?: number
  /** makes ids and fake data the same run after run */
  seed?: number
  /** where unexpected errors are reported (default: console.error) */
  log?: (message: string, error?: unknown) => void
  /** the scenario of keys that chose none (default 'default') */
  scenario?: string
  /** folders of extra scenarios (TypeScript, JavaScript or JSON files) beside the built-in ones */
  scenarioDirs?: string[]
  /** webhook delivery: retry schedule, timeout, a server-wide URL and secret */
  webhooks?: WebhookDeliveryOptions
  /**
   * Worlds (key x scenario) kept in memory (default 1000). Past it the least recently used one is evicted: with
   * `stateDir` to disk, back on its next use; without, its state is dropped (the key starts afresh, as after a
   * reset), and when none of its key's worlds is left, the key's journal and seeded id sequence go too.
   */
  maxWorlds?: number
  /**
   * Keeps the state across restarts in this folder (saved every second, atomically): worlds, clocks, scenario
   * choices, webhooks, client IDs, sessions and each embedded chain's anvil state. Without it, state lives in memory.
   */
  stateDir?: string
  /** the largest `x-sandbox-delay` accepted, in ms (default 30 000) */
  maxDelayMs?: number
  /**
   * JSON-RPC admin methods (anvil_*, evm_*, ...) the strict-mode keys may call through /rpc: names, `prefix_*`, or
   * `*`. Without strict mode any API key may call them; without a key, nobody.
   */
  rpcAdmin?: string[]
  /**
   * Test only: ms an embedded anvil that died stays down (health `degraded`) before its supervisor starts it again
   * (default 0: at once). Lets a test watch the outage's 503 answers; never needed otherwise.
   */
  chainRestartDelayMs?: number
}

/** One sandbox: all state of all tenants, the chains, and the dispatcher both transports call. */
export interface Sandbox {
  /** handles one neutral request (what the Express app and the MSW handlers call) */
  dispatch(request: NeutralRequest): Promise<NeutralResponse>
  /** where unexpected errors are reported (SandboxOptions.log) */
  log(message: string, error?: unknown): void
  shared: SandboxState
  /** the first live chain */
  chain: LiveChain | null
  /** every live chain by network */
  chains: ReadonlyMap<string, LiveChain>
  /** the payment detector of each live chain (sync() waits until the chain's payments are recorded) */
  detectors: ReadonlyMap<string, PaymentDetector>
  /** the control API (/__sandbox/*) as methods */
  control: SandboxControl
  /** forgets one tenant's world */
  reset(tenant: string): void
  /** calls `listener` with each payment the detectors record (the terminal log); returns the unsubscribe */
  onPayment(listener: PaymentListener): () => void
  /** stops timers and every embedded chain */
  close(): Promise<void>
}

async function startChains(
  option: SandboxOptions['chain'],
  wanted: NetworkName[],
  shared: Pick<SandboxState, 'currencies' | 'networks'>,
): Promise<StartedChain[]> {
  if (option === false) return []
  if (typeof option === 'object' && wanted.length > 1) {
    throw new Error('an rpcUrl serves one network: run several networks with embedded chains')
  }
  return Promise.all(
    wanted.map((network) =>
      startChain({
        network,
        ...(typeof option === 'object' ? { rpcUrl: option.rpcUrl } : {}),
        currencies: [...shared.currencies.all],
        contracts: (shared.networks[network]?.contracts ?? {}) as ChainContracts,
      }),
    ),
  )
}

/** Creates a sandbox; with the default options it spawns its own anvil chain. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const currencies = loadCurrencyCatalog()
  const networks = loadNetworkTable()
  const wanted = options.networks?.length ? [...new Set(options.networks)] : (['sepolia'] as NetworkName[])
  for (const network of wanted)
    if (!networks[network])
      throw new Error(
        `unknown network ${JSON.stringify(network)}: the networks the sandbox can run are ${Object.keys(networks).join(', ')} (--networks takes a comma-separated list of them)`,
      )
  // scenario files load (tsx compiles the TypeScript ones) while anvil boots in its own process
  const scenariosLoading = loadScenarios(options.scenarioDirs)
  scenariosLoading.catch(() => {})
  const started = await startChains(options.chain ?? 'embedded', wanted, { currencies, networks })
  const chains = new Map<string, LiveChain>(started.map((c) => [c.network, c]))
  // after a reset of a node reached by rpcUrl (called seconds after start-up, when `conversion` exists)
  const reinstallChain = async (c: StartedChain) => {
    await startChain({
      network: c.network,
      rpcUrl: c.rpcUrl,
      currencies: [...currencies.all],
      contracts: (networks[c.network]?.contracts ?? {}) as ChainContracts,
    })
    await conversion.installDefaults()
  }
  // an embedded anvil that dies comes back within a second or two, with the state it had; a node reached by rpcUrl
  // that was reset gets the contracts again
  const supervisors = new Map(
    started.map((c) => [
      c.network,
      superviseChain(c, {
        ...(options.log ? { log: options.log } : {}),
        ...(c.pid === null ? { reinstall: () => reinstallChain(c) } : {}),
        ...(options.chainRestartDelayMs ? { restartDelayMs: options.chainRestartDelayMs } : {}),
      }),
    ]),
  )
  // a receipt is handed out once the embedded anvil's saved state holds its block (kill -9 keeps the payment)
  for (const c of started)
    if (c.pid !== null) c.keepBlock = (block) => supervisors.get(c.network)!.saveThrough(block)
  const chain = started[0] ?? null
  const log =
    options.log ??
    ((message: string, error?: unknown) => console.error(`[request-sandbox] ${message}`, error ?? ''))
  const tenants = new Tenants(log, options.maxWorlds !== undefined ? { maxWorlds: options.maxWorlds } : {})
  tenants.onCreate((world) => world.clock.onAdvance((now) => syncChainTime(chains.values(), now)))
  const ids = createIdGenerator(options.seed)
  const stopChains = async () => {
    await Promise.all([...supervisors.values()].map((sup) => sup.stop()))
    await Promise.all(started.map((c) => c.stop()))
  }
  const conversion = new ConversionRegistry(currencies, networks, chains)
  const journal = new Journal(ids)
  let registry: Awaited<ReturnType<typeof loadScenarios>>
  try {
    ;[, registry] = await Promise.all([conversion.installDefaults(), scenariosLoading])
  } catch (error) {
    await stopChains()
    throw error
  }
  const base: SandboxStateWithoutScenarios = {
    currencies,
    networks,
    chain,
    chains,
    operator: createOperator(chains),
    relayers: new Map(
      started.flatMap((c) => {
        const relayer = createRelayer(c)
        return relayer ? [[c.network, relayer] as [string, Relayer]] : []
      }),
    ),
    events: new EventBus(ids, log),
    ids,
    tenants,
    worlds: tenants,
    paymentReferences: new PaymentReferenceIndex(),
    conversion,
    directory: new TenantDirectory(),
    portal: new PortalCredentials(),
    compliance: {
      kycReviewMs: options.complianceDelayMs ?? 5000,
      paymentDetailReviewMs: options.paymentDetailDelayMs ?? 3000,
    },
    journal,
    webhooks: new WebhookDelivery(new WebhookRegistry(ids), { ids, journal, tenants }, options.webhooks),
    offrampAddress: privateKeyToAccount(keccak256(toHex('request-sandbox:offramp'))).address,
    strictKeys: Boolean(options.apiKeys),
    now: () => new Date(),
    supervisors,
    log,
  }
  let scenarios: ScenarioEngine
  try {
    scenarios = new ScenarioEngine(base, registry, {
      ...(options.scenario ? { defaultScenario: options.scenario } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    })
  } catch (error) {
    await stopChains()
    throw error
  }
  const shared: SandboxState = { ...base, scenarios }
  tenants.onCreate((world) => shared.scenarios.applyRules(world))
  shared.events.subscribe((event) => {
    journal.record(event.tenant, {
      type: 'event',
      at: event.at,
      scenario: event.scenario,
      eventId: event.id,
      event: event.type,
      payload: event.payload,
    })
    shared.webhooks.handleEvent(event)
  })
  subscribeSecurePaymentEvents(shared.events, shared)
  const tenantIds = options.seed !== undefined ? new TenantIds(options.seed) : null
  // a world leaving memory takes along what other pieces kept for it: nothing may keep it alive
  tenants.onDrop((world, reason, lastOfTenant) => {
    shared.paymentReferences.forget(world)
    // with --state-dir an evicted world waits on disk: its credentials, sessions and id sequence stay valid
    if (reason === 'evict' && options.stateDir) return
    shared.directory.forgetWorld(world.tenant, world.scenario)
    if (lastOfTenant && reason !== 'drop') tenantIds?.forget(world.tenant)
    if (lastOfTenant && reason === 'evict') {
      journal.clear(world.tenant)
      shared.directory.forgetSessions(world.tenant)
    }
  })
  let stateDir: StateDir | null = null
  const dispatch = createDispatcher(routes, shared, {
    // with --state-dir an answer leaves once the changes it reports are committed
    durable: (method) => stateDir?.barrier(method),
    ...(options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {}),
    ...(tenantIds ? { idsFor: (tenant: string) => tenantIds.for(tenant) } : {}),
    middleware: [
      rpcGuardMiddleware({
        ...(options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {}),
        ...(options.rpcAdmin ? { rpcAdmin: options.rpcAdmin } : {}),
      }),
      (call, next) => (stateDir ? stateDir.guard(call, next) : next()),
      journalMiddleware(shared),
      scenarioMiddleware(shared),
      faultMiddleware(shared, options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
    ],
  })
  // --state-dir: what a previous run saved comes back before the first call and the first detector scan
  if (options.stateDir) {
    stateDir = new StateDir(
      options.stateDir,
      shared,
      new Set(started.filter((c) => c.pid !== null).map((c) => c.network)),
    )
    try {
      await stateDir.load()
    } catch (error) {
      await stopChains()
      throw error
    }
    stateDir.start()
  }
  const paymentListeners = new Set<PaymentListener>()
  const sink = createDetectionSink(shared, (world, request, payment) => {
    for (const listener of paymentListeners) {
      try {
        listener(world, request, payment)
      } catch (error) {
        log('a payment listener failed', error)
      }
    }
  })
  const detectors = new Map<string, PaymentDetector>(
    started.map((c) => [
      c.network,
      startDetector({ chain: c, proxies: () => conversion.proxies(c.network), sink, log }),
    ]),
  )
  const control = createControl(shared)
  let closed = false
  return {
    dispatch,
    log,
    shared,
    chain,
    chains,
    detectors,
    control,
    reset: (tenant) => control.reset(tenant),
    onPayment(listener) {
      paymentListeners.add(listener)
      return () => {
        paymentListeners.delete(listener)
      }
    },
    async close() {
      if (closed) return
      closed = true
      await stateDir?.stop().catch((error) => log('--state-dir: last save failed', error))
      shared.webhooks.close()
      await Promise.all([...detectors.values()].map((d) => d.stop()))
      tenants.dispose()
      await stopChains()
    },
  }
}
