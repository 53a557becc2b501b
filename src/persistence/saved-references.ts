// The payment references of a world still on disk, read without bringing the world back: after a restart the worlds
// past --max-worlds stay in state.db (reviver.ts), and the payment detector must still know their requests.
import type Database from 'libsql'
import { statement } from './statements.ts'

/** Each request of one world (its id given twice): `requestId U+001F paymentReference`, rows split by U+001E. */
const WORLD_REFERENCES = `SELECT group_concat(key || char(31) || ref, char(30)) AS refs FROM (
  SELECT r.key, CASE WHEN json_valid(r.value) THEN json_extract(r.value, '$.paymentReference') END AS ref
    FROM record_worlds w CROSS JOIN records r ON r.seq = w.seq WHERE w.world = ? AND r.tbl = 'requests.requests'
  UNION ALL
  SELECT key, CASE WHEN json_valid(value) THEN json_extract(value, '$.paymentReference') END FROM records
    WHERE seq > (SELECT coalesce(max(seq), 0) FROM record_worlds) AND world = ? AND tbl = 'requests.requests')`

/** The requests of the saved world `id` as [request id, payment reference] (a row that cannot be read: left out). */
export function savedReferences(
  db: Database.Database,
  id: number | undefined,
): [requestId: string, reference: string][] {
  if (id === undefined) return []
  const text = (statement(db, WORLD_REFERENCES).get(id, id) as { refs: string | null } | undefined)?.refs
  const found: [string, string][] = []
  for (const row of text ? text.split('\u001e') : []) {
    const at = row.lastIndexOf('\u001f')
    const reference = row.slice(at + 1)
    if (at > 0 && /^0x[0-9a-fA-F]{16}$/.test(reference)) found.push([row.slice(0, at), reference])
  }
  return found
}
