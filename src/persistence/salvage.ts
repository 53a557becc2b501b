// --state-dir: a state.db with damaged pages rebuilt from what can be read. SQLite reads a damaged page only when a
// statement reaches it (SQLITE_CORRUPT then), so each table is copied row by row in rowid order, a damaged stretch
// skipped by probing for the next rowid that can be read (a row whose rowid reads back and columns do not, a damaged
// overflow page, is skipped alone); the keys whose record rows sat in a damaged stretch are
// named (through `record_worlds`, which says which world each row belongs to) and stopped like a quarantined key: a
// `quarantine` row and a `broken` row, so they answer 503 saying what to do until they are reset. The file as found is
// kept beside it (`state.db.corrupt-<time>`); the rebuilt one takes its place before anything else opens it.
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import type Database from 'libsql'
import type { World } from '../contract/world.ts'
import { isDamage } from './damage-error.ts'
import { DAMAGED_PAGE, keepStopped, releaseWholeKeys } from './salvage-broken.ts'
import { DamagedJournals, forgetMarkedJournals } from './salvage-journal.ts'
import { recoverLostWorlds, worldsOfLostRecords } from './salvage-worlds.ts'

/** What a salvage could not bring over, and where the file as found is kept. */
export interface SalvageReport {
  /** the damaged file as found (and its -wal) */
  aside: string
  /** the keys whose records were in a damaged stretch (tenant → scenarios) */
  lostKeys: Map<string, Set<string>>
  /** what else was lost, in words (tables whose rows could not all be read), for the log */
  notes: string[]
  /** keys stopped by damage met while running whose rows all came back: they answer again */
  released: string[]
  /** some lost records' keys could not be named: no key stopped for damage is released (its rows may be among them) */
  untold: boolean
}

/** A rowid range that could not be read: (after, before), both exclusive; `before` null: to the table's end. */
interface LostRange {
  after: number
  before: number | null
}

