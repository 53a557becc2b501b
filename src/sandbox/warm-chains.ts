// The chains of this process's closed sandboxes (`reuseChains`, what createTestSandbox sets), kept running and handed
// to the next sandbox that wants the same networks and keys, back at the state they started with (an anvil snapshot
// taken once the contracts and conversion stacks were installed). A sandbox per test then costs its in-memory state
// only: one chain per test worker, reverted between tests.
import { backToBaseline, type SandboxKeys, type StartedChain, takeBaseline } from '../chain/index.ts'
import type { Catalogs } from './catalogs.ts'
import type { SandboxOptions } from './options.ts'

/** Chains one sandbox ran, with the snapshot each goes back to and the deployment keys they answer to. */
export interface WarmChains {
  keys: SandboxKeys
  chains: StartedChain[]
  /** chain -> its evm_snapshot id */
  baselines: Map<StartedChain, string>
}

/** Idle sets kept per kind of sandbox: more than this many closed at once are stopped, not kept. */
const MAX_IDLE_PER_KIND = 2
/**
 * How long an idle set waits for the next sandbox before it is stopped. A test's next sandbox comes at once (afterEach,
 * then beforeEach); a runner that gives each test file a module registry of its own in a reused worker (jest) never
 * takes the previous file's chains, which then stop instead of running until the worker exits.
 */
const IDLE_MS = 5_000

/** An idle set and the timer that stops it. */
interface IdleSet {
  warm: WarmChains
  expiry: NodeJS.Timeout
}

/** kind of sandbox -> idle chain sets, the last closed last (taken first) */
const idle = new Map<string, IdleSet[]>()

/**
 * Which warm chains a sandbox with `options` may take, or null when it runs its own: only embedded chains without a
 * state dir are reused; the networks started with it and the keys' seed must match.
 */
export function warmKind(options: SandboxOptions, catalogs: Pick<Catalogs, 'wanted'>): string | null {
  if (!options.reuseChains || options.stateDir || (options.chain ?? 'embedded') !== 'embedded') return null
  const seeded = options.seed !== undefined && !options.exposed ? `seed:${options.seed}` : 'fresh'
  return `${[...catalogs.wanted].sort().join(',')}|${seeded}`
}

/**
 * The warm chains of `kind` last put back, each back at its baseline (blocks, balances, storage and clock as they
 * were when it started), or null when none is idle. A set whose chain cannot go back is stopped and the next tried.
 */
export async function takeWarmChains(kind: string): Promise<WarmChains | null> {
  const sets = idle.get(kind)
  for (let entry = sets?.pop(); entry; entry = sets?.pop()) {
    clearTimeout(entry.expiry)
    const set = entry.warm
    const next = await Promise.all(
      set.chains.map((chain) => backToBaseline(chain, set.baselines.get(chain)!)),
    )
    if (next.every((id) => id !== null)) {
      return {
        keys: set.keys,
        chains: set.chains,
        baselines: new Map(set.chains.map((c, i) => [c, next[i]!])),
      }
    }
    await stopAll(set.chains)
  }
  return null
}

/** The baselines of chains just started and set up: what each goes back to before its next sandbox. */
export async function baselineOf(keys: SandboxKeys, chains: readonly StartedChain[]): Promise<WarmChains> {
  const ids = await Promise.all(chains.map((chain) => takeBaseline(chain)))
  return { keys, chains: [...chains], baselines: new Map(chains.map((c, i) => [c, ids[i]!])) }
}

/**
 * Keeps a closed sandbox's chains for the next sandbox of `kind` (reverted when taken, so whatever still lands on
 * them meanwhile goes too); `running` is what the fleet handed back, empty when a chain had to be stopped.
 */
export async function putWarmChains(
  kind: string,
  warm: WarmChains,
  running: readonly StartedChain[],
): Promise<void> {
  const sets = idle.get(kind) ?? []
  const complete = warm.chains.length > 0 && warm.chains.every((chain) => running.includes(chain))
  if (!complete || sets.length >= MAX_IDLE_PER_KIND) {
    await stopAll(running)
    return
  }
  const entry: IdleSet = {
    warm,
    expiry: setTimeout(() => {
      const at = sets.indexOf(entry)
      if (at >= 0) sets.splice(at, 1)
      void stopAll(warm.chains)
    }, IDLE_MS),
  }
  entry.expiry.unref()
  sets.push(entry)
  idle.set(kind, sets)
}

async function stopAll(chains: readonly StartedChain[]): Promise<void> {
  await Promise.all(chains.map((chain) => chain.stop().catch(() => {})))
}
