import type { World } from '../contract/world.ts'
import { createWorld } from './world.ts'

/** Called once for each new world (scenario seeding, clock-to-chain wiring). */
export type WorldInitializer = (world: World) => void

/** The worlds of every tenant of one sandbox, created lazily; keyed by credential and scenario. */
export class Tenants {
  readonly #worlds = new Map<string, World>()
  readonly #log: (message: string, error: unknown) => void
  readonly #initializers: WorldInitializer[] = []

  constructor(log: (message: string, error: unknown) => void) {
    this.#log = log
  }

  /** Registers a function run on every world when it is created. */
  onCreate(initializer: WorldInitializer): void {
    this.#initializers.push(initializer)
  }

  /** The world of `tenant` under `scenario`, created on first use. */
  get(tenant: string, scenario = 'default'): World {
    const key = `${scenario}\u0000${tenant}`
    let world = this.#worlds.get(key)
    if (!world) {
      world = createWorld(tenant, scenario, this.#log)
      this.#worlds.set(key, world)
      for (const init of this.#initializers) init(world)
    }
    return world
  }

  /** The world of `tenant` under `scenario` if it exists (never creates one). */
  peek(tenant: string, scenario = 'default'): World | undefined {
    return this.#worlds.get(`${scenario}\u0000${tenant}`)
  }

  /** Drops one world (key x scenario): the next call creates and seeds it afresh. */
  drop(tenant: string, scenario: string): void {
    const key = `${scenario}\u0000${tenant}`
    this.#worlds.get(key)?.clock.dispose()
    this.#worlds.delete(key)
  }

  /** Drops the worlds of one tenant (every scenario); the next call starts fresh. */
  reset(tenant: string): void {
    for (const [key, world] of this.#worlds) {
      if (world.tenant !== tenant) continue
      world.clock.dispose()
      this.#worlds.delete(key)
    }
  }

  /** Every world, for cross-tenant work such as matching a payment log to its request. */
  all(): IterableIterator<World> {
    return this.#worlds.values()
  }

  /** Stops every world's timers. */
  dispose(): void {
    for (const world of this.#worlds.values()) world.clock.dispose()
    this.#worlds.clear()
  }
}
