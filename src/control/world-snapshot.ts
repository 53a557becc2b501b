// A key's world as plain data and back: what named snapshots (snapshots.ts) save and restore. Every resource's
// declared state (each Table and Map of `declaredStates()`), the clock offset, the rules and the seeded ids.
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import type { WorldRules } from '../contract/rules.ts'
import { declaredStates, type World } from '../contract/world.ts'
import { indexOnboardingTokens } from '../resources/orchestrators/index.ts'
import { requestState } from '../resources/requests/index.ts'
import { DerivedMap } from '../store/derived-map.ts'
import { Table } from '../store/table.ts'
import type { SandboxState } from './sandbox-state.ts'
import { resumeTimers } from './state-dir.ts'

/** One world as saved (named snapshots of src/control/snapshots.ts). */
export interface SavedWorld {
  tenant: string
  scenario: string
  clockOffsetMs: number
  rules: WorldRules
  seeded: Record<string, unknown> | null
  tables: Record<string, unknown[]>
  maps: Record<string, [string, unknown][]>
}

/** Writes `text` so that `path` always holds a complete file: temporary file, fsync, rename. */
export function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`
  const fd = openSync(tmp, 'w')
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
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

// Everything but the recurring payouts' rescheduling happens synchronously (Table.insert stores at once), so an
// evicted world can be brought back inside Tenants.get.
export function fillWorld(world: World, saved: SavedWorld, shared: SandboxState): Promise<void> {
  world.rules = saved.rules
  const definitions = new Map(declaredStates().map((d) => [d.name, d]))
  const field = (key: string): unknown => {
    const dot = key.lastIndexOf('.')
    const definition = definitions.get(key.slice(0, dot))
    return definition ? (world.state(definition) as Record<string, unknown>)[key.slice(dot + 1)] : undefined
  }
  // no await before the end: every record is stored before this returns
  const inserts: Promise<unknown>[] = []
  for (const [name, records] of Object.entries(saved.tables)) {
    const table = field(name)
    if (table instanceof Table) for (const record of records) inserts.push(table.insert(record as never))
  }
  for (const [name, entries] of Object.entries(saved.maps)) {
    const map = field(name)
    // a derived map's entries (a snapshot of an earlier version) are not taken: it is rebuilt below
    if (map instanceof Map && !(map instanceof DerivedMap)) for (const [k, v] of entries) map.set(k, v)
  }
  const requests = requestState(world)
  for (const request of requests.requests.all()) {
    requests.requestsByReference.set(request.paymentReference, request.requestId)
    shared.paymentReferences.add(request.paymentReference, world, request.requestId)
  }
  indexOnboardingTokens(shared.directory, world)
  shared.scenarios.markSeeded(world, (saved.seeded ?? {}) as never)
  // advance moves the clock at once; what falls due runs after
  const advanced = saved.clockOffsetMs > 1000 ? world.clock.advance(saved.clockOffsetMs) : Promise.resolve()
  return Promise.all([...inserts, advanced]).then(() => resumeTimers(world, shared))
}
