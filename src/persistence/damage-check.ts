// --state-dir: what a start reads whole before it serves, to find a damaged state.db before any key is served (the
// rebuild, salvage.ts, then runs before anything else opens the file).
import type Database from 'libsql'
import { isDamage } from './damage-error.ts'

/**
 * Reads what a start reads whole before it serves (the shared rows, the worlds, which world each record belongs to,
 * the journal's keys, the chains' states, the newest records) and whether an earlier run found damage further in:
 * the damage found, or undefined. A key's records are read when its world comes back, after the start.
 */
export function damageOf(db: Database.Database): unknown {
  try {
    const flagged = db.prepare("SELECT value FROM meta WHERE key = 'damaged'").get() as
      | { value: string }
      | undefined
    if (flagged) return Object.assign(new Error(flagged.value), { code: 'SQLITE_CORRUPT' })
    for (const sql of [
      'SELECT sum(length(kind) + length(key) + length(value)) FROM shared',
      'SELECT sum(length(tenant) + length(value)) FROM worlds',
      // the table's pages, not its index's (which covers the column): a revival reads a damaged index page
      'SELECT sum(world) FROM record_worlds NOT INDEXED',
      'SELECT count(DISTINCT tenant) FROM journal',
      // each key's last journal row (the start orders the keys by it: load.ts, readJournalTenants)
      'SELECT sum(length(j.entry)) FROM journal j JOIN (SELECT max(seq) AS seq FROM journal GROUP BY tenant) last ON j.seq = last.seq',
      // the journal's last page, where its appends go (the rest is read key by key)
      'SELECT max(seq) FROM journal',
      'SELECT sum(length(state) + coalesce(length(previous), 0)) FROM chains',
      'SELECT count(*) FROM quarantine',
    ])
      db.prepare(sql).get()
    // every index whole (a revival, a reset, the writer's inserts reach a damaged index page as any other): an index
    // holds no row of its own, so one found damaged is rebuilt from its table at no key's cost
    for (const sql of indexScans(db)) db.prepare(sql).get()
    return undefined
  } catch (error) {
    if (isDamage(error)) return error
    throw error
  }
}

/** A statement per index of the file that reads each of its pages (a scan of the index alone, in its order). */
function indexScans(db: Database.Database): string[] {
  const indexes = db
    .prepare("SELECT name, tbl_name AS tbl FROM sqlite_master WHERE type = 'index'")
    .all() as { name: string; tbl: string }[]
  return indexes.flatMap(({ name, tbl }) => {
    const column = (db.prepare(`PRAGMA index_info("${name}")`).all() as { name: string | null }[])[0]?.name
    // an index on an expression has no column to name: the rebuild at the next start finds its damage instead
    if (!column) return []
    return [
      `SELECT count(*) FROM (SELECT "${column}" FROM "${tbl}" INDEXED BY "${name}" ORDER BY "${column}")`,
    ]
  })
}
