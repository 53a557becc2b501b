import { createWorld, type World } from './world.ts'

/** The worlds of every tenant of one sandbox, created lazily; keyed by credential and scenario. */
export class Tenants {
  readonly #worlds = new Map<string, World>()

  /** The world of `tenant` under `scenario`, created on first use. */
  get(tenant: string, scenario = 'default'): World {
    const key = `${scenario}\u0000${tenant}`
    let world = this.#worlds.get(key)
    if (!world) {
      world = createWorld(tenant, scenario)
      this.#worlds.set(key, world)
    }
    return world
  }

  /** Drops the worlds of one tenant (every scenario); the next call starts fresh. */
  reset(tenant: string): void {
    for (const [key, world] of this.#worlds) if (world.tenant === tenant) this.#worlds.delete(key)
  }

  /** Every world, for cross-tenant work such as matching a payment log to its request. */
  all(): IterableIterator<World> {
    return this.#worlds.values()
  }
}
