// What --state-dir writes when worlds go (a world dropped, a key reset), and the batch a commit settles.
import type { World } from '../contract/world.ts'
import type { Slot } from './revival.ts'
import type { StateDamage } from './salvage.ts'
import type { WriteOp } from './writer.ts'

/** The scenarios of a key's worlds that have rows (by the worlds' ids, `tenant NUL scenario`). */
export function scenariosOf(worldIds: ReadonlyMap<string, number>, tenant: string): string[] {
  const scenarios: string[] = []
  for (const name of worldIds.keys()) {
    const at = name.indexOf('\u0000')
    if (name.slice(0, at) === tenant) scenarios.push(name.slice(at + 1))
  }
  return scenarios
}

/** The deletes of a dropped world (undefined when it has no row); its changes not committed yet are not written. */
export function forgetWorldOps(
  dirty: ReadonlySet<Slot>,
  forgotten: WeakSet<World>,
  worldIds: Map<string, number>,
  tenant: string,
  scenario: string,
): WriteOp[] | undefined {
  const name = `${tenant}\u0000${scenario}`
  const id = worldIds.get(name)
  for (const slot of dirty)
    if (slot.world.tenant === tenant && slot.world.scenario === scenario) forgotten.add(slot.world)
  if (id === undefined) return undefined
  worldIds.delete(name)
  return [['indexWorlds'], ['forgetWorldRecords', id], ['forgetWorld', id]]
}

/** The deletes of a key reset: its worlds forget their ids, its records, worlds, journal and broken mark go. */
export function forgetTenantOps(
  dirty: ReadonlySet<Slot>,
  forgotten: WeakSet<World>,
  worldIds: Map<string, number>,
  damage: StateDamage,
  tenant: string,
): WriteOp[] {
  // its worlds are in `forgotten` (Tenants.reset dropped them first; an evicted one with changes is added here):
  // what they still change is not written
  for (const slot of dirty) if (slot.world.tenant === tenant) forgotten.add(slot.world)
  for (const name of worldIds.keys())
    if (name.slice(0, name.indexOf('\u0000')) === tenant) worldIds.delete(name)
  return [
    ['indexWorlds'],
    // a key whose records are in a damaged page: those rows are left (no world names them; the rebuild drops them)
    ...(damage.tenants.delete(tenant) ? [] : [['forgetRecords', tenant] as WriteOp]),
    ['forgetWorlds', tenant],
    // a key whose journal is in a damaged page: its rows are left (the delete would fail the whole commit)
    ...(damage.journals.has(tenant) ? [] : [['forgetJournal', tenant] as WriteOp]),
    ['sharedRemove', 'broken', tenant],
  ]
}

/** A batch being gathered: settled once committed (or failed). */
export interface Batch {
  promise: Promise<void>
  resolve: () => void
  reject: (error: unknown) => void
}

export function newBatch(): Batch {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  // a batch nobody awaits must not become an unhandled rejection (the failure is logged)
  promise.catch(() => {})
  return { promise, resolve, reject }
}
