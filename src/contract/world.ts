// The world of one tenant x scenario as resources see it: its clock, rules, event log, and the state each
// resource declares for itself (defineState). The store creates worlds; it knows no resource.
import type { SandboxEvent } from './events.ts'
import type { WorldRules } from './rules.ts'

/** A tenant's clock: now(), advance(), and timed tasks that run in due order (store/clock.ts implements it). */
export interface WorldClock {
  /** The tenant's current time. */
  now(): Date
  /** The tenant's current time in epoch milliseconds (no Date made). */
  nowMs(): number
  /** The tenant's current time as an ISO 8601 string (`now().toISOString()`, formatted once per millisecond). */
  nowIso(): string
  /** Runs `task` when the clock reaches `at` (at once, on the next tick, if already due). Returns a timer id. */
  schedule(at: Date, label: string, task: () => Promise<void> | void): number
  /** Forgets a scheduled task. */
  cancel(id: number): void
  /** The tasks still to run, soonest first. */
  pending(): { id: number; at: string; label: string }[]
  /** Moves the clock forward and runs what falls due, in order. */
  advance(ms: number): Promise<Date>
  /** Called after each advance; returns the unsubscribe function. */
  onAdvance(listener: (now: Date) => Promise<void> | void): () => void
  /** Runs every task already due. */
  runDue(): Promise<void>
  /** Stops the real-time timer and drops every task. */
  dispose(): void
}

/**
 * What a resource takes up again in a world whose records came back (--state-dir revival, a snapshot's restore):
 * what lived only in memory, such as timers. `services` is the sandbox's services in that world (the resource's
 * context type).
 */
export type ResumeHook = (services: never) => Promise<void> | void

/** A resume hook as registered: `first` ones run before every other (what the others rely on). */
export interface RegisteredResume {
  readonly run: ResumeHook
  readonly first: boolean
}

/** One resource's per-world state: created by `create` on the world's first use of it. */
export interface StateDefinition<T> {
  readonly name: string
  /** the slot the world keeps this state in (assigned by defineState, in declaration order) */
  readonly slot: number
  create(): T
  /** what a world takes up again when its records came back, in the order registered (`onResume`) */
  readonly resumes?: readonly RegisteredResume[]
}

let nextSlot = 0
const declared: StateDefinition<unknown>[] = []

/** Declares a resource's per-world state (its Tables, indexes); call once, at module level, in its folder. */
export function defineState<T>(name: string, create: () => T): StateDefinition<T> {
  const definition = { name, slot: nextSlot++, create, resumes: [] as RegisteredResume[] }
  declared.push(definition)
  return definition
}

/**
 * Registers what a world takes up again when its records of `definition` came back (the resource's `resume.ts`,
 * beside its state). The `first` hooks run before the others; within each, states in declaration order, each
 * state's hooks in the order registered.
 */
export function onResume<C>(
  definition: StateDefinition<unknown>,
  hook: (services: C) => Promise<void> | void,
  options: { first?: boolean } = {},
): void {
  ;(definition.resumes as RegisteredResume[] | undefined)?.push({
    run: hook as ResumeHook,
    first: options.first ?? false,
  })
}

/** Every state declared so far (--state-dir saves and restores each world's, by name). */
export function declaredStates(): readonly StateDefinition<unknown>[] {
  return declared
}

/**
 * Everything one tenant (credential x scenario) owns. A fresh world is created on the tenant's first call;
 * each resource's state in it is created on that resource's first use (`state(definition)`).
 */
export interface World {
  readonly tenant: string
  readonly scenario: string
  readonly clock: WorldClock
  /** behaviour knobs set by the world's scenario (src/contract/rules.ts) */
  rules: WorldRules
  /** the world's domain events, oldest first (webhooks and the journal read them) */
  readonly events: SandboxEvent[]
  /** the state a resource declared with defineState, created on first use */
  state<T>(definition: StateDefinition<T>): T
}