/** The name of a file beside `path` that keeps a damaged copy (`<path>.corrupt-<time>`). */
export function corruptName(path: string): string {
  return `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
}

/** Marks a state.db found damaged while running (a world's records): the next start rebuilds it. Best effort. */
export function markDamaged(db: Database.Database, what: string, copy: string | null): void {
  try {
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('damaged', ?)").run(what)
    // the copy kept as found: the rebuild does not copy the file again
    if (copy) db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('damaged_copy', ?)").run(copy)
  } catch {
    // the next start finds the damage when the key's world comes back again
  }
}

/** A key as the log names it: enough to tell keys apart, not the whole secret. */
export function keyLabel(tenant: string): string {
  return tenant.length > 20 ? `${tenant.slice(0, 16)}…` : tenant
}

const CHUNK = 256
const MIN_ROWID = Number.MIN_SAFE_INTEGER + 1

/**
 * Rebuilds the damaged database at `path` from what can be read, in a new file that then takes its place; throws
 * when not even its schema can be read (the caller sets the file aside whole). `message(tenant)` is what a key that
 * lost rows answers (kept as its `broken` row).
 */
export function salvageStateDb(path: string, message: (tenant: string) => string): SalvageReport {
  const Libsql = createRequire(import.meta.url)('libsql') as typeof Database
  const source = new Libsql(path)
  const aside = keptCopy(source) ?? copyAsFound(path)
  const target = `${path}.salvage`
  for (const suffix of ['', '-wal', '-shm']) rmSync(target + suffix, { force: true })
  const report: SalvageReport = { aside, lostKeys: new Map(), notes: [], released: [], untold: false }
  let out: Database.Database | null = null
  try {
    // the schema itself must be readable: without it nothing is
    const schema = source
      .prepare('SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid')
      .all() as { type: string; name: string; sql: string }[]
    out = new Libsql(target)
    out.exec('BEGIN')
    for (const entry of schema) if (entry.type === 'table') out.exec(entry.sql)
    const lost = new Map<string, LostRange[]>()
    for (const entry of schema) {
      if (entry.type !== 'table' || entry.name.startsWith('sqlite_')) continue
      const ranges = copyTable(source, out, entry.name)
      if (ranges.length) lost.set(entry.name, ranges)
    }
    // the indexes and triggers once the rows are in (an index built from them, not copied)
    for (const entry of schema) if (entry.type !== 'table') out.exec(entry.sql)
    if (hasTableIn(out, 'meta')) out.exec("DELETE FROM meta WHERE key IN ('damaged', 'damaged_copy')")
    if (hasTableIn(out, 'meta') && hasTableIn(out, 'journal')) forgetMarkedJournals(out)
    // a world whose row was lost, or deleted by a reset that left its rows in a damaged page alone
    if (hasTableIn(out, 'worlds') && hasTableIn(out, 'records'))
      lostWorlds(source, out, lost.has('worlds'), report)
    nameLosses(source, out, lost, report, message, path)
    if (hasTableIn(out, 'shared') && !report.untold) report.released = releaseWholeKeys(out, report.lostKeys)
    out.exec('COMMIT')
  } finally {
    source.close()
    out?.close()
  }
  for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true })
  renameSync(target, path)
  for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true })
  return report
}

/**
 * A copy of the file as found (and its -wal): the one an earlier rebuild of this same file made and did not finish
 * (killed before the rebuilt file took its place: the file has not changed since, same sizes, no newer than the copy),
 * else a new one. A rebuild killed at every start keeps one copy, not a full copy more each time.
 */
function copyAsFound(path: string): string {
  const dir = dirname(path)
  const prefix = `${basename(path)}.corrupt-`
  const same = (copy: string) =>
    ['', '-wal'].every((suffix) => {
      if (!existsSync(path + suffix)) return !existsSync(copy + suffix)
      if (!existsSync(copy + suffix)) return false
      const [original, kept] = [statSync(path + suffix), statSync(copy + suffix)]
      return kept.size === original.size && kept.mtimeMs >= original.mtimeMs
    })
  const earlier = readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && !/-(wal|shm)$/.test(name))
    .sort()
    .reverse()
    .map((name) => join(dir, name))
    .find(same)
  if (earlier) return earlier
  const aside = corruptName(path)
  for (const suffix of ['', '-wal'])
    if (existsSync(path + suffix)) copyFileSync(path + suffix, aside + suffix)
  return aside
}

/** The copy of the file as found an earlier run kept when it found the damage (when it is still there). */
function keptCopy(db: Database.Database): string | null {
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'damaged_copy'").get() as
      | { value: string }
      | undefined
    return row && existsSync(row.value) ? row.value : null
  } catch {
    return null
  }
}

/** Copies a table's rows in rowid order, skipping damaged stretches; the stretches it could not read. */
function copyTable(source: Database.Database, out: Database.Database, table: string): LostRange[] {
  const info = source.prepare(`PRAGMA table_info("${table}")`).all() as {
    name: string
    type: string
    pk: number
  }[]
  const columns = info.map((c) => c.name)
  const list = columns.map((c) => `"${c}"`).join(', ')
  // an INTEGER PRIMARY KEY is the rowid itself: given once
  const keys = info.filter((c) => c.pk > 0)
  const aliased = keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER'
  // a libsql statement that failed fails every later call: one is prepared again after each damage it met. Reads
  // seek to the next rowid wanted (>=), not past the last one read: a seek to a rowid of the damaged page fails
  const readSql = `SELECT rowid AS "__rowid", ${list} FROM "${table}" WHERE rowid >= ? ORDER BY rowid LIMIT ?`
  let read = source.prepare(readSql)
  const first = () =>
    source.prepare(`SELECT rowid AS r FROM "${table}" WHERE rowid >= ? ORDER BY rowid LIMIT 1`)
  const marks = columns.map(() => '?').join(', ')
  const insertRow = out.prepare(
    aliased
      ? `INSERT OR IGNORE INTO "${table}"(${list}) VALUES (${marks})`
      : `INSERT OR IGNORE INTO "${table}"(rowid, ${list}) VALUES (?, ${marks})`,
  )
  const insert = {
    run: (rowid: number, ...values: unknown[]) =>
      aliased ? insertRow.run(...values) : insertRow.run(rowid, ...values),
  }
  const lost: LostRange[] = []
  let from = MIN_ROWID
  for (;;) {
    let rows: Record<string, unknown>[] | null = null
    try {
      rows = read.all(from, CHUNK) as Record<string, unknown>[]
    } catch (error) {
      if (!isDamage(error)) throw error
      read = source.prepare(readSql)
    }
    if (rows === null) {
      // row by row up to the damage, then past it
      for (;;) {
        let row: Record<string, unknown> | undefined
        try {
          row = read.get(from, 1) as Record<string, unknown> | undefined
        } catch (error) {
          if (!isDamage(error)) throw error
          read = source.prepare(readSql)
          break
        }
        if (!row) return lost
        insert.run(Number(row.__rowid), ...columns.map((c) => row![c]))
        from = Number(row.__rowid) + 1
      }
      const next = nextReadable(first, from - 1)
      if (next === from) {
        // the row's rowid reads back, its columns do not (a damaged overflow page): that row alone is lost
        lost.push({ after: from - 1, before: from + 1 })
        from += 1
        continue
      }
      lost.push({ after: from - 1, before: next })
      if (next === null) return lost
      from = next
      continue
    }
    for (const row of rows) insert.run(Number(row.__rowid), ...columns.map((c) => row[c]))
    if (rows.length < CHUNK) return lost
    from = Number(rows.at(-1)!.__rowid) + 1
  }
}

/**
 * The first rowid past a damaged stretch that starts after `after` (null: none can be read): a seek to a rowid past
 * the damaged page's range reaches another page, so the boundary is found by doubling the step, then bisecting.
 */
function nextReadable(first: () => Database.Statement, after: number): number | null {
  const probe = (at: number): { ok: boolean; row: number | null } => {
    try {
      const row = first().get(at) as { r: number } | undefined
      return { ok: true, row: row ? Number(row.r) : null }
    } catch (error) {
      if (!isDamage(error)) throw error
      return { ok: false, row: null }
    }
  }
  let low = after
  let high: number | null = null
  let found: number | null = null
  // from 0 when the damage starts the table (the sandbox's rowids are positive): doubling from the lowest rowid would
  // take every step below 0 and give up before the first page past the damage
  const base = Math.max(after, 0)
  for (let step = 1; base + step < Number.MAX_SAFE_INTEGER; step *= 2) {
    const at = base + step
    const result = probe(at)
    if (result.ok) {
      high = at
      found = result.row
      break
    }
    low = at
  }
  if (high === null) return null
  let top: number = high
  while (top - low > 1) {
    const mid: number = low + Math.floor((top - low) / 2)
    const result = probe(mid)
    if (result.ok) {
      top = mid
      found = result.row
    } else low = mid
  }
  return found
}

function hasTableIn(db: Database.Database, name: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name)
}

/** The worlds whose row was lost: named keys stop like those that lost records; the others' records left out. */
function lostWorlds(
  source: Database.Database,
  out: Database.Database,
  worldsLost: boolean,
  report: SalvageReport,
): void {
  const { named, unnamedRecords, unnamedKeys } = recoverLostWorlds(source, out, worldsLost)
  const add = (tenant: string, scenario: string) =>
    report.lostKeys.set(tenant, (report.lostKeys.get(tenant) ?? new Set<string>()).add(scenario))
  for (const { tenant, scenario } of named) add(tenant, scenario)
  for (const tenant of unnamedKeys) add(tenant, '(unknown)')
  if (named.length) report.notes.push(`the settings of ${named.length} world(s) (their keys named above)`)
  if (unnamedRecords) {
    report.untold = true
    report.notes.push(
      `${unnamedRecords} record(s) of worlds whose key could not be read either, left out (kept in the copy as found)`,
    )
  }
}

/** Names the keys whose records were lost and stops them (quarantine + broken rows); notes the other losses. */
function nameLosses(
  source: Database.Database,
  out: Database.Database,
  lost: Map<string, LostRange[]>,
  report: SalvageReport,
  message: (tenant: string) => string,
  path: string,
): void {
  const describe = (ranges: LostRange[]) =>
    ranges
      .map((r) => {
        const start = r.after === MIN_ROWID - 1 ? 'the first' : String(r.after + 1)
        return r.before === null ? `${start} to the last` : `${start} to ${r.before - 1}`
      })
      .join(', ')
  const hasTable = (name: string) => hasTableIn(out, name)
  const records = lost.get('records')
  if (records && hasTable('record_worlds') && hasTable('worlds')) {
    const { ids, untold } = worldsOfLostRecords(source, out, records, lost.has('record_worlds'))
    if (untold) report.untold = true
    const world = out.prepare('SELECT tenant, scenario FROM worlds WHERE id = ?')
    for (const id of ids) {
      const row = world.get(id) as { tenant: string; scenario: string } | undefined
      if (row)
        report.lostKeys.set(row.tenant, (report.lostKeys.get(row.tenant) ?? new Set()).add(row.scenario))
    }
    report.notes.push(
      `records (rows ${describe(records)}${untold ? '; which keys some of them belonged to could not be read' : ''})`,
    )
  }
  for (const [table, ranges] of lost) {
    if (table === 'records') continue
    report.notes.push(
      table === 'record_worlds'
        ? `record_worlds (rows ${describe(ranges)}; rebuilt from the records)`
        : `${table} (rows ${describe(ranges)})`,
    )
  }
  // which world each record belongs to, whole again from the records themselves (a lost stretch of it would hide them)
  if (hasTable('record_worlds') && hasTable('records'))
    out.exec(
      'DELETE FROM record_worlds; INSERT INTO record_worlds(seq, world) SELECT seq, world FROM records ORDER BY seq;',
    )
  if (!hasTable('quarantine') || !hasTable('shared')) return
  if (report.untold && hasTable('worlds')) keepStopped(out, report.lostKeys)
  const at = new Date().toISOString()
  const quarantine = out.prepare(
    'INSERT INTO quarantine(at, source, tenant, scenario, tbl, key, value, previous, reason) VALUES (?, ?, ?, ?, NULL, NULL, NULL, NULL, ?)',
  )
  const broken = out.prepare(
    'INSERT INTO shared(kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value',
  )
  for (const [tenant, scenarios] of report.lostKeys) {
    for (const scenario of scenarios)
      quarantine.run(
        at,
        path,
        tenant,
        scenario,
        `some of its records, or its world's settings, were in a damaged page of the file and could not be read (the file as found is kept as ${report.aside})`,
      )
    broken.run('broken', tenant, JSON.stringify(message(tenant)))
  }
}

