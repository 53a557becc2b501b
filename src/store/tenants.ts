import { type ClaimedKeys, claimedShare } from '../contract/claimed-share.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import type { World } from '../contract/world.ts'
import type { DropReason, WorldLifecycle } from './lifecycle.ts'
import { createWorld, type WorldStateObserver } from './world.ts'

export type { DropReason, WorldLifecycle } from './lifecycle.ts'

/** Options of Tenants. */
export interface TenantsOptions {
  /** worlds kept in memory; past it the least recently used world is evicted (default 1000) */
  maxWorlds?: number
  /**
   * Set when an evicted world could not come back (no --state-dir): no world is evicted, and a new world past
   * `maxWorlds` is refused with the error this returns (nothing a key was answered is dropped to make room).
   */
  full?: (maxWorlds: number) => Error
  /** what is told of the worlds' lifecycle, in this order (more can be attached: `attach`) */
  lifecycles?: WorldLifecycle[]
  /**
   * the keys of claimable sandboxes: together they keep at most half of `maxWorlds` in memory (`claimedShare`). Past
   * it a new world of theirs is refused (with `full`) or their least recently used one evicted; over `maxWorlds` their
   * worlds are evicted before the other keys'.
   */
  claimed?: ClaimedKeys
}

/** The worlds of every tenant of one sandbox, created lazily; keyed by credential and scenario. */
export class Tenants {
  // insertion order is use order: a world used again moves to the end, the first one is the least recently used
  readonly #worlds = new Map<string, World>()
  /** the world `get` returned last, which is the last of `#worlds` (a key's calls come in runs: no key built, no move) */
  #newest: World | undefined
  readonly #perTenant = new Map<string, number>()
  readonly #log: (message: string, error: unknown) => void
  readonly #maxWorlds: number
  readonly #full: ((maxWorlds: number) => Error) | undefined
  readonly #claimed: ClaimedKeys | undefined
  /** the worlds of claimed keys in memory, by their key in `#worlds` */
  readonly #claimedWorlds = new Set<string>()
  /** each part of the attached lifecycles, in the order they were attached */
  readonly #created: ((world: World) => void)[] = []
  readonly #revivers: ((world: World) => boolean)[] = []
  readonly #dropped: ((world: World, reason: DropReason, lastOfTenant: boolean) => void)[] = []
  readonly #reset: ((tenant: string) => void)[] = []
  readonly #beforeAll: (() => void)[] = []
  readonly #saved: ((tenant: string) => Iterable<string>)[] = []
  #stateCreated: WorldStateObserver | undefined
  #inOneCommit: <T>(run: () => T) => T = (run) => run()

  constructor(log: (message: string, error: unknown) => void, options: TenantsOptions = {}) {
    this.#log = log
    this.#maxWorlds = Math.max(1, options.maxWorlds ?? 1000)
    this.#full = options.full
    this.#claimed = options.claimed
    for (const lifecycle of options.lifecycles ?? []) this.attach(lifecycle)
  }

  /**
   * Tells `lifecycle` what happens to the worlds from now on, after the lifecycles attached before it. Worlds already
   * in memory are not replayed: what is built from the services these tenants are part of (the persistence layer)
   * attaches before the first call.
   */
  attach(lifecycle: WorldLifecycle): void {
    if (lifecycle.created) this.#created.push(lifecycle.created.bind(lifecycle))
    if (lifecycle.revive) this.#revivers.push(lifecycle.revive.bind(lifecycle))
    if (lifecycle.dropped) this.#dropped.push(lifecycle.dropped.bind(lifecycle))
    if (lifecycle.reset) this.#reset.push(lifecycle.reset.bind(lifecycle))
    if (lifecycle.beforeAll) this.#beforeAll.push(lifecycle.beforeAll.bind(lifecycle))
    if (lifecycle.savedScenarios) this.#saved.push(lifecycle.savedScenarios.bind(lifecycle))
    if (lifecycle.stateCreated) {
      const before = this.#stateCreated
      const observe = lifecycle.stateCreated.bind(lifecycle)
      this.#stateCreated = before
        ? (world, name, state) => {
            before(world, name, state)
            observe(world, name, state)
          }
        : observe
    }
    if (lifecycle.inOneCommit) {
      const outer = this.#inOneCommit
      const inner = lifecycle.inOneCommit.bind(lifecycle)
      this.#inOneCommit = (run) => outer(() => inner(run))
    }
  }

