import type { World } from '../contract/world.ts'

/** Why a world left memory: its key was reset, that one world was dropped, or it was evicted past --max-worlds. */
export type DropReason = 'reset' | 'drop' | 'evict'

/**
 * What happens to the worlds of one sandbox, told to whatever keeps something of them: the sandbox's own indexes
 * (chain time, onboarding counts, scenario rules, payment references, credentials) and the persistence layer
 * (--state-dir: src/persistence/), which brings worlds back and commits their changes. Every part is optional;
 * Tenants calls each part of its lifecycles in the order they were given.
 */
export interface WorldLifecycle {
  /** a world was just created (before `revive`): scenario seeding, clock-to-chain wiring, change observation */
  created?(world: World): void
  /** a resource state of a world was just created (its Tables and Maps can be observed from now on) */
  stateCreated?(world: World, name: string, state: unknown): void
  /**
   * Fills a world just created with what it held before it left memory (evicted: --state-dir keeps it on disk);
   * false when there is nothing to bring back. A throw is logged and the world starts empty.
   */
  revive?(world: World): boolean
  /**
   * A world left memory, so what other pieces keep for it (reference index, credential directory) goes too.
   * `lastOfTenant`: no world of its key is left in memory.
   */
  dropped?(world: World, reason: DropReason, lastOfTenant: boolean): void
  /** a key was reset, whether or not it had worlds in memory */
  reset?(tenant: string): void
  /** run before every world is listed (--state-dir: worlds not back yet after a restart come back at once) */
  beforeAll?(): void
  /** runs `run` (synchronous) so that every change it makes is committed as one (--state-dir: one transaction) */
  inOneCommit?<T>(run: () => T): T
  /** the scenarios of a key's worlds kept outside memory (--state-dir: evicted, or not back yet) */
  savedScenarios?(tenant: string): Iterable<string>
}
