// Reads and edits what --state-dir left in <dir>/state.db (libsql), as a crash at another moment would have left it.
import { join } from 'node:path'
import Database from 'libsql'

/** The part of a saved world tests edit: its clock offset and its tables' records. */
export interface SavedWorldView {
  tenant: string
  scenario: string
  clockOffsetMs: number
  tables: Record<string, Record<string, unknown>[]>
}

/** Opens a state dir's database (a second connection is fine while a sandbox has it open: WAL). */
export function openState(dir: string): Database.Database {
  return new Database(join(dir, 'state.db'))
}

/** Every world of a stopped sandbox's state dir, edited by `edit`, then written back row by row. */
export function editState(dir: string, edit: (state: { worlds: SavedWorldView[] }) => void): void {
  const db = openState(dir)
  try {
    const worlds = (
      db.prepare('SELECT id, tenant, scenario, value FROM worlds').all() as {
        id: number
        tenant: string
        scenario: string
        value: string
      }[]
    ).map((w) => ({ ...w, meta: JSON.parse(w.value) as { clockOffsetMs: number } }))
    const rows = new Map<object, { seq: number }>()
    const views: SavedWorldView[] = worlds.map((w) => {
      const tables: SavedWorldView['tables'] = {}
      for (const row of db
        .prepare('SELECT seq, tbl, value FROM records WHERE world = ? ORDER BY seq')
        .all(w.id) as { seq: number; tbl: string; value: string }[]) {
        const record = JSON.parse(row.value) as Record<string, unknown>
        tables[row.tbl] ??= []
        tables[row.tbl]!.push(record)
        rows.set(record, { seq: row.seq })
      }
      return { tenant: w.tenant, scenario: w.scenario, clockOffsetMs: w.meta.clockOffsetMs, tables }
    })
    edit({ worlds: views })
    for (const [i, view] of views.entries()) {
      const meta = { ...worlds[i]!.meta, clockOffsetMs: view.clockOffsetMs }
      db.prepare('UPDATE worlds SET value = ? WHERE id = ?').run(JSON.stringify(meta), worlds[i]!.id)
      for (const records of Object.values(view.tables))
        for (const record of records) {
          const row = rows.get(record)
          if (row)
            db.prepare('UPDATE records SET value = ? WHERE seq = ?').run(JSON.stringify(record), row.seq)
        }
    }
  } finally {
    db.close()
  }
}
