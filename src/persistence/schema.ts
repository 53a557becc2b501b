// The database of a --state-dir (state.db): its schema, the migrations from earlier formats, and the queries that read
// a world's rows back in one text.
import { createRequire } from 'node:module'
import type Database from 'libsql'
import type { WorldRules } from '../contract/rules.ts'
import { INDEX_WORLDS } from './writer.ts'

/** The schema of state.db this version writes and reads. */
export const DB_FORMAT = 5

/** A world's own settings (the `worlds` table). */
export interface SavedWorldMeta {
  clockOffsetMs: number
  rules: WorldRules
  seeded: Record<string, unknown> | null
}

// A record's row is named by its seq, which the sandbox gives (it knows which keys are new): inserts append at the
// table's end. A unique index on (world, tbl, key) took keys in random order (request ids are hashes): each row
// dirtied a page of its own, written to the WAL at every commit, and cost the writer three times as much as the rows
// themselves. An index on (world, seq) (format 3) still dirtied one page per world at every commit, four times the
// WAL of the rows (100 keys written at once): a world's rows are found through `record_worlds` instead, a table of
// (seq, world) appended at its end too. Format 5 no longer keeps it by a trigger on each insert: it is brought up to
// date in bulk (INDEX_WORLDS, writer.ts), and a world's rows past it are read from `records` itself (`WORLD_ROWS`); a
// delete still removes its row by trigger. Its index on world (`record_worlds_world`) finds a world's rows without
// reading every record's (a scan cost ~40 µs per 1,000 records at each revival: 20 ms at 500,000); it is written
// only by the bulk update, one page per world written since the last (docs/decisions/2026-12-06-revival-index.md).
// A state.db of format 5 without it gets it when opened (CREATE INDEX IF NOT EXISTS). A journal row's call entries
// keep their bodies as the text they are, not escaped again into JSON (journal.ts, `journalText`).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS worlds(id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, scenario TEXT NOT NULL,
  value TEXT NOT NULL, UNIQUE(tenant, scenario));
CREATE TABLE IF NOT EXISTS records(seq INTEGER PRIMARY KEY, world INTEGER NOT NULL, tbl TEXT NOT NULL,
  key TEXT NOT NULL, value TEXT NOT NULL, previous TEXT);
