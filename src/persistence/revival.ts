// Revival for --state-dir: the rows of a world read back from WORLD_ROWS' text, the timers a revived world
// takes up again (`resumeWorld`), and how a world's Tables and Maps are observed (Slot, observeMap).
import type Database from 'libsql'
import { declaredStates, type World } from '../contract/world.ts'
import { readJournalText } from '../control/journal.ts'
import type { SandboxState } from '../control/services.ts'
import { requestState } from '../resources/requests/index.ts'
import { indexSecurePaymentTokens } from '../resources/secure-payments/index.ts'
import { inWorld } from '../resources/services.ts'
import { DerivedMap } from '../store/derived-map.ts'
import { Table } from '../store/table.ts'
import { previousCopy, type QuarantinedRow } from './quarantine.ts'
import type { StateDamage } from './salvage.ts'
import { rowKey, type SavedWorldMeta, WORLD_ROWS } from './schema.ts'
import { withStatement } from './statements.ts'

/** One Table or Map of one world as --state-dir writes it: each key's row, and the changes not committed yet. */
export interface Slot {
  world: World
  tbl: string
  /** key -> the seq (rowid) of its row */
  readonly rows: Map<string, number>
  /** key -> what to write (undefined: deleted), the changes since the last commit */
  pending: Map<string, unknown>
}

/** Observes a Map: every set and delete is reported (its values are what --state-dir writes). */
export function observeMap(map: Map<unknown, unknown>, changed: (key: string, value: unknown) => void): void {
  const { set, delete: remove, clear } = Map.prototype
  map.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    set.call(this, key, value)
    changed(String(key), value)
    return this
  }
  map.delete = function (this: Map<unknown, unknown>, key: unknown) {
    const had = remove.call(this, key)
    if (had) changed(String(key), undefined)
    return had
  }
  map.clear = function (this: Map<unknown, unknown>) {
    for (const key of this.keys()) changed(String(key), undefined)
    clear.call(this)
  }
}

export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300)
}

/**
 * Takes a world whose records came back up again: each declared state's resume hooks (`onResume`, registered by
 * each resource beside its state: the key's conversion stack first, then timers, reviews, settlements), the `first`
 * ones before the others, each in declaration order.
 */
export async function resumeWorld(world: World, shared: SandboxState): Promise<void> {
  const ctx = inWorld(shared, world)
  for (const first of [true, false])
    for (const definition of declaredStates())
      for (const resume of definition.resumes ?? [])
        if (resume.first === first) await resume.run(ctx as never)
}

/** A world's rows from WORLD_ROWS' text (fields split by U+001F, rows by U+001E); an unreadable row is skipped. */
export function* worldRows(
  text: string,
): Generator<{ seq: number; tbl: string; key: string; value: string }> {
  let at = 0
  while (at < text.length) {
    let end = text.indexOf('\u001e', at)
    if (end === -1) end = text.length
    const zero = text.indexOf('\u001f', at)
    const first = zero === -1 ? -1 : text.indexOf('\u001f', zero + 1)
    const second = first === -1 ? -1 : text.indexOf('\u001f', first + 1)
    if (second === -1 || second > end) {
      // a row written by hand with the separators in it: the rest of this row is not readable
      at = end + 1
      continue
    }
    const seq = Number(text.slice(at, zero))
    const row = {
      seq,
      tbl: text.slice(zero + 1, first),
      key: rowKey(text.slice(first + 1, second)),
      value: text.slice(second + 1, end),
    }
    at = end + 1
    yield row
  }
}

/** A saved world's own settings (its row of `worlds`: SavedWorldMeta's text), undefined when it has none. */
export function worldSettings(db: Database.Database, id: number): { value: string } | undefined {
  return withStatement(db, 'SELECT value FROM worlds WHERE id = ?', (s) => s.get(id)) as
    | { value: string }
    | undefined
}

/** What filling a world back needs of the StateDir. */
export interface FillHost {
  db: Database.Database
  shared: SandboxState
  /** keys stopped, with the message they answer */
  broken: Map<string, string>
  damage: StateDamage
  slots: WeakMap<World, Map<string, Slot>>
  quarantine: (world: World, row: QuarantinedRow, reason: string) => void
  /** true while rows are put back (their changes are not written again) */
  setLoading: (on: boolean) => void
}

