import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStateDb, WORLD_ROWS } from './schema.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A state.db of this format with the records of three worlds interleaved (world 2's newest past the bulk update). */
function filledDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'revival-index-'))
  dirs.push(dir)
  const path = join(dir, 'state.db')
  const db = openStateDb(path)
  db.exec("INSERT INTO meta(key, value) VALUES ('format', '5')")
  const insert = db.prepare('INSERT INTO records(seq, world, tbl, key, value) VALUES (?, ?, ?, ?, ?)')
  for (let seq = 1; seq <= 300; seq++)
    insert.run(seq, (seq % 3) + 1, 'requests.requests', `r${seq}`, `{"n":${seq}}`)
  db.exec('INSERT INTO record_worlds(seq, world) SELECT seq, world FROM records')
  insert.run(301, 2, 'requests.requests', 'r301', '{"n":301}')
  db.close()
  return path
}

/** The plan SQLite gives a statement, one line a step. */
function plan(db: ReturnType<typeof openStateDb>, sql: string): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail)
}

describe('state.db finds a world rows by an index', () => {
  it("reads a world's rows through record_worlds' index on world, never every record's, in seq order", () => {
    const db = openStateDb(filledDb())
    try {
      const steps = plan(db, WORLD_ROWS)
      expect(steps.some((s) => s.includes('USING COVERING INDEX record_worlds_world (world=?)'))).toBe(true)
      // a scan of record_worlds (every record's world) is what a revival cost past thousands of keys
      expect(steps.filter((s) => /^SCAN (w|record_worlds)\b/.test(s))).toEqual([])
      const { rows } = db.prepare(WORLD_ROWS).get(2, 2) as { rows: string }
      const seqs = rows.split('\u001e').map((row) => Number(row.split('\u001f')[0]))
      expect(seqs).toEqual([...Array.from({ length: 100 }, (_, i) => 3 * i + 1), 301])
    } finally {
      db.close()
    }
  })

  it('gives a state.db of this format written without the index the index when it is opened', () => {
    const path = filledDb()
    const bare = openStateDb(path)
    bare.exec('DROP INDEX IF EXISTS record_worlds_world')
    bare.close()
    const db = openStateDb(path)
    try {
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'record_worlds'")
        .all() as { name: string }[]
      expect(indexes.map((i) => i.name)).toContain('record_worlds_world')
      expect(plan(db, WORLD_ROWS).filter((s) => /^SCAN (w|record_worlds)\b/.test(s))).toEqual([])
      expect(db.prepare('SELECT count(*) AS n FROM record_worlds').get()).toMatchObject({ n: 301 })
    } finally {
      db.close()
    }
  })
})
