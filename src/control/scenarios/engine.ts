// Which scenario a call runs in, and seeding each world (tenant x scenario) once, on first use.
// Selection: header x-sandbox-scenario, else the key's PUT /__sandbox/scenario choice, else --scenario.

import { worldRules } from '../../contract/rules.ts'
import { SandboxError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'
import type { ScenarioDefinition, SeededIds } from './define.ts'
import type { ScenarioRegistry } from './registry.ts'
import { createSeedApi, type SeedServices, scenarioSeed } from './seed-api.ts'

/** Where the caller reached the sandbox, or how to compute it (only a seed reads it: API calls pass a function). */
export type BaseUrl = string | (() => string)

/** 400 for a name that is no scenario, listing the known ones. */
export class UnknownScenarioError extends SandboxError {
  override name = 'UnknownScenarioError'
  constructor(name: string, known: string[]) {
    const message = `Unknown scenario "${name.slice(0, 80)}". Known scenarios: ${known.join(', ')}`
    super(400, message, { body: { statusCode: 400, message, error: 'Bad Request', scenarios: known } })
  }
}

/** 501 for a scenario that needs something this sandbox version does not have yet. */
export class PendingScenarioError extends SandboxError {
  override name = 'PendingScenarioError'
  constructor(definition: ScenarioDefinition) {
    const message = `Scenario ${definition.name} is not available in this sandbox version: ${definition.pending}`
    super(501, message, { body: { statusCode: 501, message, error: 'Not Implemented' } })
  }
}

/** What GET /__sandbox/scenario answers: the scenario of a world and what its seed created there. */
export interface ScenarioState {
  scenario: string
  description: string
  rules: World['rules']
  creates: Record<string, string>
  ids: SeededIds
}

/** Options of the engine. */
export interface ScenarioEngineOptions {
  /** the scenario of keys that chose none (--scenario) */
  defaultScenario?: string
  /** the sandbox seed: scenario data repeats run after run */
  seed?: number
}

/** Scenario selection per key and seeding per world. */
export class ScenarioEngine {
  readonly registry: ScenarioRegistry
  readonly defaultScenario: string
  readonly #shared: SeedServices
  readonly #seed: number | null
  readonly #selected = new Map<string, string>()
  readonly #seeding = new WeakMap<World, Promise<SeededIds>>()
  readonly #seeded = new WeakMap<World, SeededIds>()
  /** told of each change of the keys' choices (--state-dir writes them again only then) */
  #onSelect: (() => void) | null = null

  constructor(shared: SeedServices, registry: ScenarioRegistry, options: ScenarioEngineOptions = {}) {
    this.#shared = shared
    this.registry = registry
    this.#seed = options.seed ?? null
    this.defaultScenario = options.defaultScenario ?? 'default'
    this.resolve(this.defaultScenario)
  }

  /** The scenario with this name; 400 listing the known names, 501 while it is pending. */
  resolve(name: string): ScenarioDefinition {
    const definition = this.registry.get(name)
    if (!definition) throw new UnknownScenarioError(name, this.registry.names())
    if (definition.pending) throw new PendingScenarioError(definition)
    return definition
  }

  /** The scenario a key runs in when a call names none. */
  selected(tenant: string): string {
    return this.#selected.get(tenant) ?? this.defaultScenario
  }

  /** Sets the key's scenario (PUT /__sandbox/scenario). */
  select(tenant: string, name: string): void {
    this.resolve(name)
    if (name === this.defaultScenario) this.#selected.delete(tenant)
    else this.#selected.set(tenant, name)
    this.#onSelect?.()
  }

  /** Calls `listener` after each change of a key's choice. */
  onSelect(listener: (() => void) | null): void {
    this.#onSelect = listener
  }

  /** Every key's chosen scenario (those that chose one), for --state-dir. */
  selections(): [string, string][] {
    return [...this.#selected]
  }

  /** The ids a world's seed created, once it has run (for --state-dir). */
  seededIds(world: World): SeededIds | undefined {
    return this.#seeded.get(world)
  }

  /** Marks a restored world as seeded with the ids its seed created before the restart: the seed does not run again. */
  markSeeded(world: World, ids: SeededIds): void {
    this.#seeded.set(world, ids)
    this.#seeding.set(world, Promise.resolve(ids))
  }

  /** Copies the scenario's rules onto a new world (registered as a Tenants onCreate hook). */
  applyRules(world: World): void {
    const rules = this.registry.get(world.scenario)?.rules
    if (rules) world.rules = worldRules(structuredClone(rules))
  }

  /**
   * The world of `tenant` under `scenario`, seeded (the seed runs once per world; concurrent callers share it).
   * `baseUrl` is where the caller reached the sandbox (links the seed hands out, such as a payer's kycUrl).
   */
  async world(tenant: string, scenario: string = this.selected(tenant), baseUrl?: BaseUrl): Promise<World> {
    this.resolve(scenario)
    const world = this.#shared.tenants.get(tenant, scenario)
    await this.ready(world, baseUrl)
    return world
  }

  /** Whether a world's seed has run: a call to it has nothing to wait for. */
  isSeeded(world: World): boolean {
    return this.#seeded.has(world)
  }

  /** Seeds a world if it has not been; resolves to the ids the seed returned. */
  ready(world: World, baseUrl?: BaseUrl): Promise<SeededIds> {
    let seeding = this.#seeding.get(world)
    if (!seeding) {
      seeding = this.#runSeed(world, baseUrl)
      this.#seeding.set(world, seeding)
    }
    return seeding
  }

  /** The scenario state of a seeded world. */
  async state(world: World, baseUrl?: BaseUrl): Promise<ScenarioState> {
    const ids = await this.ready(world, baseUrl)
    const definition = this.resolve(world.scenario)
    return {
      scenario: definition.name,
      description: definition.description,
      rules: world.rules,
      creates: definition.creates ?? {},
      ids,
    }
  }

  /** Every scenario with what it creates, and the ids it seeded in the caller's worlds that exist. */
  list(tenant: string | null) {
    return this.registry.all().map((definition) => {
      const world = tenant === null ? undefined : this.#shared.tenants.peek(tenant, definition.name)
      return {
        name: definition.name,
        description: definition.description,
        rules: definition.rules ?? {},
        creates: definition.creates ?? {},
        ...(definition.pending ? { pending: definition.pending } : {}),
        seeded: (world && this.#seeded.get(world)) ?? null,
      }
    })
  }

  async #runSeed(world: World, baseUrl: BaseUrl | undefined): Promise<SeededIds> {
    const definition = this.resolve(world.scenario)
    if (!definition.seed) {
      this.#seeded.set(world, {})
      return {}
    }
    const seed = this.#seed === null ? null : scenarioSeed(this.#seed, world.scenario, world.tenant)
    try {
      const ids =
        (await definition.seed(
          await createSeedApi(this.#shared, world, seed, typeof baseUrl === 'function' ? baseUrl() : baseUrl),
        )) ?? {}
      this.#seeded.set(world, ids)
      return ids
    } catch (error) {
      // A half-seeded world is dropped: the next call starts it again from scratch.
      this.#shared.tenants.drop(world.tenant, world.scenario)
      const first = (error as Error).message.split('\n')[0]
      // a refusal the seed met (a network this sandbox does not run, a bound): the caller's choice cannot be served
      // here, a 4xx with the refusal's status; anything else is the sandbox's fault, a 500 that is logged
      if (error instanceof SandboxError && error.status >= 400 && error.status < 500)
        throw new SandboxError(error.status, `Scenario ${world.scenario} cannot be seeded here: ${first}`)
      this.#shared.log(`scenario ${world.scenario} failed to seed`, error)
      throw new SandboxError(500, `Scenario ${world.scenario} could not be seeded: ${first}`)
    }
  }
}
