// --state-dir: a key stopped while running because a read of its records met damage (`StateDamage.world`) answers
// again once its rows are known whole: in the rebuild at the next start, when none of its rows was lost (the damage
// was elsewhere: an index, record_worlds); at a start with no rebuild due (an earlier version's rebuild already ran),
// when every row of its worlds reads back. A key some of whose rows a rebuild lost (a `quarantine` row without a table
// name) stays stopped until it is reset; so does every such key when a rebuild lost records whose keys it could not
// name (its rows may be among them: the rebuild counts it among the keys that lost records).
import type Database from 'libsql'
import { WORLD_ROWS } from './schema.ts'

/** The words StateDamage's message for a key stopped by a damaged page holds (and no quarantined record's does). */
export const DAMAGED_PAGE = 'are in a damaged page of the file'

/** The keys stopped by a damaged page that no rebuild found rows of lost. */
function stoppedWhole(db: Database.Database): string[] {
  return (
    db
      .prepare(
        "SELECT key FROM shared WHERE kind = 'broken' AND instr(value, ?) > 0 AND key NOT IN (SELECT tenant FROM quarantine WHERE tbl IS NULL AND tenant IS NOT NULL)",
      )
      .all(DAMAGED_PAGE) as { key: string }[]
  ).map((r) => r.key)
}

/**
 * In a rebuilt file that lost records whose keys it could not name: each key stopped by a damaged page is counted
 * among those that lost records (`lost`: key → scenarios), so its stop outlives later starts (a quarantine row).
 */
export function keepStopped(out: Database.Database, lost: Map<string, Set<string>>): void {
  const scenarios = out.prepare('SELECT scenario FROM worlds WHERE tenant = ?')
  for (const key of stoppedWhole(out)) {
    const found = lost.get(key) ?? new Set<string>()
    for (const { scenario } of scenarios.all(key) as { scenario: string }[]) found.add(scenario)
    lost.set(key, found.size ? found : found.add('(unknown)'))
  }
}

/** In a rebuilt file: the stops of keys it lost nothing of removed; the keys released. */
export function releaseWholeKeys(out: Database.Database, lost: ReadonlyMap<string, unknown>): string[] {
  const release = out.prepare("DELETE FROM shared WHERE kind = 'broken' AND key = ?")
  const released = stoppedWhole(out).filter((key) => !lost.has(key))
  for (const key of released) release.run(key)
  return released
}

/** At a start with no rebuild due: the stops of keys every row of whose worlds reads back removed; the keys released. */
export function releaseReadableKeys(db: Database.Database): string[] {
  const released: string[] = []
  for (const key of stoppedWhole(db)) {
    try {
      for (const { id } of db.prepare('SELECT id FROM worlds WHERE tenant = ?').all(key) as { id: number }[])
        db.prepare(WORLD_ROWS).get(id, id)
      db.prepare("DELETE FROM shared WHERE kind = 'broken' AND key = ?").run(key)
      released.push(key)
    } catch {
      // still damaged: the key stays stopped
    }
  }
  return released
}