/**
 * What state.db's damage costs: a copy of the file as found (once), the rebuild at the start (`salvage`), and a key
 * whose records are found damaged while running (`world`).
 */
export class StateDamage {
  readonly #path: string
  readonly #log: (message: string, error?: unknown) => void
  #kept = false
  #copy: string | null = null
  /** keys whose records sat in a damaged page (found as their world came back): a reset leaves those rows alone */
  readonly tenants = new Set<string>()
  /** keys whose journal sat in a damaged page */
  readonly journals = new DamagedJournals()

  constructor(path: string, log: (message: string, error?: unknown) => void) {
    this.#path = path
    this.#log = log
  }

  /** What a key whose records sat in a damaged page answers (503) until it is reset. */
  message(tenant: string): string {
    return `The saved state of this API key could not be read: some of its records in ${this.#path} ${DAMAGED_PAGE} (key ${keyLabel(tenant)}). Restore a copy of the file and restart the sandbox, or reset the key (POST /__sandbox/reset) to start it afresh.`
  }

  /** Rebuilds the damaged state.db from what can be read, logging which keys lost records; false when it cannot. */
  salvage(damage: unknown): boolean {
    let report: SalvageReport
    try {
      report = salvageStateDb(this.#path, (tenant) => this.message(tenant))
    } catch (error) {
      this.#log(`--state-dir: ${this.#path} could not be rebuilt (${text(error)})`)
      return false
    }
    this.#kept = true
    this.#copy = report.aside
    const keys = [...report.lostKeys.keys()].map(keyLabel)
    this.#log(
      `--state-dir: ${this.#path} is damaged (${text(damage)}); it was rebuilt from what could be read, and the file as found is kept as ${report.aside}. ${
        keys.length
          ? `Keys whose records were lost (they answer 503 until reset; see the quarantine table): ${keys.join(', ')}.`
          : report.notes.some((n) => n.startsWith('records ('))
            ? 'No key is known to have lost a record.'
            : 'No key lost a record.'
      }${report.notes.length ? ` Rows that could not be read: ${report.notes.join('; ')}.` : ''}${
        report.released.length
          ? ` Keys stopped while running whose rows all came back (they answer again): ${report.released.map(keyLabel).join(', ')}.`
          : ''
      }`,
    )
    return true
  }

