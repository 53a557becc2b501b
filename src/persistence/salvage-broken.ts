// --state-dir's rebuild of a damaged state.db (salvage.ts): a key stopped while running because a read of its records
// met damage (`StateDamage.world`) answers again once the rebuild has brought back every one of its rows: the damage
// was elsewhere (an index, record_worlds, a page a failed statement of another key's read left unreadable to it).
import type Database from 'libsql'

/** The words StateDamage's message for a key stopped by a damaged page holds (and no quarantined record's does). */
export const DAMAGED_PAGE = 'are in a damaged page of the file'

/** Removes the stops of keys the rebuild lost nothing of; the keys released. */
export function releaseWholeKeys(out: Database.Database, lost: ReadonlyMap<string, unknown>): string[] {
  const stopped = out
    .prepare("SELECT key FROM shared WHERE kind = 'broken' AND instr(value, ?) > 0")
    .all(DAMAGED_PAGE) as { key: string }[]
  const release = out.prepare("DELETE FROM shared WHERE kind = 'broken' AND key = ?")
  const released: string[] = []
  for (const { key } of stopped)
    if (!lost.has(key)) {
      release.run(key)
      released.push(key)
    }
  return released
}
