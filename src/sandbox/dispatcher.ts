// The step of createSandbox that builds the dispatcher: the route table over the sandbox's state, with the
// middleware chain the options ask for, in its order.
import type { MaybePromise } from '../contract/maybe-promise.ts'
import type { Middleware } from '../contract/middleware.ts'
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import { rpcGuardMiddleware } from '../control/rpc-guard.ts'
import type { SandboxState } from '../control/services.ts'
import type { StateDir } from '../persistence/index.ts'
import {
  createDispatcher,
  createRouter,
  documentedRateLimitMiddleware,
  faultMiddleware,
  journalMiddleware,
  networkMiddleware,
  scenarioMiddleware,
} from '../pipeline/index.ts'
import { routes } from '../routes.ts'
import type { TenantIds } from '../store/tenant-ids.ts'
import { webhookChaosMiddleware } from '../webhooks/index.ts'
import type { ChainFleet } from './chains.ts'
import type { SandboxOptions } from './options.ts'

/** What happens to a call naming a network that is not running (see `SandboxOptions.networksOnUse`). */
export function networksOnUseOf(options: SandboxOptions): 'start' | 'refuse' | 'published' {
  // only embedded chains start or refuse: without a chain or with an rpcUrl the published addresses answer
  if (options.chain === false || typeof options.chain === 'object') return 'published'
  return options.networksOnUse ?? 'published'
}

/**
 * Which networks a call may start on first use: the operator's list, by default every documented one, on any listener (a
 * fixed set of eight: at most the anvils `--networks` listing all eight runs; an operator restricts it with `--networks-on-use`).
 */
export function startableOf(
  options: Pick<SandboxOptions, 'startableNetworks'>,
): (network: string) => boolean {
  const allowed = options.startableNetworks ?? 'all'
  if (allowed === 'all') return () => true
  const set = new Set<string>(allowed)
  return (network) => set.has(network)
}

/** The middleware chain, outermost first. */
function middlewareOf(
  options: SandboxOptions,
  shared: SandboxState,
  fleet: ChainFleet,
  stateDir: StateDir | null,
): Middleware[] {
  const onUse = networksOnUseOf(options)
  return [
    rpcGuardMiddleware({
      ...(options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {}),
      ...(options.admitsKey ? { admitsKey: options.admitsKey } : {}),
      ...(options.claimedKey ? { claimedKey: options.claimedKey } : {}),
      ...(options.rpcAdmin ? { rpcAdmin: options.rpcAdmin } : {}),
      exposed: shared.security.exposed,
      ...(options.rpcExecutingPerAddress !== undefined || shared.security.exposed
        ? { executingPerAddress: options.rpcExecutingPerAddress ?? 1 }
        : {}),
      ...(options.rpcTxKbPerMinute !== undefined || shared.security.exposed
        ? { txKbPerMinute: options.rpcTxKbPerMinute ?? 256 }
        : {}),
    }),
    ...(stateDir ? [stateDir.guard] : []),
    journalMiddleware(shared),
    scenarioMiddleware(shared),
    webhookChaosMiddleware(shared),
    faultMiddleware(shared, options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
    // networks a call names that are not running: started on first use, or refused
    ...(onUse === 'start' || onUse === 'refuse'
      ? [
          networkMiddleware(shared, {
            live: (network) => fleet.chains.has(network),
            ...(onUse === 'start'
              ? { start: (network) => fleet.startNetwork(network), startable: startableOf(options) }
              : {}),
          }),
        ]
      : []),
    ...(options.rateLimit === 'documented' ? [documentedRateLimitMiddleware(shared)] : []),
  ]
}

/** The dispatcher both transports call. */
export function buildDispatcher(
  options: SandboxOptions,
  shared: SandboxState,
  fleet: ChainFleet,
  tenantIds: TenantIds | null,
  stateDir: StateDir | null,
): (request: NeutralRequest) => MaybePromise<NeutralResponse> {
  const dispatch = createDispatcher(routes, shared, {
    // with --state-dir an answer leaves once the changes it reports are committed (without, nothing runs per call)
    ...(stateDir ? { durable: () => stateDir.barrier() } : {}),
    ...(options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {}),
    ...(options.admitsKey ? { admitsKey: options.admitsKey } : {}),
    // strict mode is strict for partners too: with --api-keys and no --orchestrator-keys, no orchestrator key passes
    ...(options.orchestratorKeys || options.apiKeys
      ? { orchestratorKeys: new Set(options.orchestratorKeys ?? []) }
      : {}),
    ...(tenantIds ? { idsFor: (tenant: string) => tenantIds.for(tenant) } : {}),
    middleware: middlewareOf(options, shared, fleet, stateDir),
  })
  // with OpenTelemetry on, a span around each call (without, the dispatcher as it is: nothing runs per call)
  const telemetry = options.telemetry
  if (!telemetry) return dispatch
  const router = createRouter(routes)
  return telemetry.traceCalls(
    async (request) => dispatch(request),
    (method, path) => {
      const match = router.match(method, path)
      if (!match) return undefined
      const params: Record<string, string> = {}
      match.names.forEach((name, i) => {
        params[name] = match.values[i] ?? ''
      })
      return { pattern: match.route.path, params }
    },
  )
}