  /** A copy of the damaged state.db as it was found (once), before anything more is written to it. */
  keepCopy(): string | null {
    if (this.#kept) return this.#copy
    this.#kept = true
    try {
      const aside = copyAsFound(this.#path)
      this.#copy = aside
      this.#log(
        `--state-dir: ${this.#path} is damaged; a copy as it was found is kept as ${aside}, and the sandbox goes on with what it can read`,
      )
    } catch (error) {
      this.#log(`--state-dir: a copy of the damaged ${this.#path} could not be kept`, error)
    }
    return this.#copy
  }

  /**
   * A world whose records cannot be read (a damaged page): its key stops (503, kept across restarts by a `broken`
   * row), named in the log, and the file is marked for a rebuild from what can be read at the next start. The
   * message the key answers.
   */
  world(db: Database.Database, world: World, error: unknown): string {
    const copy = this.keepCopy()
    const message = this.message(world.tenant)
    this.tenants.add(world.tenant)
    markDamaged(db, `the records of key ${keyLabel(world.tenant)}: ${text(error)}`, copy)
    try {
      db.prepare(
        'INSERT INTO shared(kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value',
      ).run('broken', world.tenant, JSON.stringify(message))
    } catch {
      // the rebuild at the next start names the key again
    }
    this.#log(
      `--state-dir: ${this.#path}: the records of key ${keyLabel(world.tenant)} (scenario ${world.scenario}) are in a damaged page (${text(error)}); it answers 503 until it is reset, the other keys work, and the next start rebuilds the file from what can be read`,
    )
    return message
  }
}

function text(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300)
}

/**
 * Why a database file is shorter than the page count its header gives (cut short), or undefined. SQLite refuses such
 * a file itself, but not while a connection of this process that has not been collected yet still has it open (a
 * restart in the same process: the tests'); a WAL holding frames gives the size instead (SQLite checks that one).
 */
export function cutShort(path: string): string | undefined {
  if (!existsSync(path)) return undefined
  if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 32) return undefined
  const header = Buffer.alloc(100)
  const fd = openSync(path, 'r')
  let read: number
  try {
    read = readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  // not a database at all: opening it says so
  if (read < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return undefined
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16)
  const pages = header.readUInt32BE(28)
  // the header's count is valid only when written with the change counter it names
  if (pages === 0 || header.readUInt32BE(92) !== header.readUInt32BE(24)) return undefined
  const size = statSync(path).size
  return size < pages * pageSize
    ? `cut short: ${size} bytes, where its header counts ${pages} pages of ${pageSize} bytes`
    : undefined
}

/** A database file shorter than its header says (see cutShort). */
export class CutShortError extends Error {}
