// The writes of --state-dir's gathered changes: each changed world's settings row, each changed record's insert,
// update or delete (its seq given here), the shared rows, delivery records, scenario choices and webhooks, serialised
// to JSON (a value that cannot be is logged and kept in memory only); committed in one transaction by the writer.
import type { World } from '../contract/world.ts'
import type { SandboxState } from '../control/services.ts'
import type { Slot } from './revival.ts'
import type { SavedWorldMeta } from './schema.ts'
import type { WriteOp } from './writer.ts'

/** The changes gathered since the last commit (taken from the StateDir, which starts new ones). */
export interface GatheredChanges {
  ops: WriteOp[]
  dirty: Set<Slot>
  worlds: Set<World>
  sharedRows: Map<string, [kind: string, key: string, value: unknown]>
  deliveries: Set<string>
  selections: boolean
  webhooks: boolean
}

/** What collecting the writes needs of the StateDir. */
export interface CollectHost {
  shared: SandboxState
  /** worlds dropped (reset): their changes are not written */
  forgotten: WeakSet<World>
  /** `tenant NUL scenario` -> the world's id */
  worldIds: ReadonlyMap<string, number>
  /** worlds whose seeded ids are not known yet (written again with the next commit) */
  unseeded: Set<World>
  worldId: (world: World) => number
  /** the seq of a new record's row */
  nextSeq: () => number
  /** a record's row was inserted (record_worlds is brought up to date with the next journal append) */
  recordsAppended: () => void
}

/** The writes of the gathered changes, serialised. */
export function collectWrites(changes: GatheredChanges, host: CollectHost): WriteOp[] {
  const { ops, dirty, worlds, sharedRows, deliveries, selections, webhooks } = changes
  const shared = host.shared
  const log = shared.log
  const text = (value: unknown, what: string): string | undefined => {
    try {
      return JSON.stringify(value)
    } catch (error) {
      log(`--state-dir: ${what} could not be written (kept in memory only)`, error)
      return undefined
    }
  }
  // the world's row first: a world's records are never written without it (one that has no id yet has no row)
  for (const { world } of dirty)
    if (!host.forgotten.has(world) && !host.worldIds.has(`${world.tenant}\u0000${world.scenario}`))
      worlds.add(world)
  for (const world of host.unseeded) worlds.add(world)
  for (const world of worlds) {
    // a world dropped meanwhile (reset) is not written back; one evicted a moment ago still is
    if (host.forgotten.has(world)) continue
    const seeded = shared.scenarios.seededIds(world) as Record<string, unknown> | undefined
    if (seeded) host.unseeded.delete(world)
    else host.unseeded.add(world)
    const meta: SavedWorldMeta = {
      clockOffsetMs: world.clock.now().getTime() - Date.now(),
      rules: world.rules,
      seeded: seeded ?? null,
    }
    const json = text(meta, 'a world')
    if (json !== undefined) ops.push(['world', host.worldId(world), world.tenant, world.scenario, json])
  }
  for (const slot of dirty) {
    const { rows, pending, tbl } = slot
    slot.pending = new Map()
    if (host.forgotten.has(slot.world)) continue
    let worldId: number | undefined
    for (const [key, value] of pending) {
      const seq = rows.get(key)
      if (value === undefined) {
        if (seq === undefined) continue
        rows.delete(key)
        ops.push(['remove', seq])
        continue
      }
      const json = text(value, `record ${tbl} ${key}`)
      if (json === undefined) continue
      if (seq !== undefined) ops.push(['update', json, seq])
      else {
        const next = host.nextSeq()
        rows.set(key, next)
        worldId ??= host.worldId(slot.world)
        ops.push(['insert', next, worldId, tbl, key, json])
        host.recordsAppended()
      }
    }
  }
  for (const [kind, key, value] of sharedRows.values()) {
    if (value === undefined) ops.push(['sharedRemove', kind, key])
    else {
      const json = text(value, `${kind} ${key}`)
      if (json !== undefined) ops.push(['shared', kind, key, json])
    }
  }
  // a record a bound dropped from memory meanwhile is not written: its row's delete is among the shared rows above
  for (const id of deliveries) {
    const [tenant, deliveryId] = id.split('\u0000') as [string, string]
    const record = shared.webhooks.record(tenant, deliveryId)
    const json = record && text(record, `delivery ${deliveryId}`)
    if (json !== undefined) ops.push(['shared', 'delivery', id, json])
  }
  // written whole when they changed (a batch that held them and failed marks them again)
  if (selections) ops.push(['shared', 'globals', 'selections', JSON.stringify(shared.scenarios.selections())])
  if (webhooks)
    ops.push(['shared', 'globals', 'webhooks', JSON.stringify(shared.webhooks.registry.entries())])
  return ops
}
