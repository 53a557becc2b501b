import type { SandboxEvent } from '../contract/events.ts'
import { type WorldRules, worldRules } from '../contract/rules.ts'
import type { StateDefinition, World } from '../contract/world.ts'
import { TenantClock } from './clock.ts'

/** The store's world: the clock, rules and event log, plus a slot per resource state, filled on first use. */
class StoreWorld implements World {
  readonly tenant: string
  readonly scenario: string
  readonly clock: TenantClock
  rules: WorldRules = worldRules()
  readonly events: SandboxEvent[] = []
  readonly #slots: unknown[] = []
  readonly #observer: WorldStateObserver | undefined

  constructor(
    tenant: string,
    scenario: string,
    log: (message: string, error: unknown) => void,
    observer?: WorldStateObserver,
  ) {
    this.tenant = tenant
    this.scenario = scenario
    this.clock = new TenantClock(log)
    this.#observer = observer
  }

  state<T>(definition: StateDefinition<T>): T {
    let value = this.#slots[definition.slot] as T | undefined
    if (value === undefined) {
      value = definition.create()
      this.#slots[definition.slot] = value
      this.#observer?.(this, definition.name, value)
    }
    return value
  }
}

/** Told of each resource state a world creates (--state-dir observes its Tables and Maps). */
export type WorldStateObserver = (world: World, name: string, state: unknown) => void

/** Creates an empty world for a tenant; each resource's state appears on its first use. */
export function createWorld(
  tenant: string,
  scenario: string,
  log: (message: string, error: unknown) => void,
  observer?: WorldStateObserver,
): World {
  return new StoreWorld(tenant, scenario, log, observer)
}
