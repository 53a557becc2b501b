// What the payment detector must know of a world still on disk, read without bringing the world back: after a restart
// the worlds past --max-worlds stay in state.db (reviver.ts), as evicted ones do, and payments to their requests (through
// the published proxies or the world's own conversion stack) must still be recorded.
import type Database from 'libsql'
import { withStatement } from './statements.ts'

/**
 * One world's requests (its id given twice) as `requestId U+001F paymentReference`, and U+0002 for a rate of its own,
 * rows split by U+001E.
 */
const WORLD_REFERENCES = `SELECT group_concat(CASE WHEN tbl = 'rates.rates' THEN char(2) ELSE key || char(31) || ref END,
  char(30)) AS refs FROM (
  SELECT r.tbl, r.key, CASE WHEN r.tbl = 'requests.requests' AND json_valid(r.value)
      THEN json_extract(r.value, '$.paymentReference') END AS ref
    FROM record_worlds w CROSS JOIN records r ON r.seq = w.seq
    WHERE w.world = ? AND r.tbl IN ('requests.requests', 'rates.rates')
  UNION ALL
  SELECT tbl, key, CASE WHEN tbl = 'requests.requests' AND json_valid(value)
      THEN json_extract(value, '$.paymentReference') END FROM records
    WHERE seq > (SELECT coalesce(max(seq), 0) FROM record_worlds) AND world = ?
      AND tbl IN ('requests.requests', 'rates.rates'))`

/** What a saved world holds for the detector: its requests' references, and whether it set rates of its own. */
export interface SavedReferences {
  /** [request id, payment reference] of each request (a row that cannot be read: left out) */
  references: [requestId: string, reference: string][]
  /** it has a conversion stack of its own (its rates) */
  ownRates: boolean
}

/** A world with nothing saved for the detector (or whose pages cannot be read). */
export const NONE_SAVED: SavedReferences = Object.freeze({
  references: [],
  ownRates: false,
}) as SavedReferences

/** The requests and own rates of the saved world `id` (none when it has no row). */
export function savedReferences(db: Database.Database, id: number | undefined): SavedReferences {
  const found: SavedReferences = { references: [], ownRates: false }
  if (id === undefined) return found
  const text = (
    withStatement(db, WORLD_REFERENCES, (s) => s.get(id, id)) as { refs: string | null } | undefined
  )?.refs
  for (const row of text ? text.split('\u001e') : []) {
    if (row === '\u0002') {
      found.ownRates = true
      continue
    }
    const at = row.lastIndexOf('\u001f')
    const reference = row.slice(at + 1)
    if (at > 0 && /^0x[0-9a-fA-F]{16}$/.test(reference)) found.references.push([row.slice(0, at), reference])
  }
  return found
}
