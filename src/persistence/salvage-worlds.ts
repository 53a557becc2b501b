// --state-dir's rebuild of a damaged state.db (salvage.ts): the worlds whose own row (which key and scenario they
// belong to, their clock offset, rules and seeded ids) sat in a damaged page while their records did not, or was
// deleted by a reset that left the key's rows in damaged pages alone (`forgetTenantOps`). The key
// and scenario are read back from the index on worlds(tenant, scenario), which holds them again with the world's id:
// such a world gets its row back (its settings lost: `{}`) and its key is named like one that lost records. The
// records of a world that index cannot name either are left out of the rebuilt file (the copy as found keeps them):
// kept, no key could reach or reset them, and a new world given the same id would read them as its own. The keys of
// lost records are named through record_worlds, or through its index where its own pages were lost too.
import type Database from 'libsql'

/** What became of the worlds whose row was lost. */
export interface LostWorlds {
  /** worlds named by the index, their rows put back */
  named: { tenant: string; scenario: string }[]
  /** records left out: their world could not be named */
  unnamedRecords: number
  /** keys with a journal and no world left, when lost worlds' rows could not be named (the index damaged too) */
  unnamedKeys: string[]
}

/**
 * Puts back the rows of the worlds the index on worlds names but `out` lacks (`worldsLost`: some of its rows could not
 * be read), leaves out the records of worlds no row names (`source`: the damaged file).
 */
export function recoverLostWorlds(
  source: Database.Database,
  out: Database.Database,
  worldsLost: boolean,
): LostWorlds {
  const result: LostWorlds = { named: [], unnamedRecords: 0, unnamedKeys: [] }
  const orphans = () =>
    (
      out.prepare('SELECT DISTINCT world FROM records WHERE world NOT IN (SELECT id FROM worlds)').all() as {
        world: number
      }[]
    ).map((r) => Number(r.world))
  if (!worldsLost && !orphans().length) return result
  const known = indexedWorlds(source)
  if (worldsLost && known) {
    const has = out.prepare('SELECT 1 FROM worlds WHERE id = ?')
    const put = out.prepare(
      "INSERT OR IGNORE INTO worlds(id, tenant, scenario, value) VALUES (?, ?, ?, '{}')",
    )
    for (const [id, world] of known)
      if (!has.get(id) && put.run(id, world.tenant, world.scenario).changes) result.named.push(world)
  }
  const leave = out.prepare('DELETE FROM records WHERE world = ?')
  for (const id of orphans()) result.unnamedRecords += Number(leave.run(id).changes)
  // a key's calls are in its journal: one with no world left had its world's row in a damaged page (or none saved)
  if (worldsLost && !known)
    result.unnamedKeys = (
      out
        .prepare('SELECT DISTINCT tenant FROM journal WHERE tenant NOT IN (SELECT tenant FROM worlds)')
        .all() as { tenant: string }[]
    ).map((r) => r.tenant)
  return result
}

/** Each world's key and scenario by id, as the index on worlds(tenant, scenario) holds them (null: it is damaged). */
function indexedWorlds(source: Database.Database): Map<number, { tenant: string; scenario: string }> | null {
  const found = new Map<number, { tenant: string; scenario: string }>()
  try {
    const index = source
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'worlds' AND name LIKE 'sqlite_autoindex_%'",
      )
      .get() as { name: string } | undefined
    if (!index) return null
    // the index alone (it covers the key, the scenario and the id): the table's damaged pages are not read
    for (const row of source
      .prepare(`SELECT id, tenant, scenario FROM worlds INDEXED BY "${index.name}" ORDER BY tenant, scenario`)
      .all() as { id: number; tenant: string; scenario: string }[])
      found.set(Number(row.id), { tenant: row.tenant, scenario: row.scenario })
  } catch {
    // a damaged index too: those worlds cannot be named
    return null
  }
  return found
}

/**
 * The worlds of the record rows lost in `ranges` (rowids `after < seq < before`): from `out`'s copy of record_worlds,
 * and from the damaged file's index on record_worlds(world), which holds each row's world again (read alone: a
 * damaged record_worlds page is not reached). `untold`: some of record_worlds was lost and that index could not be
 * read either, so a lost record's key may not be among them.
 */
export function worldsOfLostRecords(
  source: Database.Database,
  out: Database.Database,
  ranges: { after: number; before: number | null }[],
  recordWorldsLost: boolean,
): { ids: Set<number>; untold: boolean } {
  const ids = new Set<number>()
  const copied = out.prepare('SELECT DISTINCT world FROM record_worlds WHERE seq > ? AND seq < ?')
  for (const r of ranges)
    for (const row of copied.all(r.after, r.before ?? Number.MAX_SAFE_INTEGER) as { world: number }[])
      ids.add(Number(row.world))
  let untold = false
  try {
    const indexed = source.prepare(
      'SELECT DISTINCT world FROM record_worlds INDEXED BY record_worlds_world WHERE seq > ? AND seq < ?',
    )
    for (const r of ranges)
      for (const row of indexed.all(r.after, r.before ?? Number.MAX_SAFE_INTEGER) as { world: number }[])
        ids.add(Number(row.world))
  } catch {
    untold = recordWorldsLost
  }
  return { ids, untold }
}