CREATE TABLE IF NOT EXISTS record_worlds(seq INTEGER PRIMARY KEY, world INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS record_worlds_world ON record_worlds(world);
CREATE TRIGGER IF NOT EXISTS records_removed AFTER DELETE ON records
  BEGIN DELETE FROM record_worlds WHERE seq = old.seq; END;
CREATE TABLE IF NOT EXISTS shared(kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(kind, key));
CREATE TABLE IF NOT EXISTS journal(seq INTEGER PRIMARY KEY, tenant TEXT NOT NULL, entry TEXT NOT NULL,
  n INTEGER NOT NULL DEFAULT 1);
CREATE INDEX IF NOT EXISTS journal_tenant ON journal(tenant);
CREATE TABLE IF NOT EXISTS chains(network TEXT PRIMARY KEY, state TEXT NOT NULL, previous TEXT, saved_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS quarantine(at TEXT NOT NULL, source TEXT NOT NULL, tenant TEXT, scenario TEXT, tbl TEXT,
  key TEXT, value TEXT, previous TEXT, reason TEXT NOT NULL);
`

/**
 * A row's key as WORLD_ROWS gives it: as it is, or U+0001 and its UTF-8 bytes in hex (`rowKey`) when it holds U+0001,
 * U+001E or U+001F (which split the rows) or a NUL (SQLite reads a text only up to it, and the world's whole
 * group_concat with it). A key is the caller's (a payer's clientUserId). A NUL, or a multibyte character, makes the
 * text's length differ from its bytes'. instr, not GLOB: ~0.1 µs a row instead of ~1 µs (100,000 rows).
 */
const SAFE_KEY = `(CASE WHEN instr(key, char(1)) OR instr(key, char(30)) OR instr(key, char(31)) OR length(key) <> length(CAST(key AS BLOB)) THEN char(1) || hex(key) ELSE key END)`

/** A key as WORLD_ROWS read it (SAFE_KEY). */
export function rowKey(text: string): string {
  return text.charCodeAt(0) === 1 ? Buffer.from(text.slice(1), 'hex').toString('utf8') : text
}

/**
 * Every row of one world (its id given twice) in one text, in seq order: those record_worlds names, then those
 * appended since it was last brought up to date (INDEX_WORLDS), read from `records` past its last seq.
 */
export const WORLD_ROWS = `SELECT group_concat(seq || char(31) || tbl || char(31) || ${SAFE_KEY} || char(31) || value, char(30)) AS rows FROM (
  SELECT * FROM (SELECT r.seq, r.tbl, r.key, r.value FROM record_worlds w CROSS JOIN records r ON r.seq = w.seq
    WHERE w.world = ? ORDER BY w.seq)
  UNION ALL
  SELECT * FROM (SELECT seq, tbl, key, value FROM records
    WHERE seq > (SELECT coalesce(max(seq), 0) FROM record_worlds) AND world = ? ORDER BY seq))`

/** Opens (creating) the database of a state dir, WAL and synchronous=NORMAL: a commit survives kill -9. */
export function openStateDb(path: string): Database.Database {
  // loaded on first use: a sandbox without --state-dir never loads the native module
  const Libsql = createRequire(import.meta.url)('libsql') as typeof Database
  const db = new Libsql(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 10000')
  migrateFormat2(db)
  migrateFormat3(db)
  migrateFormat4(db)
  db.exec(SCHEMA)
  // the records a run appended after its last bulk update of record_worlds (a kill): in it before anything reads it
  if (formatOf(db) === String(DB_FORMAT)) db.exec(INDEX_WORLDS)
  return db
}

/**
 * A state.db of format 4 (record_worlds kept by a trigger on each insert; journal entries all JSON) marked as
 * format 5: the trigger dropped. Its journal rows are read as they are (format 5 reads both kinds of entry).
 */
function migrateFormat4(db: Database.Database): void {
  if (formatOf(db) !== '4') return
  db.exec('BEGIN')
  try {
    db.exec(`DROP TRIGGER IF EXISTS records_added; ${INDEX_WORLDS};
      UPDATE meta SET value = '${DB_FORMAT}' WHERE key = 'format';`)
    db.exec('COMMIT')
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}

/** The format a state.db is marked with (undefined: a new file, or one of the first version's import). */
function formatOf(db: Database.Database): string | undefined {
  const row = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get()
      ? db.prepare("SELECT value FROM meta WHERE key = 'format'").get()
      : undefined
  ) as { value: string } | undefined
  return row?.value
}

/**
 * A state.db of format 3 (a world's records found through the index records_world) rewritten as format 5, in one
 * transaction: the index dropped, `record_worlds` filled from the records.
 */
function migrateFormat3(db: Database.Database): void {
  if (formatOf(db) !== '3') return
  db.exec('BEGIN')
  try {
    db.exec(`DROP INDEX IF EXISTS records_world;
      CREATE TABLE record_worlds(seq INTEGER PRIMARY KEY, world INTEGER NOT NULL);
      INSERT INTO record_worlds(seq, world) SELECT seq, world FROM records ORDER BY seq;`)
    db.exec(SCHEMA)
    db.exec(`UPDATE meta SET value = '${DB_FORMAT}' WHERE key = 'format'`)
    db.exec('COMMIT')
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}

/**
 * A state.db of format 2 (records keyed by tenant, scenario, table and key) rewritten as this format, in one
 * transaction: worlds get an id, records name their world's, the rows of derived maps are left out, a journal row
 * counts its entries.
 */
function migrateFormat2(db: Database.Database): void {
  if (formatOf(db) !== '2') return
  db.exec('BEGIN')
  try {
    db.exec(`DROP INDEX IF EXISTS records_key;
      DROP TABLE IF EXISTS record_worlds;
      ALTER TABLE records RENAME TO records_format2;
      ALTER TABLE worlds RENAME TO worlds_format2;`)
    const journal = db.prepare('PRAGMA table_info(journal)').all() as { name: string }[]
    if (journal.length && !journal.some((c) => c.name === 'n'))
      db.exec('ALTER TABLE journal ADD COLUMN n INTEGER NOT NULL DEFAULT 1')
    db.exec(SCHEMA)
    db.exec(`INSERT INTO worlds(id, tenant, scenario, value) SELECT rowid, tenant, scenario, value FROM worlds_format2;
      INSERT INTO records(seq, world, tbl, key, value, previous)
        SELECT r.seq, w.id, r.tbl, r.key, r.value, r.previous FROM records_format2 r
        JOIN worlds w ON w.tenant = r.tenant AND w.scenario = r.scenario
        WHERE r.tbl <> 'requests.requestsByReference' ORDER BY r.seq;
      DROP TABLE records_format2;
      DROP TABLE worlds_format2;
      UPDATE meta SET value = '${DB_FORMAT}' WHERE key = 'format';`)
    db.exec('COMMIT')
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}

/** The largest value of an integer column (0 for an empty table). */
export function maxOf(db: Database.Database, table: string, column: string): number {
  const row = db.prepare(`SELECT max(${column}) AS n FROM ${table}`).get() as { n: number | null }
  return Number(row.n ?? 0)
}
