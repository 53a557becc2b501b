// createSandbox: the one object both transports take, built in named steps (src/sandbox/): the catalogs, the
// chains, the state, its wiring, what --state-dir brings back, the dispatcher, the chains' watchers.
import type { LiveChain, PaymentDetector } from './chain/index.ts'
import { keccakReady } from './contract/keccak.ts'
import type { Dispatch, NeutralRequest } from './contract/neutral.ts'
import { createControl, type SandboxControl } from './control/control.ts'
import { loadScenarios } from './control/scenarios/registry.ts'
import type { SandboxState } from './control/services.ts'
import { buildState, logOf, openState, wireEvents, wireWorldLifecycle } from './sandbox/build-services.ts'
import { loadCatalogs } from './sandbox/catalogs.ts'
import { ChainFleet } from './sandbox/chains.ts'
import { wireDetection } from './sandbox/detection.ts'
import { buildDispatcher } from './sandbox/dispatcher.ts'
import { loadSandboxKeys } from './sandbox/keys.ts'
import type { SandboxOptions } from './sandbox/options.ts'
import { baselineOf, putWarmChains, takeWarmChains, warmKind } from './sandbox/warm-chains.ts'

export type { SandboxOptions } from './sandbox/options.ts'

/** One sandbox: all state of all tenants, the chains, and the dispatcher both transports call. */
export interface Sandbox {
  /**
   * handles one neutral request, by a promise (what the MSW handlers, MCP and a test's own calls read). The sandbox's
   * own carries `now`, the same call answered at once when nothing in it waited, which the Node request listener (the
   * server's, and the one `createApp` mounts in Express) prefers; a door typed as a Sandbox (claimable sandboxes'
   * `guarded`) has none, so the listener never goes around it
   */
  dispatch: Dispatch
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
  /**
   * Resolves once every change made so far is committed to --state-dir (at once without one); rejects when that
   * commit failed (the changes wait for the next one).
   */
  committed(): Promise<void>
  /** stops timers and every embedded chain */
  close(): Promise<void>
}

/** Creates a sandbox; with the default options it spawns its own anvil chain. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const catalogs = loadCatalogs(options)
  const log = logOf(options)
  // scenario files load (tsx compiles the TypeScript ones) while anvil boots in its own process
  const scenariosLoading = loadScenarios(options.scenarioDirs)
  scenariosLoading.catch(() => {})
  // with reuseChains, the chains an earlier sandbox of this process closed, back at their start (and their keys)
  const kind = warmKind(options, catalogs)
  const warm = kind ? await takeWarmChains(kind) : null
  // the deployment's secret keys (its state dir's, else new): the chains' roles and every wallet it derives
  const keys = warm?.keys ?? loadSandboxKeys(options, log)
  const fleet = warm
    ? ChainFleet.resume(options, catalogs, keys, warm.chains)
    : await ChainFleet.start(options, catalogs, keys)
  // what the steps so far started, undone (last first) should a later step fail: nothing runs behind the error
  const undo: (() => Promise<void> | void)[] = []
  try {
    // the WebAssembly keccak (payment references) compiles meanwhile: every hash after the start goes through it
    const [, registry] = await Promise.all([
      warm ? null : fleet.conversion.installDefaults(),
      scenariosLoading,
      keccakReady(),
    ])
    // what the chains go back to before they serve the next sandbox
    const baselines = kind ? (warm ?? (await baselineOf(keys, fleet.chainsStarted()))) : null
    const shared = buildState(options, catalogs, fleet, registry, log, keys)
    undo.push(
      () => shared.tenants.dispose(),
      () => shared.webhooks.close(),
    )
    wireEvents(shared)
    const tenantIds = wireWorldLifecycle(shared, options)
    const stateDir = await openState(options, shared, fleet)
    if (stateDir) undo.push(() => stateDir.abandon())
    const dispatchNow = buildDispatcher(options, shared, fleet, tenantIds, stateDir)
    const detection = wireDetection(shared, fleet)
    undo.push(() => detection.stop())
    const control = createControl(shared)
    let closed = false
    return {
      dispatch: Object.assign(async (request: NeutralRequest) => dispatchNow(request), { now: dispatchNow }),
      log,
      shared,
      chain: fleet.first,
      chains: fleet.chains,
      detectors: detection.detectors,
      control,
      reset: (tenant) => control.reset(tenant),
      committed: () => stateDir?.barrier() ?? Promise.resolve(),
      async close() {
        if (closed) return
        closed = true
        fleet.stopStarting()
        await stateDir?.stop().catch((error) => log('--state-dir: last save failed', error))
        shared.webhooks.close()
        await detection.stop()
        shared.tenants.dispose()
        if (kind && baselines) await putWarmChains(kind, baselines, await fleet.release())
        else await fleet.stop()
      },
    }
  } catch (error) {
    for (const step of undo.reverse()) {
      try {
        await step()
      } catch {
        // the error that stopped the start is the one reported
      }
    }
    await fleet.stop()
    throw error
  }
}