/** Puts a world's rows back into it; records that cannot be read stop only this key. */
export function reviveWorldRows(host: FillHost, world: World, id: number, metaText: string): Promise<void> {
  const shared = host.shared
  // every row of the world in one text (the driver costs ~20-50 µs per row it returns): fields split by U+001F,
  // rows by U+001E, which JSON.stringify never writes raw; no JSON functions (they would escape each value again)
  let packed: { rows: string | null } | undefined
  try {
    packed = withStatement(host.db, WORLD_ROWS, (s) => s.get(id, id)) as { rows: string | null } | undefined
  } catch (error) {
    host.broken.set(world.tenant, host.damage.world(host.db, world, error))
    return Promise.resolve()
  }
  const text = packed?.rows ?? ''
  const definitions = new Map(declaredStates().map((d) => [d.name, d]))
  const fields = new Map<string, unknown>()
  const field = (key: string): unknown => {
    if (fields.has(key)) return fields.get(key)
    const dot = key.lastIndexOf('.')
    const definition = definitions.get(key.slice(0, dot))
    const target = definition
      ? (world.state(definition) as Record<string, unknown>)[key.slice(dot + 1)]
      : undefined
    fields.set(key, target)
    return target
  }
  const quarantine = (row: { seq: number; tbl: string; key: string; value: string }, reason: string) =>
    host.quarantine(world, { ...row, previous: previousCopy(host.db, row.seq) }, reason)
  const slots = host.slots
  let meta: SavedWorldMeta
  host.setLoading(true)
  try {
    try {
      meta = JSON.parse(metaText) as SavedWorldMeta
      if (!meta || typeof meta !== 'object') throw new Error('not an object')
    } catch (error) {
      host.quarantine(
        world,
        { seq: null, tbl: 'world', key: '', value: metaText, previous: null },
        `its settings are not JSON (${(error as Error).message})`,
      )
      meta = { clockOffsetMs: 0, rules: world.rules, seeded: null }
    }
    if (meta.rules && typeof meta.rules === 'object') world.rules = meta.rules
    for (const row of worldRows(text)) {
      const { seq } = row
      const target = field(row.tbl)
      // a derived map's rows (a state dir of an earlier version): it is rebuilt below
      if (target instanceof DerivedMap) continue
      // the row this key has (its changes update it); one that cannot be read is moved to quarantine below
      const slot = slots.get(world)?.get(row.tbl)
      let value: unknown
      try {
        value = JSON.parse(row.value)
      } catch (error) {
        quarantine(row, `not JSON (${(error as Error).message})`)
        continue
      }
      if (target instanceof Table) {
        // validated again (a row edited by hand is refused), synchronously: no promise per row
        try {
          target.restore(value)
          slot?.rows.set(row.key, seq)
        } catch (error) {
          quarantine(row, `refused by its schema (${errorText(error)})`)
        }
      } else if (target instanceof Map) {
        target.set(row.key, value)
        slot?.rows.set(row.key, seq)
      }
    }
    const requests = requestState(world)
    for (const request of requests.requests.all()) {
      requests.requestsByReference.set(request.paymentReference, request.requestId)
      shared.paymentReferences.add(request.paymentReference, world, request.requestId)
    }
    shared.scenarios.markSeeded(world, (meta.seeded ?? {}) as never)
  } finally {
    host.setLoading(false)
  }
  // the world's secure payment tokens named in the directory (written: a state dir of an earlier version has none)
  indexSecurePaymentTokens(shared.directory, world)
  // advance moves the clock at once; what falls due runs after
  const offset = Number(meta.clockOffsetMs) || 0
  const advanced = offset > 1000 ? world.clock.advance(offset) : Promise.resolve()
  return advanced.then(() => resumeWorld(world, shared))
}

/** Puts a key's saved journal back (before anything of this run is recorded for it). */
export function reviveJournal(
  tenant: string,
  shared: SandboxState,
  readable: (read: () => string | null | undefined) => string | null | undefined,
  db: Database.Database,
  loading: { get: () => boolean; set: (on: boolean) => void },
): void {
  // a key's entries in one text (the driver's cost is per row), rows split by U+001E (readJournalText reads an
  // entry's raw bodies by their lengths); through the journal_tenant index, already in seq order
  const entries = readable(
    () =>
      (
        withStatement(
          db,
          'SELECT group_concat(entry, char(30)) AS entries FROM (SELECT entry FROM journal WHERE tenant = ? ORDER BY seq)',
          (s) => s.get(tenant),
        ) as { entries: string | null } | undefined
      )?.entries,
  )
  if (!entries) return
  // an entry that cannot be read is only history: left out
  const list = readJournalText(entries)
  const was = loading.get()
  loading.set(true)
  try {
    shared.journal.import([[tenant, list]])
  } finally {
    loading.set(was)
  }
}

/** Starts observing a resource state a world just created: its Tables and Maps report each change (a Slot each). */
export function observeWorldState(
  slotsOf: WeakMap<World, Map<string, Slot>>,
  world: World,
  name: string,
  state: unknown,
  changed: (slot: Slot, key: string, value: unknown) => void,
): void {
  for (const [field, value] of Object.entries(state as Record<string, unknown>)) {
    // a derived map is rebuilt from the records it follows, never written
    if (!(value instanceof Table || value instanceof Map) || value instanceof DerivedMap) continue
    const tbl = `${name}.${field}`
    let slots = slotsOf.get(world)
    if (!slots) {
      slots = new Map()
      slotsOf.set(world, slots)
    }
    const slot: Slot = { world, tbl, rows: new Map(), pending: new Map() }
    slots.set(tbl, slot)
    if (value instanceof Table) value.observe((key, record) => changed(slot, key, record))
    else observeMap(value, (key, v) => changed(slot, key, v))
  }
}
