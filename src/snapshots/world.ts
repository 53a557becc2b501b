// A key's world as plain data and back: what named snapshots (snapshots.ts) save and restore. Every resource's
// declared state (each Table and Map of `declaredStates()`), the clock offset, the rules and the seeded ids.
import type { WorldRules } from '../contract/rules.ts'
import { declaredStates, type World } from '../contract/world.ts'
import type { SandboxState } from '../control/services.ts'
import { resumeWorld } from '../persistence/index.ts'
import { indexClientIds } from '../resources/client-ids/index.ts'
import { indexOnboardingTokens } from '../resources/orchestrators/index.ts'
import { indexPayerPages } from '../resources/payers/index.ts'
import { requestState } from '../resources/requests/index.ts'
import { indexSecurePaymentTokens } from '../resources/secure-payments/index.ts'
import { DerivedMap } from '../store/derived-map.ts'
import { Table } from '../store/table.ts'
import { createWorld } from '../store/world.ts'

/** One world as saved (named snapshots of src/snapshots/snapshots.ts). */
export interface SavedWorld {
  tenant: string
  scenario: string
  clockOffsetMs: number
  rules: WorldRules
  seeded: Record<string, unknown> | null
  tables: Record<string, unknown[]>
  maps: Record<string, [string, unknown][]>
}

export function snapshotWorld(world: World, shared: SandboxState): SavedWorld {
  const tables: Record<string, unknown[]> = {}
  const maps: Record<string, [string, unknown][]> = {}
  // every resource's declared state, field by field, under `<state name>.<field>`
  for (const definition of declaredStates()) {
    for (const [field, value] of Object.entries(world.state(definition) as Record<string, unknown>)) {
      if (value instanceof Table) tables[`${definition.name}.${field}`] = value.all()
      // a derived map follows from the records (fillWorld rebuilds it), as --state-dir does not write it either
      else if (value instanceof Map && !(value instanceof DerivedMap))
        maps[`${definition.name}.${field}`] = [...value]
    }
  }
  return {
    tenant: world.tenant,
    scenario: world.scenario,
    clockOffsetMs: world.clock.now().getTime() - Date.now(),
    rules: world.rules,
    seeded: (shared.scenarios.seededIds(world) as Record<string, unknown> | undefined) ?? null,
    tables,
    maps,
  }
}

/** A saved world whose records its tables took (in a world of its own, outside the sandbox): ready to fill in. */
export interface PreparedWorld {
  saved: SavedWorld
  /** each declared Table's records, as its schema parsed them */
  tables: Map<string, unknown[]>
}

/**
 * Checks a saved world against the tables it fills, in a world of its own that nothing else sees: each record
 * through its table's schema and key (throws what the table throws: a zod error, a duplicate key). The key's
 * live worlds are not touched.
 */
export function prepareWorld(
  saved: SavedWorld,
  log: (message: string, error: unknown) => void,
): PreparedWorld {
  if (!Number.isFinite(saved.clockOffsetMs)) throw new Error('its clock offset is not a number')
  const scratch = createWorld(saved.tenant, saved.scenario, log)
  const tables = new Map<string, unknown[]>()
  try {
    for (const [name, records] of Object.entries(saved.tables)) {
      const table = fieldOf(scratch, name)
      if (!(table instanceof Table)) continue
      for (const record of records) table.restore(record)
      tables.set(name, table.all())
    }
  } finally {
    scratch.clock.dispose()
  }
  return { saved, tables }
}

/** The Table or Map `<state name>.<field>` of a world (undefined: no such declared state). */
function fieldOf(world: World, key: string): unknown {
  const dot = key.lastIndexOf('.')
  const definition = declaredStates().find((d) => d.name === key.slice(0, dot))
  return definition ? (world.state(definition) as Record<string, unknown>)[key.slice(dot + 1)] : undefined
}

/**
 * Fills a new world with a prepared one, synchronously: every record, map entry, index and the seeded ids are in
 * when this returns (nothing here awaits), so a restore fills its worlds in one step. The promise resolves once the
 * clock has moved and the timers resume.
 */
export function fillWorld(world: World, prepared: PreparedWorld, shared: SandboxState): Promise<void> {
  const { saved } = prepared
  world.rules = saved.rules
  for (const [name, records] of prepared.tables) {
    const table = fieldOf(world, name) as Table<never, never>
    for (const record of records) table.add(record as never)
  }
  for (const [name, entries] of Object.entries(saved.maps)) {
    const map = fieldOf(world, name)
    // a derived map's entries (a snapshot of an earlier version) are not taken: it is rebuilt below
    if (map instanceof Map && !(map instanceof DerivedMap)) for (const [k, v] of entries) map.set(k, v)
  }
  const requests = requestState(world)
  for (const request of requests.requests.all()) {
    requests.requestsByReference.set(request.paymentReference, request.requestId)
    shared.paymentReferences.add(request.paymentReference, world, request.requestId)
  }
  // the credentials that point into the world: the key's worlds were dropped first, and these with them
  indexOnboardingTokens(shared.directory, world)
  indexClientIds(shared.directory, world)
  indexPayerPages(shared.directory, world)
  indexSecurePaymentTokens(shared.directory, world)
  shared.scenarios.markSeeded(world, (saved.seeded ?? {}) as never)
  // advance moves the clock at once; what falls due runs after
  const advanced = saved.clockOffsetMs > 1000 ? world.clock.advance(saved.clockOffsetMs) : Promise.resolve()
  return advanced.then(() => resumeWorld(world, shared))
}