  /**
   * Every world of one key, those evicted (or not back yet after a restart) brought back; other keys' worlds stay
   * where they are.
   */
  worldsOf(tenant: string): World[] {
    const scenarios = new Set<string>()
    if (this.#perTenant.has(tenant))
      for (const world of this.#worlds.values()) if (world.tenant === tenant) scenarios.add(world.scenario)
    for (const saved of this.#saved) for (const scenario of saved(tenant)) scenarios.add(scenario)
    return [...scenarios].map((scenario) => this.get(tenant, scenario))
  }

  /**
   * Resets one key and runs `fill` (synchronous: it creates and fills the key's new worlds) as one step: nothing
   * else runs between, and with --state-dir both are committed in one transaction.
   */
  replace<T>(tenant: string, fill: () => T): T {
    return this.#inOneCommit(() => {
      this.reset(tenant)
      return fill()
    })
  }

  /** The world of `tenant` under `scenario`, created on first use (or brought back, when it was evicted). */
  get(tenant: string, scenario = 'default'): World {
    const newest = this.#newest
    if (newest !== undefined && newest.tenant === tenant && newest.scenario === scenario) return newest
    const key = `${scenario}\u0000${tenant}`
    let world = this.#worlds.get(key)
    if (world) {
      // most recently used last; cheap enough per call (a delete and a set on a Map)
      if (this.#worlds.size > 1) {
        this.#worlds.delete(key)
        this.#worlds.set(key, world)
      }
      this.#newest = world
      return world
    }
    if (this.#full && this.#worlds.size >= this.#maxWorlds) throw this.#full(this.#maxWorlds)
    const claimed = this.#claimed?.(tenant) === true
    const share = claimedShare(this.#maxWorlds)
    if (claimed && this.#full && this.#claimedWorlds.size >= share)
      throw new SandboxError(
        507,
        `This sandbox holds its most worlds (API key x scenario) in memory for claimable sandboxes: they keep at most ${share} together (half of --max-worlds; the rest is kept for the server's other keys). Reset this key's worlds you no longer use (POST /__sandbox/reset), or try again later`,
      )
    world = createWorld(tenant, scenario, this.#log, this.#stateCreated)
    this.#worlds.set(key, world)
    if (claimed) this.#claimedWorlds.add(key)
    this.#perTenant.set(tenant, (this.#perTenant.get(tenant) ?? 0) + 1)
    for (const created of this.#created) created(world)
    for (const revive of this.#revivers) {
      try {
        revive(world)
      } catch (error) {
        this.#log(`world of a key could not be brought back from the state dir (it starts empty)`, error)
      }
    }
    // `created` and `revive` may have used other worlds since: the next `get` moves this one last
    this.#newest = undefined
    this.#evictPastCap(key)
    return world
  }

  /** The world of `tenant` under `scenario` if it exists (never creates one). */
  peek(tenant: string, scenario = 'default'): World | undefined {
    const newest = this.#newest
    if (newest !== undefined && newest.tenant === tenant && newest.scenario === scenario) return newest
    return this.#worlds.get(`${scenario}\u0000${tenant}`)
  }

  /** Drops one world (key x scenario): the next call creates and seeds it afresh. */
  drop(tenant: string, scenario: string): void {
    this.#remove(`${scenario}\u0000${tenant}`, 'drop')
  }

  /** Drops the worlds of one tenant (every scenario); the next call starts fresh. */
  reset(tenant: string): void {
    for (const [key, world] of this.#worlds) if (world.tenant === tenant) this.#remove(key, 'reset')
    for (const reset of this.#reset) reset(tenant)
  }

  /** Whether `tenant` is a claimed key (a claimable sandbox's). */
  isClaimed(tenant: string): boolean {
    return this.#claimed?.(tenant) === true
  }

  /** Number of worlds in memory. */
  get size(): number {
    return this.#worlds.size
  }

  /** How many more worlds fit in memory before one is evicted: of any key, and of claimed keys (their share). */
  get room(): { any: number; claimed: number } {
    const any = Math.max(0, this.#maxWorlds - this.#worlds.size)
    return {
      any,
      claimed: Math.min(any, Math.max(0, claimedShare(this.#maxWorlds) - this.#claimedWorlds.size)),
    }
  }

  /** Every world, for cross-tenant work such as matching a payment log to its request. */
  all(): IterableIterator<World> {
    for (const run of this.#beforeAll) run()
    return this.#worlds.values()
  }

  /** Stops every world's timers. */
  dispose(): void {
    for (const world of this.#worlds.values()) world.clock.dispose()
    this.#worlds.clear()
    this.#claimedWorlds.clear()
    this.#newest = undefined
    this.#perTenant.clear()
  }

  /** Evicts past the caps, never `keep` (the world just made). */
  #evictPastCap(keep: string): void {
    if (this.#full) return
    // claimed keys past their share, then anyone past the cap: a claimed key's world goes first
    while (this.#claimedWorlds.size > claimedShare(this.#maxWorlds))
      this.#remove(this.#oldestClaimed(keep) as string, 'evict')
    while (this.#worlds.size > this.#maxWorlds) {
      const oldest = this.#oldestClaimed(keep) ?? (this.#worlds.keys().next().value as string)
      this.#remove(oldest, 'evict')
    }
  }

  /** The least recently used world of a claimed key in memory but `keep`, if there is one. */
  #oldestClaimed(keep: string): string | undefined {
    if (this.#claimedWorlds.size === 0) return undefined
    for (const key of this.#worlds.keys()) if (key !== keep && this.#claimedWorlds.has(key)) return key
    return undefined
  }

  #remove(key: string, reason: DropReason): void {
    const world = this.#worlds.get(key)
    if (!world) return
    world.clock.dispose()
    this.#worlds.delete(key)
    this.#claimedWorlds.delete(key)
    if (this.#newest === world) this.#newest = undefined
    const left = (this.#perTenant.get(world.tenant) ?? 1) - 1
    if (left > 0) this.#perTenant.set(world.tenant, left)
    else this.#perTenant.delete(world.tenant)
    for (const dropped of this.#dropped) {
      try {
        dropped(world, reason, left === 0)
      } catch (error) {
        this.#log(`world drop listener failed (${reason})`, error)
      }
    }
  }
}
