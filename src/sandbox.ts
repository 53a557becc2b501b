import { join } from 'node:path'
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
  watchCommerceEscrow,
} from './chain/index.ts'
import type { Middleware } from './contract/middleware.ts'
import { loadNetworkTable } from './contract/networks.ts'
import type { NeutralRequest, NeutralResponse } from './contract/neutral.ts'
import { DEFAULT_MAX_CLOCK_ADVANCE_MS, type SecuritySettings } from './contract/security.ts'
import { createControl, type SandboxControl } from './control/control.ts'
import { Journal } from './control/journal.ts'
import { faultMiddleware, journalMiddleware, scenarioMiddleware } from './control/middleware.ts'
import { networkMiddleware } from './control/networks-on-use.ts'
import { documentedRateLimitMiddleware, type RateLimitMode } from './control/rate-limit.ts'
import { rpcGuardMiddleware } from './control/rpc-guard.ts'
import type { SandboxState, SandboxStateWithoutScenarios } from './control/sandbox-state.ts'
import { ScenarioEngine } from './control/scenarios/engine.ts'
import { loadScenarios } from './control/scenarios/registry.ts'
import { SnapshotStore } from './control/snapshot-store.ts'
import { StateDir } from './control/state-dir.ts'
import { webhookChaosMiddleware } from './control/webhook-chaos.ts'
import { writeAtomically } from './control/world-snapshot.ts'
import { createDispatcher } from './dispatch.ts'
import { EventBus } from './events/event-bus.ts'
import { WebhookDelivery, type WebhookDeliveryOptions } from './events/webhook-delivery.ts'
import { applyEscrowEvents } from './resources/commerce-payments/index.ts'
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
  /**
   * A network a call names (a currency, `network`, the pay query's `chain`) that is not running: `'start'` starts
   * its anvil and contracts, then the call proceeds (what the command does); `'refuse'` answers 400 naming
   * `--only-networks` (the command's fixed list); `'published'` (default) answers with the network's published
   * addresses and reads no chain. Only with embedded chains.
   */
  networksOnUse?: 'start' | 'refuse' | 'published'
  /** strict mode: only these API keys pass (otherwise every key is its own tenant) */
  apiKeys?: string[]
  /** strict mode for orchestrators: only these `x-orchestrator-key`s pass (otherwise every `orc_…` key is its own) */
  orchestratorKeys?: string[]
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
  /** `documented`: the production limit of api-reference/authentication.mdx on client-ID calls (default `off`) */
  rateLimit?: RateLimitMode
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
  /**
   * The listener is not loopback-only (`startServer` sets it from `host`): webhooks reach public addresses only unless
   * `webhooks.hosts` allows more, `/__sandbox/keys` needs `adminKey`, /rpc admin methods need `rpcAdmin`.
   */
  exposed?: boolean
  /** strict mode (`apiKeys`) with the portal on: registration, login and issued keys (issued keys are tenants) */
  portal?: boolean
  /** origins allowed credentialed CORS (the portal cookie) and cross-origin control writes, besides the sandbox's own */
  allowedOrigins?: string[]
  /** the value of `x-sandbox-admin-key` that lists every key (`/__sandbox/keys`, the dashboard's key picker) */
  adminKey?: string
  /** how far past real time a key's clock may be moved, in seconds (default ten years) */
  maxClockAdvanceSeconds?: number
  /** portal registrations and key creations a client address may make per minute (default 10; 120 on loopback) */
  signupsPerMinute?: number
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
  const security: SecuritySettings = {
    exposed: Boolean(options.exposed),
    portal: !options.apiKeys || Boolean(options.portal),
    allowedOrigins: new Set(options.allowedOrigins ?? []),
    adminKey: options.adminKey,
    maxClockAdvanceMs:
      options.maxClockAdvanceSeconds !== undefined
        ? options.maxClockAdvanceSeconds * 1000
        : DEFAULT_MAX_CLOCK_ADVANCE_MS,
  }
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
  const relayers = new Map(
    started.flatMap((c) => {
      const relayer = createRelayer(c)
      return relayer ? [[c.network, relayer] as [string, Relayer]] : []
    }),
  )
  const base: SandboxStateWithoutScenarios = {
    currencies,
    networks,
    chain,
    chains,
    operator: createOperator(chains),
    relayers,
    events: new EventBus(ids, log),
    ids,
    tenants,
    worlds: tenants,
    paymentReferences: new PaymentReferenceIndex(),
    conversion,
    directory: new TenantDirectory(),
    portal: new PortalCredentials({
      enabled: security.portal,
      // a developer's machine registers as its tests need; a shared listener, as a person does
      signupsPerMinute: options.signupsPerMinute ?? (security.exposed ? 10 : 120),
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
        ...options.webhooks,
      },
    ),
    offrampAddress: privateKeyToAccount(keccak256(toHex('request-sandbox:offramp'))).address,
    strictKeys: Boolean(options.apiKeys),
    security,
    snapshots: new SnapshotStore(
      options.stateDir ? join(options.stateDir, 'snapshots') : null,
      writeAtomically,
    ),
    now: () => new Date(),
    supervisors,
    log,
  }
  // nor the chains' ports
  for (const c of started) {
    const port = Number(new URL(c.rpcUrl).port)
    if (port) base.webhooks.policy.protectPort(port)
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
  // networks a call names that are not running: started on first use, refused, or answered from published addresses
  const onDemand =
    options.chain === false || typeof options.chain === 'object' ? 'published' : options.networksOnUse
  const lateStart: { start?: (network: NetworkName) => Promise<void> } = {}
  let stateDir: StateDir | null = null
  const dispatch = createDispatcher(routes, shared, {
    // with --state-dir an answer leaves once the changes it reports are committed (without, nothing runs per call)
    ...(options.stateDir ? { durable: (method: string) => stateDir?.barrier(method) } : {}),
    ...(options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {}),
    ...(options.orchestratorKeys ? { orchestratorKeys: new Set(options.orchestratorKeys) } : {}),
    ...(tenantIds ? { idsFor: (tenant: string) => tenantIds.for(tenant) } : {}),
    middleware: [
      rpcGuardMiddleware({
        ...(options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {}),
        ...(options.rpcAdmin ? { rpcAdmin: options.rpcAdmin } : {}),
        exposed: security.exposed,
      }),
      ...(options.stateDir
        ? [((call, next) => (stateDir ? stateDir.guard(call, next) : next())) satisfies Middleware]
        : []),
      journalMiddleware(shared),
      scenarioMiddleware(shared),
      webhookChaosMiddleware(shared),
      faultMiddleware(shared, options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
      ...(onDemand === 'start' || onDemand === 'refuse'
        ? [
            networkMiddleware(shared, {
              live: (network) => chains.has(network),
              ...(onDemand === 'start' ? { start: (network) => lateStart.start!(network) } : {}),
            }),
          ]
        : []),
      ...(options.rateLimit === 'documented' ? [documentedRateLimitMiddleware(shared)] : []),
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
  // the commerce escrow's events (authorize, capture, void, refund) become the payments' transitions and webhooks
  const escrowWatchers = started.map((c) =>
    watchCommerceEscrow(c, { apply: (events) => applyEscrowEvents(shared, events) }, log),
  )
  // a network started on its first use (networksOnUse 'start'): its anvil, contracts, supervisor, relayer,
  // conversion stack and detector, as at start-up; concurrent first calls share one start
  const starting = new Map<string, Promise<void>>()
  const startNetwork = (network: NetworkName): Promise<void> => {
    let run = starting.get(network)
    if (!run) {
      run = (async () => {
        const [c] = await startChains('embedded', [network], { currencies, networks })
        if (!c) return
        if (closed) {
          await c.stop()
          return
        }
        started.push(c)
        supervisors.set(
          network,
          superviseChain(c, {
            ...(options.log ? { log: options.log } : {}),
            ...(options.chainRestartDelayMs ? { restartDelayMs: options.chainRestartDelayMs } : {}),
          }),
        )
        if (c.pid !== null) c.keepBlock = (block) => supervisors.get(network)!.saveThrough(block)
        const relayer = createRelayer(c)
        if (relayer) relayers.set(network, relayer)
        chains.set(network, c)
        await conversion.installDefaultsOn(c)
        detectors.set(
          network,
          startDetector({ chain: c, proxies: () => conversion.proxies(network), sink, log }),
        )
        escrowWatchers.push(
          watchCommerceEscrow(c, { apply: (events) => applyEscrowEvents(shared, events) }, log),
        )
      })()
      starting.set(network, run)
      run.catch(() => starting.delete(network))
    }
    return run
  }
  lateStart.start = startNetwork
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
      await Promise.all(escrowWatchers.map((w) => w.stop()))
      tenants.dispose()
      await stopChains()
    },
  }
}
