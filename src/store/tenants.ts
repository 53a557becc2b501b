import type { World } from '../contract/world.ts'
import { createWorld, type WorldStateObserver } from './world.ts'

/** Called once for each new world (scenario seeding, clock-to-chain wiring). */
export type WorldInitializer = (world: World) => void

/**
 * Called when a world leaves memory (reset, a failed seed, eviction past the cap), so what other pieces keep
 * for it (reference index, credential directory) goes too. `lastOfTenant`: no world of its key is left.
 */
export type WorldDropListener = (
  world: World,
  reason: 'reset' | 'drop' | 'evict',
  lastOfTenant: boolean,
) => void

/**
 * Fills a world just created with what it held before it was evicted (--state-dir keeps evicted worlds on disk);
 * false when there is nothing to bring back.
 */
export type WorldReviver = (world: World) => boolean

/** Options of Tenants. */
export interface TenantsOptions {
  /** worlds kept in memory; past it the least recently used world is evicted (default 1000) */
  maxWorlds?: number
  /**
   * Set when an evicted world could not come back (no --state-dir): no world is evicted, and a new world past
   * `maxWorlds` is refused with the error this returns (nothing a key was answered is dropped to make room).
   */
  full?: (maxWorlds: number) => Error
}

/** The worlds of every tenant of one sandbox, created lazily; keyed by credential and scenario. */
export class Tenants {
  // insertion order is use order: a world used again moves to the end, the first one is the least recently used
  readonly #worlds = new Map<string, World>()
  /** the world `get` returned last, which is the last of `#worlds` (a key's calls come in runs: no key built, no move) */
  #newest: World | undefined
  readonly #perTenant = new Map<string, number>()
  readonly #log: (message: string, error: unknown) => void
  readonly #initializers: WorldInitializer[] = []
  readonly #dropListeners: WorldDropListener[] = []
  readonly #maxWorlds: number
  readonly #full: ((maxWorlds: number) => Error) | undefined
  readonly #resetListeners: ((tenant: string) => void)[] = []
  #reviver: WorldReviver | null = null
  #beforeAll: (() => void) | null = null
  #commitScope: <T>(run: () => T) => T = (run) => run()
  #savedScenarios: ((tenant: string) => Iterable<string>) | null = null
  #stateObserver: WorldStateObserver | undefined

  constructor(log: (message: string, error: unknown) => void, options: TenantsOptions = {}) {
    this.#log = log
    this.#maxWorlds = Math.max(1, options.maxWorlds ?? 1000)
    this.#full = options.full
  }

  /** Registers a function run on every world when it is created. */
  onCreate(initializer: WorldInitializer): void {
    this.#initializers.push(initializer)
  }

  /** Registers a function run on every world that leaves memory. */
  onDrop(listener: WorldDropListener): void {
    this.#dropListeners.push(listener)
  }

  /** Registers a function run on every reset of a key, whether or not it has worlds in memory. */
  onReset(listener: (tenant: string) => void): void {
    this.#resetListeners.push(listener)
  }

  /** Sets what is told of each resource state a world creates from now on (--state-dir). */
  setStateObserver(observer: WorldStateObserver): void {
    this.#stateObserver = observer
  }

  /** Sets what brings evicted worlds back on their next use (--state-dir). */
  setReviver(reviver: WorldReviver): void {
    this.#reviver = reviver
  }

  /**
   * Sets what `all()` runs first (--state-dir: worlds still on disk after a restart, brought back in the background,
   * come back at once when every world is asked for); null to stop.
   */
  setBeforeAll(run: (() => void) | null): void {
    this.#beforeAll = run
  }

  /**
   * Sets what `replace` runs its reset and fill inside (--state-dir: one transaction, so a kill shows the key as it
   * was or as it became, never between).
   */
  setCommitScope(scope: <T>(run: () => T) => T): void {
    this.#commitScope = scope
  }

  /** Sets what names the scenarios of a key's worlds kept outside memory (--state-dir: evicted, or not back yet). */
  setSavedScenarios(saved: ((tenant: string) => Iterable<string>) | null): void {
    this.#savedScenarios = saved
  }

  /**
   * Every world of one key, those evicted (or not back yet after a restart) brought back; other keys' worlds stay
   * where they are.
   */
  worldsOf(tenant: string): World[] {
    const scenarios = new Set<string>()
    if (this.#perTenant.has(tenant))
      for (const world of this.#worlds.values()) if (world.tenant === tenant) scenarios.add(world.scenario)
    for (const scenario of this.#savedScenarios?.(tenant) ?? []) scenarios.add(scenario)
    return [...scenarios].map((scenario) => this.get(tenant, scenario))
  }

  /**
   * Resets one key and runs `fill` (synchronous: it creates and fills the key's new worlds) as one step: nothing
   * else runs between, and with --state-dir both are committed in one transaction.
   */
  replace<T>(tenant: string, fill: () => T): T {
    return this.#commitScope(() => {
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
    world = createWorld(tenant, scenario, this.#log, this.#stateObserver)
    this.#worlds.set(key, world)
    this.#perTenant.set(tenant, (this.#perTenant.get(tenant) ?? 0) + 1)
    for (const init of this.#initializers) init(world)
    if (this.#reviver) {
      try {
        this.#reviver(world)
      } catch (error) {
        this.#log(`world of a key could not be brought back from the state dir (it starts empty)`, error)
      }
    }
    // initializers and the reviver may have used other worlds since: the next `get` moves this one last
    this.#newest = undefined
    this.#evictPastCap()
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
    for (const listener of this.#resetListeners) listener(tenant)
  }

  /** Number of worlds in memory. */
  get size(): number {
    return this.#worlds.size
  }

  /** Every world, for cross-tenant work such as matching a payment log to its request. */
  all(): IterableIterator<World> {
    this.#beforeAll?.()
    return this.#worlds.values()
  }

  /** Stops every world's timers. */
  dispose(): void {
    for (const world of this.#worlds.values()) world.clock.dispose()
    this.#worlds.clear()
    this.#newest = undefined
    this.#perTenant.clear()
  }

  #evictPastCap(): void {
    if (this.#full) return
    while (this.#worlds.size > this.#maxWorlds) {
      const oldest = this.#worlds.keys().next().value as string
      this.#remove(oldest, 'evict')
    }
  }

  #remove(key: string, reason: 'reset' | 'drop' | 'evict'): void {
    const world = this.#worlds.get(key)
    if (!world) return
    world.clock.dispose()
    this.#worlds.delete(key)
    if (this.#newest === world) this.#newest = undefined
    const left = (this.#perTenant.get(world.tenant) ?? 1) - 1
    if (left > 0) this.#perTenant.set(world.tenant, left)
    else this.#perTenant.delete(world.tenant)
    for (const listener of this.#dropListeners) {
      try {
        listener(world, reason, left === 0)
      } catch (error) {
        this.#log(`world drop listener failed (${reason})`, error)
      }
    }
  }
}
