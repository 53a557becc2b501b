// Quarantine for --state-dir: a record that cannot be read back leaves `records` for the `quarantine` table (with
// the last good copy its row kept), and its key answers 503 until it is reset (the mark kept in `shared`).
import type Database from 'libsql'
import type { World } from '../contract/world.ts'
import type { SandboxState } from '../control/services.ts'
import { keyLabel } from './salvage.ts'

/** A row moved to quarantine (seq null: the world's own settings). */
export interface QuarantinedRow {
  seq: number | null
  tbl: string
  key: string
  value: string
  previous: string | null
}

/** The last good copy a record's row keeps (read only for a row that cannot be read back). */
export function previousCopy(db: Database.Database, seq: number): string | null {
  const row = db.prepare('SELECT previous FROM records WHERE seq = ?').get(seq) as
    | { previous: string | null }
    | undefined
  return row?.previous ?? null
}

export function quarantineRow(
  db: Database.Database,
  path: string,
  log: SandboxState['log'],
  broken: Map<string, string>,
  world: World,
  row: QuarantinedRow,
  reason: string,
): void {
  const what = `record ${row.tbl} ${row.key || '(world settings)'} of a key (scenario ${world.scenario})`
  db.prepare(
    'INSERT INTO quarantine(at, source, tenant, scenario, tbl, key, value, previous, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    new Date().toISOString(),
    path,
    world.tenant,
    world.scenario,
    row.tbl,
    row.key,
    row.value,
    row.previous,
    reason,
  )
  if (row.seq !== null) db.prepare('DELETE FROM records WHERE seq = ?').run(row.seq)
  const message = `The saved state of this API key could not be read: ${what} in ${path} is ${reason}. It was moved, with its last good copy (column previous), to the quarantine table of that file. Reset the key (POST /__sandbox/reset) to start it afresh, or put a good record back with a SQLite client, delete the key's row of kind 'broken' in the shared table, and restart the sandbox.`
  broken.set(world.tenant, message)
  // kept: the row is out of records, so a restart would otherwise bring the key back without it, silently
  db.prepare(
    'INSERT INTO shared(kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value',
  ).run('broken', world.tenant, JSON.stringify(message))
  log(
    `--state-dir: ${path}: ${what} is ${reason}; key ${keyLabel(world.tenant)} answers 503 until it is reset`,
  )
}
