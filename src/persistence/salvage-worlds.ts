// --state-dir's rebuild of a damaged state.db (salvage.ts): the worlds whose own row (which key and scenario they
// belong to, their clock offset, rules and seeded ids) sat in a damaged page while their records did not, or was
// deleted by a reset that left the key's rows in damaged pages alone (`forgetTenantOps`). The key
// and scenario are read back from the index on worlds(tenant, scenario), which holds them again with the world's id:
// such a world gets its row back (its settings lost: `{}`) and its key is named like one that lost records. The
// records of a world that index cannot name either are left out of the rebuilt file (the copy as found keeps them):
// kept, no key could reach or reset them, and a new world given the same id would read them as its own.
import type Database from 'libsql'

/** What became of the worlds whose row was lost. */
export interface LostWorlds {
  /** worlds named by the index, their rows put back */
  named: { tenant: string; scenario: string }[]
  /** records left out: their world could not be named */
  unnamedRecords: number
}

/** Puts back the rows of the worlds `out`'s records name but its worlds table lacks (`source`: the damaged file). */
export function recoverLostWorlds(source: Database.Database, out: Database.Database): LostWorlds {
  const missing = (
    out.prepare('SELECT DISTINCT world FROM records WHERE world NOT IN (SELECT id FROM worlds)').all() as {
      world: number
    }[]
  ).map((r) => Number(r.world))
  const result: LostWorlds = { named: [], unnamedRecords: 0 }
  if (!missing.length) return result
  const known = indexedWorlds(source)
  const put = out.prepare("INSERT OR IGNORE INTO worlds(id, tenant, scenario, value) VALUES (?, ?, ?, '{}')")
  const leave = out.prepare('DELETE FROM records WHERE world = ?')
  for (const id of missing) {
    const world = known.get(id)
    if (world && put.run(id, world.tenant, world.scenario).changes) result.named.push(world)
    else result.unnamedRecords += Number(leave.run(id).changes)
  }
  return result
}

/** Each world's key and scenario by id, as the index on worlds(tenant, scenario) holds them (none if it is damaged). */
function indexedWorlds(source: Database.Database): Map<number, { tenant: string; scenario: string }> {
  const found = new Map<number, { tenant: string; scenario: string }>()
  try {
    const index = source
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'worlds' AND name LIKE 'sqlite_autoindex_%'",
      )
      .get() as { name: string } | undefined
    if (!index) return found
    // the index alone (it covers the key, the scenario and the id): the table's damaged pages are not read
    for (const row of source
      .prepare(`SELECT id, tenant, scenario FROM worlds INDEXED BY "${index.name}" ORDER BY tenant, scenario`)
      .all() as { id: number; tenant: string; scenario: string }[])
      found.set(Number(row.id), { tenant: row.tenant, scenario: row.scenario })
  } catch {
    // a damaged index too: those worlds cannot be named
    found.clear()
  }
  return found
}
