// --state-dir: the sandbox's state kept across restarts in an embedded database (`state.db`, libsql: SQLite's file
// format, WAL). Every change is written as it happens: the Tables and Maps of every declared resource state
// (`declaredStates()`, record by record, observed through `Table.observe` and the Maps' own set/delete), each world's
// clock offset, rules and seeded ids, the keys' scenario choices and webhooks, webhook delivery records (after each
// attempt), the credential directory (client IDs, sessions, payer page links) and the journal (appended every 200 ms,
// off the answers' path, bounded as the in-memory one). Changes of three event-loop turns are committed in one transaction (group commit); the dispatcher
// awaits `barrier()` before an answer leaves, so a 2xx reports a change already committed (kill -9 loses none).
// Each embedded chain's anvil state (saved by its supervisor) goes to the `chains` table when it moved.
//
// A restart loads them back before serving: recurring requests and payouts, pending KYC reviews and pending webhook
// retries and payment-detail reviews are armed again, off-ramps under way take their remaining steps at the times
// they had, payment intents accepted but not settled are settled (what the chains already hold is not redone), and a
// key's own conversion stack is registered (and installed) again before the detector's first scan.
//
// Bad data stays where it is: a record that cannot be read back (not JSON, or refused by its schema) stops only its
// key: the row moves to `quarantine` (with the last good copy the row kept in `previous`), the file and key are
// logged, and that key answers 503 saying what to do until it is reset (across restarts). A state dir of the previous version
// (state.json, journal.json, chain-*.state, evicted/) is imported once (state-dir-import.ts).
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type Database from 'libsql'
import type { ChainSupervisor } from '../chain/index.ts'
import type { Middleware } from '../contract/middleware.ts'
import type { WorldRules } from '../contract/rules.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { declaredStates, type World } from '../contract/world.ts'
import type { DeliveryRecord } from '../events/webhook-delivery.ts'
import { payerState, resumeKycReview } from '../resources/payers/index.ts'
import { paymentDetailState, resumeDetailReview } from '../resources/payment-details/index.ts'
import { resumeSettlements } from '../resources/payment-intents/index.ts'
import { payoutState, scheduleNext } from '../resources/payouts/index.ts'
import { restoreWorldRates } from '../resources/rates/index.ts'
import { requestState, resumeOfframp, resumeRecurringSchedule } from '../resources/requests/index.ts'
import { indexSecurePaymentTokens } from '../resources/secure-payments/token-index.ts'
import { inWorld } from '../resources/services.ts'
import type { WebhookRegistry } from '../resources/webhooks/registry.ts'
import { DerivedMap } from '../store/derived-map.ts'
import { Table } from '../store/table.ts'
import { type JournalEntry, journalText, readJournalText } from './journal.ts'
import type { SandboxState } from './sandbox-state.ts'
import { importLegacyStateDir } from './state-dir-import.ts'
import {
  CutShortError,
  corruptName,
  cutShort,
  damageOf,
  isDamage,
  keyLabel,
  StateDamage,
} from './state-dir-salvage.ts'
import { INDEX_WORLDS, StateWriter, type WriteOp } from './state-writer.ts'

/** The format of state.json the previous version wrote (imported once into state.db). */
export const STATE_FORMAT = 1
/** The schema of state.db this version writes and reads. */
export const DB_FORMAT = 5

/** About how many journal entries one transaction appends (a flush goes in slices, a turn apart). */
const JOURNAL_SLICE = 400

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
// (seq, world) appended at its end too, scanned whole when a world comes back (a few ms at 100,000 rows; 4 bytes a
// row). Format 5 no longer keeps it by a trigger on each insert: it is brought up to date in bulk (INDEX_WORLDS,
// state-writer.ts), and a world's rows past it are read from `records` itself (`WORLD_ROWS`); a delete still
// removes its row by trigger. A journal row's call entries keep their bodies as the text they are, not escaped
// again into JSON (journal.ts, `journalText`).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS worlds(id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, scenario TEXT NOT NULL,
  value TEXT NOT NULL, UNIQUE(tenant, scenario));
CREATE TABLE IF NOT EXISTS records(seq INTEGER PRIMARY KEY, world INTEGER NOT NULL, tbl TEXT NOT NULL,
  key TEXT NOT NULL, value TEXT NOT NULL, previous TEXT);
CREATE TABLE IF NOT EXISTS record_worlds(seq INTEGER PRIMARY KEY, world INTEGER NOT NULL);
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
function rowKey(text: string): string {
  return text.charCodeAt(0) === 1 ? Buffer.from(text.slice(1), 'hex').toString('utf8') : text
}

/**
 * Every row of one world (its id given twice) in one text, in seq order: those record_worlds names, then those
 * appended since it was last brought up to date (INDEX_WORLDS), read from `records` past its last seq.
 */
const WORLD_ROWS = `SELECT group_concat(seq || char(31) || tbl || char(31) || ${SAFE_KEY} || char(31) || value, char(30)) AS rows FROM (
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

/** One Table or Map of one world as --state-dir writes it: each key's row, and the changes not committed yet. */
interface Slot {
  world: World
  tbl: string
  /** key -> the seq (rowid) of its row */
  readonly rows: Map<string, number>
  /** key -> what to write (undefined: deleted), the changes since the last commit */
  pending: Map<string, unknown>
}

/** Observes a Map: every set and delete is reported (its values are what --state-dir writes). */
function observeMap(map: Map<unknown, unknown>, changed: (key: string, value: unknown) => void): void {
  const { set, delete: remove, clear } = Map.prototype
  map.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    set.call(this, key, value)
    changed(String(key), value)
    return this
  }
  map.delete = function (this: Map<unknown, unknown>, key: unknown) {
    const had = remove.call(this, key)
    if (had) changed(String(key), undefined)
    return had
  }
  map.clear = function (this: Map<unknown, unknown>) {
    for (const key of this.keys()) changed(String(key), undefined)
    clear.call(this)
  }
}

/** The state dir of one sandbox: load once at start, then write each change as it happens until stopped. */
export class StateDir {
  readonly #dir: string
  readonly #shared: SandboxState
  readonly #supervisors: ReadonlyMap<string, ChainSupervisor>
  readonly #embedded: ReadonlySet<string>
  #db: Database.Database
  readonly #writer: StateWriter
  /** writes that are not changes of records (a reset's deletes), sent first in the next batch */
  #ops: WriteOp[] = []
  readonly #path: string
  /** what was found damaged in state.db, and its rebuild */
  readonly #damage: StateDamage
  /** each world's Tables and Maps, by `<state>.<field>` */
  readonly #slots = new WeakMap<World, Map<string, Slot>>()
  /** slots with changes not committed yet */
  #dirty = new Set<Slot>()
  /** the last seq given to a record's row */
  #lastSeq = 0
  /** each world's id (the worlds table's), by tenant and scenario; a reset forgets it, a new world takes a new one */
  readonly #worldIds = new Map<string, number>()
  #lastWorldId = 0
  /** worlds dropped or reset: what they still change is not written */
  readonly #forgotten = new WeakSet<World>()
  #dirtyWorlds = new Set<World>()
  /** worlds whose seed has not finished: their meta is written again once it has */
  readonly #unseeded = new Set<World>()
  #journalRows: [string, JournalEntry][] = []
  #journalTimer: NodeJS.Timeout | undefined
  /** a flush's entries not appended yet, by key: appended a few keys at a time, a turn apart (`#appendJournal`) */
  #journalQueued = new Map<string, JournalEntry[]>()
  #journalSlice: NodeJS.Immediate | undefined
  /** record_worlds is brought up to date after this flush's entries */
  #indexPending = false
  /** records were appended since record_worlds was last brought up to date (with the next journal append) */
  #unindexed = false
  #sharedRows = new Map<string, [kind: string, key: string, value: unknown]>()
  /** the keys' scenario choices changed since they were last written */
  #selectionsDirty = false
  /** the webhook registry changed since it was last written */
  #webhooksDirty = false
  #deliveries = new Set<string>()
  /** the batch being gathered: committed after this event-loop turn and the next */
  #batch: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | null = null
  /** set while records are put back (their inserts are not changes) */
  #loading = false
  readonly #lastChain = new Map<string, string>()
  /** journal entries appended per key since its rows were last trimmed */
  readonly #journalAppended = new Map<string, number>()
  /** keys whose saved state could not be read: they answer 503 with the reason */
  readonly broken = new Map<string, string>()
  #closed = false
  /** worlds being put back (their timers resume once their records are in) */
  readonly #filling = new Map<World, Promise<void>>()

  constructor(dir: string, shared: SandboxState, embedded: ReadonlySet<string>) {
    this.#dir = dir
    this.#shared = shared
    this.#supervisors = shared.supervisors
    this.#embedded = embedded
    mkdirSync(dir, { recursive: true })
    this.#path = join(dir, 'state.db')
    this.#damage = new StateDamage(this.#path, shared.log)
    this.#db = this.#open()
    this.#writer = new StateWriter(this.#path)
    const tenants = shared.tenants
    tenants.setStateObserver((world, name, state) => this.#observe(world, name, state))
    tenants.onCreate((world) => {
      world.clock.onAdvance(() => this.#touchWorld(world))
      this.#touchWorld(world)
    })
    // worlds past --max-worlds stay in the database and come back on their next use; a reset forgets them there too
    tenants.onDrop((world, reason) => {
      if (reason !== 'evict') this.#forgotten.add(world)
      if (reason === 'drop') this.#forgetWorld(world.tenant, world.scenario)
    })
    tenants.onReset((tenant) => this.#forgetTenant(tenant))
    tenants.setReviver((world) => this.#revive(world))
    tenants.setCommitScope((run) => this.#oneCommit(run))
    tenants.setSavedScenarios((tenant) => this.#savedScenarios(tenant))
    // the scenario choices and webhooks are written whole, when they changed (each registry says so)
    shared.scenarios.onSelect(() => {
      if (this.#loading) return
      this.#selectionsDirty = true
      this.#schedule()
    })
    shared.webhooks.registry.onChange(() => {
      if (this.#loading) return
      this.#webhooksDirty = true
      this.#schedule()
    })
    const directory = shared.directory
    for (const [kind, map] of [
      ['directory.clientIds', directory.clientIdToTenant],
      ['directory.sessions', directory.sessionToTenant],
      ['directory.pageTokens', directory.pageTokenToPayer],
      ['directory.onboardingTokens', directory.onboardingTokenToWorld],
      ['directory.securePaymentTokens', directory.securePaymentTokenToWorld],
    ] as const)
      observeMap(map as Map<unknown, unknown>, (key, value) => this.#sharedChanged(kind, key, value))
    // each new saved state of an embedded chain is written at once (receipts wait for it: see LiveChain.keepBlock)
    for (const network of embedded)
      this.#supervisors.get(network)?.onSave(() => (this.#closed ? undefined : this.#saveChains()))
    shared.journal.tap((tenant, entry) => {
      if (this.#loading) return
      this.#journalRows.push([tenant, entry])
      // the journal is history, not what an answer reports: appended every 200 ms, off the answers' path
      this.#journalTimer ??= setTimeout(() => this.#flushJournal(), 200).unref()
      if (entry.type === 'delivery') {
        this.#deliveries.add(`${tenant}\u0000${entry.deliveryId}`)
        this.#schedule()
      }
    })
  }

  /**
   * Opens state.db. One whose pages are damaged is rebuilt from what can be read (`salvage`); one that is not a
   * database, or whose schema cannot be read, is moved aside (kept) and a new one started.
   */
  #open(): Database.Database {
    try {
      // opening reads the header and the schema (a file that is not a database fails here); what a start reads whole
      // is read once more (`damageOf`), not every page (seconds at 100,000 requests): a key's damaged records fail
      // the read of its world, which marks the file for a rebuild at the next start
      const short = cutShort(this.#path)
      if (short) throw new CutShortError(short)
      const db = openStateDb(this.#path)
      db.prepare("SELECT value FROM meta WHERE key = 'format'").get()
      const damage = damageOf(db)
      if (damage === undefined) return db
      db.close()
      throw damage
    } catch (error) {
      if (!existsSync(this.#path)) throw error
      // only a file that is not a database (or is damaged) goes aside: any other failure (a rewrite of an earlier
      // format that failed, rolled back whole; the file locked or unwritable) stops the start, the file untouched
      const code = (error as { code?: unknown }).code
      if (!(error instanceof CutShortError) && code !== 'SQLITE_NOTADB' && !isDamage(error))
        throw new Error(
          `--state-dir: ${this.#path} could not be opened (${errorText(error)}); it is left as it is: fix the cause and start again`,
          { cause: error },
        )
      if (!(error instanceof CutShortError) && code !== 'SQLITE_NOTADB' && this.#damage.salvage(error))
        return openStateDb(this.#path)
      const aside = corruptName(this.#path)
      for (const suffix of ['', '-wal', '-shm'])
        if (existsSync(this.#path + suffix)) renameSync(this.#path + suffix, aside + suffix)
      this.#shared.log(
        `--state-dir: ${this.#path} could not be read (${(error as Error).message}); it is kept as ${aside} and the sandbox starts with an empty state. Restore a copy of the file to get it back.`,
      )
      return openStateDb(this.#path)
    }
  }

  /** Starts observing a resource state a world just created: its Tables and Maps report each change. */
  #observe(world: World, name: string, state: unknown): void {
    for (const [field, value] of Object.entries(state as Record<string, unknown>)) {
      // a derived map is rebuilt from the records it follows, never written
      if (!(value instanceof Table || value instanceof Map) || value instanceof DerivedMap) continue
      const tbl = `${name}.${field}`
      let slots = this.#slots.get(world)
      if (!slots) {
        slots = new Map()
        this.#slots.set(world, slots)
      }
      const slot: Slot = { world, tbl, rows: new Map(), pending: new Map() }
      slots.set(tbl, slot)
      if (value instanceof Table) value.observe((key, record) => this.#changed(slot, key, record))
      else observeMap(value, (key, v) => this.#changed(slot, key, v))
    }
  }

  #changed(slot: Slot, key: string, value: unknown): void {
    if (this.#loading) return
    slot.pending.set(key, value)
    this.#dirty.add(slot)
    // the world's own settings are written when they change (creation, clock), not with each record
    this.#schedule()
  }

  /** The id of a world's row (given now to a world never written). */
  #worldId(world: World): number {
    const name = `${world.tenant}\u0000${world.scenario}`
    let id = this.#worldIds.get(name)
    if (id === undefined) {
      id = ++this.#lastWorldId
      this.#worldIds.set(name, id)
    }
    return id
  }

  #touchWorld(world: World): void {
    if (this.#loading) return
    this.#dirtyWorlds.add(world)
    this.#schedule()
  }

  #sharedChanged(kind: string, key: string, value: unknown): void {
    if (this.#loading) return
    this.#sharedRows.set(`${kind}\u0000${key}`, [kind, key, value])
    this.#schedule()
  }

  /** Gathers the changes of this turn into one batch, committed once the turn's calls have made theirs. */
  #schedule(): void {
    if (this.#batch || this.#closed) return
    let resolve!: () => void
    let reject!: (error: unknown) => void
    const promise = new Promise<void>((res, rej) => {
      resolve = res
      reject = rej
    })
    // a batch nobody awaits must not become an unhandled rejection (the failure is logged)
    promise.catch(() => {})
    this.#batch = { promise, resolve, reject }
    // committed after the next two turns' calls too (immediates that set another: the loop polls in between without
    // waiting), so a commit holds the changes of three turns: under creates at concurrency 32 the main thread's CPU
    // per create fell from ~59 to ~50 µs going from one turn to two (fewer commits, fewer pages rewritten, the answers
    // of two turns written together; p50 latency did not grow, 1.6 -> 1.3-1.4 ms), and its idle time fell going from
    // two to three (`npm run bench -- state`: 0.86x, 0.84x -> 0.89x, 0.85x, p99 13-14 -> 12-14 ms)
    setImmediate(() => setImmediate(() => setImmediate(() => this.#commit())))
  }

  /**
   * What an answer waits for before it leaves: the commit of every change made so far (undefined when none is
   * pending). Every change schedules its batch as it happens (the scenario choices and webhooks too: their
   * registries say when they changed), whatever the call's `method`.
   */
  barrier(_method: string): Promise<void> | undefined {
    // a batch that failed waits in #ops for the next one: an answer (a read too) reports it only once it is written
    if (!this.#batch && this.#ops.length) this.#schedule()
    return this.#batch?.promise
  }

  #commit(): void {
    // inside #oneCommit: what would be committed now goes with the rest of its changes
    if (this.#holding) return
    const batch = this.#batch
    if (!batch) return
    this.#batch = null
    let ops: WriteOp[]
    try {
      ops = this.#collect()
    } catch (error) {
      this.#shared.log(`--state-dir: writing ${this.#path} failed`, error)
      batch.reject(error)
      return
    }
    if (!ops.length) {
      batch.resolve()
      return
    }
    try {
      this.#writer.commit(ops)
    } catch (error) {
      // the batch is written again with the next one, first (its calls answer 503; the next answer, a read too,
      // waits for it: barrier), and before a world is read back (revive): its rows' seqs, its worlds' ids and its
      // deletes are already taken for written in memory, so a later change of the same key (an update of a seq, a
      // record of a world whose row this batch held) must not reach the file without it
      this.#ops = ops.concat(this.#ops)
      // what this batch held of the scenario choices and webhooks goes again with the next one
      this.#selectionsDirty = true
      this.#webhooksDirty = true
      this.#shared.log(`--state-dir: writing ${this.#path} failed`, error)
      batch.reject(error)
      return
    }
    batch.resolve()
  }

  /** set inside #oneCommit: no commit takes part of its changes */
  #holding = 0

  /**
   * Runs `run` (synchronous) so that every change it makes is committed in one transaction, after what was pending
   * before: a kill shows all of them or none (a snapshot's restore: the key's reset and its refill). Nothing in `run`
   * reads another key's world back from the file (the reset key's worlds have no rows left to read).
   */
  #oneCommit<T>(run: () => T): T {
    if (!this.#batch && this.#ops.length) this.#schedule()
    this.#commit()
    this.#holding++
    try {
      return run()
    } finally {
      this.#holding--
      this.#schedule()
      this.#commit()
    }
  }

  /** The scenarios of a key's worlds that have rows in state.db (evicted, or not back yet after a restart). */
  #savedScenarios(tenant: string): string[] {
    const scenarios: string[] = []
    for (const name of this.#worldIds.keys()) {
      const at = name.indexOf('\u0000')
      if (name.slice(0, at) === tenant) scenarios.push(name.slice(at + 1))
    }
    return scenarios
  }

  /** The writes of the gathered changes (serialised here; committed in one transaction by the writer). */
  #collect(): WriteOp[] {
    const ops = this.#ops
    this.#ops = []
    const dirty = this.#dirty
    const worlds = this.#dirtyWorlds
    const sharedRows = this.#sharedRows
    const deliveries = this.#deliveries
    const selections = this.#selectionsDirty
    const webhooks = this.#webhooksDirty
    this.#dirty = new Set()
    this.#dirtyWorlds = new Set()
    this.#sharedRows = new Map()
    this.#deliveries = new Set()
    this.#selectionsDirty = false
    this.#webhooksDirty = false
    const shared = this.#shared
    const log = shared.log
    const text = (value: unknown, what: string): string | undefined => {
      try {
        return JSON.stringify(value)
      } catch (error) {
        log(`--state-dir: ${what} could not be written (kept in memory only)`, error)
        return undefined
      }
    }
    // the world's row first: a world's records are never written without it (one that has no id yet has no row)
    for (const { world } of dirty)
      if (!this.#forgotten.has(world) && !this.#worldIds.has(`${world.tenant}\u0000${world.scenario}`))
        worlds.add(world)
    for (const world of this.#unseeded) worlds.add(world)
    for (const world of worlds) {
      // a world dropped meanwhile (reset) is not written back; one evicted a moment ago still is
      if (this.#forgotten.has(world)) continue
      const seeded = shared.scenarios.seededIds(world) as Record<string, unknown> | undefined
      if (seeded) this.#unseeded.delete(world)
      else this.#unseeded.add(world)
      const meta: SavedWorldMeta = {
        clockOffsetMs: world.clock.now().getTime() - Date.now(),
        rules: world.rules,
        seeded: seeded ?? null,
      }
      const json = text(meta, 'a world')
      if (json !== undefined) ops.push(['world', this.#worldId(world), world.tenant, world.scenario, json])
    }
    for (const slot of dirty) {
      const { rows, pending, tbl } = slot
      slot.pending = new Map()
      if (this.#forgotten.has(slot.world)) continue
      let worldId: number | undefined
      for (const [key, value] of pending) {
        const seq = rows.get(key)
        if (value === undefined) {
          if (seq === undefined) continue
          rows.delete(key)
          ops.push(['remove', seq])
          continue
        }
        const json = text(value, `record ${tbl} ${key}`)
        if (json === undefined) continue
        if (seq !== undefined) ops.push(['update', json, seq])
        else {
          const next = ++this.#lastSeq
          rows.set(key, next)
          worldId ??= this.#worldId(slot.world)
          ops.push(['insert', next, worldId, tbl, key, json])
          if (!this.#unindexed) {
            this.#unindexed = true
            this.#journalTimer ??= setTimeout(() => this.#flushJournal(), 200).unref()
          }
        }
      }
    }
    for (const [kind, key, value] of sharedRows.values()) {
      if (value === undefined) ops.push(['sharedRemove', kind, key])
      else {
        const json = text(value, `${kind} ${key}`)
        if (json !== undefined) ops.push(['shared', kind, key, json])
      }
    }
    for (const id of deliveries) {
      const [tenant, deliveryId] = id.split('\u0000') as [string, string]
      const record = shared.webhooks.record(tenant, deliveryId)
      const json = record && text(record, `delivery ${deliveryId}`)
      if (json !== undefined) ops.push(['shared', 'delivery', id, json])
    }
    // written whole when they changed (a batch that held them and failed marks them again)
    if (selections)
      ops.push(['shared', 'globals', 'selections', JSON.stringify(shared.scenarios.selections())])
    if (webhooks)
      ops.push(['shared', 'globals', 'webhooks', JSON.stringify(shared.webhooks.registry.entries())])
    return ops
  }

  /**
   * Takes the journal's new entries (every 200 ms) and appends them, a few keys at a time (`#appendJournal`); `all`:
   * every one of them now (stop).
   */
  #flushJournal(all = false): void {
    this.#journalTimer = undefined
    if (this.#closed) return
    // one row per key and flush, its entries split by U+001E (journalText): a row per entry cost the writer a third
    // of all it did under a burst of creates
    for (const [tenant, entry] of this.#journalRows) {
      const entries = this.#journalQueued.get(tenant)
      if (entries) entries.push(entry)
      else this.#journalQueued.set(tenant, [entry])
    }
    this.#journalRows = []
    if (this.#unindexed) {
      this.#unindexed = false
      this.#indexPending = true
    }
    if (all) {
      clearImmediate(this.#journalSlice)
      this.#journalSlice = undefined
      while (this.#journalQueued.size || this.#indexPending)
        if (!this.#appendJournal(Number.POSITIVE_INFINITY)) break
    } else if (this.#journalQueued.size || this.#indexPending)
      this.#journalSlice ??= setImmediate(() => this.#nextJournalSlice())
  }

  #nextJournalSlice(): void {
    this.#journalSlice = undefined
    if (this.#closed) return
    if (!this.#appendJournal(JOURNAL_SLICE)) {
      // tried again with the next flush, not at once (a locked file holds the event loop up to a second a try)
      this.#journalTimer ??= setTimeout(() => this.#flushJournal(), 200).unref()
      return
    }
    if (this.#journalQueued.size || this.#indexPending)
      this.#journalSlice = setImmediate(() => this.#nextJournalSlice())
  }

  /**
   * Appends the pending entries of keys until about `max` entries (one transaction), trims those keys' rows to what
   * the journal keeps, and brings record_worlds up to date (on its own). A whole flush at once held the event loop
   * ~10 ms every 200 ms under creates at concurrency 32, every waiting answer with it; a slice holds it ~1 ms.
   * False when the commit failed (the entries are queued again, first).
   */
  #appendJournal(max: number): boolean {
    const byTenant = new Map<string, string[]>()
    const took = new Map<string, JournalEntry[]>()
    let taken = 0
    for (const [tenant, entries] of this.#journalQueued) {
      if (taken >= max) break
      this.#journalQueued.delete(tenant)
      took.set(tenant, entries)
      taken += entries.length
      const texts: string[] = []
      byTenant.set(tenant, texts)
      for (const entry of entries) {
        try {
          texts.push(journalText(entry))
        } catch (error) {
          this.#shared.log('--state-dir: a journal entry could not be written (kept in memory only)', error)
        }
      }
    }
    const index = !byTenant.size && this.#indexPending
    if (index) this.#indexPending = false
    if (!byTenant.size && !index) return true
    const ops: WriteOp[] = []
    for (const [tenant, texts] of byTenant)
      if (texts.length) ops.push(['journal', tenant, texts.join('\u001e'), texts.length])
    // the journal's rows are bounded as the journal is: a key keeps the newest rows holding as many entries as it
    // has in memory (trimmed after each 500 entries of the key: a trim reads the key's rows)
    for (const [tenant, texts] of byTenant) {
      const appended = (this.#journalAppended.get(tenant) ?? 0) + texts.length
      if (appended < 500) this.#journalAppended.set(tenant, appended)
      else {
        this.#journalAppended.delete(tenant)
        ops.push(['journalTrim', tenant, tenant, this.#shared.journal.count(tenant)])
      }
    }
    if (index) ops.push(['indexWorlds'])
    try {
      this.#writer.commit(ops)
    } catch (error) {
      // the records' index goes with the next append (a world's rows past it are read from records meanwhile)
      if (index) this.#unindexed = true
      // the entries too, before those queued since
      for (const [tenant, entries] of this.#journalQueued) {
        const before = took.get(tenant)
        if (before) before.push(...entries)
        else took.set(tenant, entries)
      }
      this.#journalQueued = took
      this.#shared.log(`--state-dir: appending the journal to ${this.#path} failed`, error)
      return false
    }
    return true
  }

  /** Writes each embedded chain's anvil state when its supervisor saved a new one; resolves once committed. */
  #saveChains(): Promise<void> | undefined {
    for (const network of this.#embedded) {
      const state = this.#supervisors.get(network)?.savedState()
      if (state && state !== this.#lastChain.get(network)) {
        this.#ops.push(['chain', network, state, new Date().toISOString()])
        this.#lastChain.set(network, state)
        this.#schedule()
      }
    }
    return this.#batch?.promise
  }

  #forgetWorld(tenant: string, scenario: string): void {
    const name = `${tenant}\u0000${scenario}`
    const id = this.#worldIds.get(name)
    for (const slot of this.#dirty)
      if (slot.world.tenant === tenant && slot.world.scenario === scenario) this.#forgotten.add(slot.world)
    if (id === undefined) return
    this.#worldIds.delete(name)
    this.#ops.push(['indexWorlds'], ['forgetWorldRecords', id], ['forgetWorld', id])
    this.#schedule()
  }

  #forgetTenant(tenant: string): void {
    // its worlds are in #forgotten (Tenants.reset dropped them first; an evicted one with changes is added here):
    // what they still change is not written
    for (const slot of this.#dirty) if (slot.world.tenant === tenant) this.#forgotten.add(slot.world)
    for (const name of this.#worldIds.keys())
      if (name.slice(0, name.indexOf('\u0000')) === tenant) this.#worldIds.delete(name)
    this.#journalRows = this.#journalRows.filter(([t]) => t !== tenant)
    this.#journalQueued.delete(tenant)
    this.#ops.push(
      ['indexWorlds'],
      // a key whose records are in a damaged page: those rows are left (no world names them; the rebuild drops them)
      ...(this.#damage.tenants.delete(tenant) ? [] : [['forgetRecords', tenant] as WriteOp]),
      ['forgetWorlds', tenant],
      ['forgetJournal', tenant],
      ['sharedRemove', 'broken', tenant],
    )
    this.#schedule()
    // committed now (inside a snapshot's restore, #oneCommit, with its refill instead: the key's worlds have no
    // ids left to be read back by)
    this.#commit()
    // a reset starts the key afresh: what could not be read stays in quarantine, the key works again
    this.broken.delete(tenant)
    // what the key had on disk is not brought back after the restart (the reset's deletes may not be committed yet)
    this.#unrevived.delete(tenant)
    this.#journalPending.delete(tenant)
    this.#journalAppended.delete(tenant)
  }

  /** Brings an evicted world back from the database (synchronously, inside Tenants.get). */
  #revive(world: World): boolean {
    // its settings are read, not written (onCreate marked the new world's, with a clock not moved yet)
    this.#dirtyWorlds.delete(world)
    // the changes of this turn get their rows (a world evicted a moment ago has its id then)
    // (and a batch that failed: the rows it holds are read below)
    if (!this.#batch && this.#ops.length) this.#schedule()
    if (this.#batch) this.#commit()
    const id = this.#worldIds.get(`${world.tenant}\u0000${world.scenario}`)
    if (id === undefined) {
      // a key never written: nothing to read; its settings are written
      this.#touchWorld(world)
      return false
    }
    const row = this.#readable(
      `the settings of a world of key ${keyLabel(world.tenant)}`,
      () =>
        this.#db.prepare('SELECT value FROM worlds WHERE id = ?').get(id) as { value: string } | undefined,
      undefined,
    )
    if (!row) {
      this.#touchWorld(world)
      return false
    }
    const filled = this.#fill(world, id, row.value).catch((error) =>
      this.#shared.log('--state-dir: a world came back incomplete', error),
    )
    this.#filling.set(world, filled)
    void filled.then(() => this.#filling.delete(world))
    return true
  }

  /** Puts a world's rows back into it; records that cannot be read stop only this key. */
  #fill(world: World, id: number, metaText: string): Promise<void> {
    const shared = this.#shared
    // every row of the world in one text (the driver costs ~20-50 µs per row it returns): fields split by U+001F,
    // rows by U+001E, which JSON.stringify never writes raw; no JSON functions (they would escape each value again)
    let packed: { rows: string | null } | undefined
    try {
      packed = this.#db.prepare(WORLD_ROWS).get(id, id) as { rows: string | null } | undefined
    } catch (error) {
      this.broken.set(world.tenant, this.#damage.world(this.#db, world, error))
      return Promise.resolve()
    }
    const text = packed?.rows ?? ''
    const definitions = new Map(declaredStates().map((d) => [d.name, d]))
    const fields = new Map<string, unknown>()
    const field = (key: string): unknown => {
      if (fields.has(key)) return fields.get(key)
      const dot = key.lastIndexOf('.')
      const definition = definitions.get(key.slice(0, dot))
      const target = definition
        ? (world.state(definition) as Record<string, unknown>)[key.slice(dot + 1)]
        : undefined
      fields.set(key, target)
      return target
    }
    const quarantine = (row: { seq: number; tbl: string; key: string; value: string }, reason: string) =>
      this.#quarantine(world, { ...row, previous: this.#previous(row.seq) }, reason)
    const slots = this.#slots
    let meta: SavedWorldMeta
    this.#loading = true
    try {
      try {
        meta = JSON.parse(metaText) as SavedWorldMeta
        if (!meta || typeof meta !== 'object') throw new Error('not an object')
      } catch (error) {
        this.#quarantine(
          world,
          { seq: null, tbl: 'world', key: '', value: metaText, previous: null },
          `its settings are not JSON (${(error as Error).message})`,
        )
        meta = { clockOffsetMs: 0, rules: world.rules, seeded: null }
      }
      if (meta.rules && typeof meta.rules === 'object') world.rules = meta.rules
      let at = 0
      while (at < text.length) {
        let end = text.indexOf('\u001e', at)
        if (end === -1) end = text.length
        const zero = text.indexOf('\u001f', at)
        const first = zero === -1 ? -1 : text.indexOf('\u001f', zero + 1)
        const second = first === -1 ? -1 : text.indexOf('\u001f', first + 1)
        if (second === -1 || second > end) {
          // a row written by hand with the separators in it: the rest of this row is not readable
          at = end + 1
          continue
        }
        const seq = Number(text.slice(at, zero))
        const row = {
          seq,
          tbl: text.slice(zero + 1, first),
          key: rowKey(text.slice(first + 1, second)),
          value: text.slice(second + 1, end),
        }
        at = end + 1
        const target = field(row.tbl)
        // a derived map's rows (a state dir of an earlier version): it is rebuilt below
        if (target instanceof DerivedMap) continue
        // the row this key has (its changes update it); one that cannot be read is moved to quarantine below
        const slot = slots.get(world)?.get(row.tbl)
        let value: unknown
        try {
          value = JSON.parse(row.value)
        } catch (error) {
          quarantine(row, `not JSON (${(error as Error).message})`)
          continue
        }
        if (target instanceof Table) {
          // validated again (a row edited by hand is refused), synchronously: no promise per row
          try {
            target.restore(value)
            slot?.rows.set(row.key, seq)
          } catch (error) {
            quarantine(row, `refused by its schema (${errorText(error)})`)
          }
        } else if (target instanceof Map) {
          target.set(row.key, value)
          slot?.rows.set(row.key, seq)
        }
      }
      const requests = requestState(world)
      for (const request of requests.requests.all()) {
        requests.requestsByReference.set(request.paymentReference, request.requestId)
        shared.paymentReferences.add(request.paymentReference, world, request.requestId)
      }
      shared.scenarios.markSeeded(world, (meta.seeded ?? {}) as never)
    } finally {
      this.#loading = false
    }
    // the world's secure payment tokens named in the directory (written: a state dir of an earlier version has none)
    indexSecurePaymentTokens(shared.directory, world)
    // advance moves the clock at once; what falls due runs after
    const offset = Number(meta.clockOffsetMs) || 0
    const advanced = offset > 1000 ? world.clock.advance(offset) : Promise.resolve()
    return advanced.then(() => resumeTimers(world, shared))
  }

  /**
   * `read()`, or `fallback` when the file's pages it needs are damaged (a file cut short or overwritten that still
   * opened): logged naming the file, the sandbox starts with what it could read.
   */
  #readable<T>(what: string, read: () => T, fallback: T): T {
    try {
      return read()
    } catch (error) {
      this.#damage.keepCopy()
      this.#shared.log(
        `--state-dir: ${this.#path}: ${what} could not be read (${errorText(error)}); left out. Restore a copy of the file and restart the sandbox to get it back.`,
      )
      return fallback
    }
  }

  /** The last good copy a record's row keeps (read only for a row that cannot be read back). */
  #previous(seq: number): string | null {
    const row = this.#db.prepare('SELECT previous FROM records WHERE seq = ?').get(seq) as
      | { previous: string | null }
      | undefined
    return row?.previous ?? null
  }

  #quarantine(
    world: World,
    row: { seq: number | null; tbl: string; key: string; value: string; previous: string | null },
    reason: string,
  ): void {
    const what = `record ${row.tbl} ${row.key || '(world settings)'} of a key (scenario ${world.scenario})`
    this.#db
      .prepare(
        'INSERT INTO quarantine(at, source, tenant, scenario, tbl, key, value, previous, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        new Date().toISOString(),
        this.#path,
        world.tenant,
        world.scenario,
        row.tbl,
        row.key,
        row.value,
        row.previous,
        reason,
      )
    if (row.seq !== null) this.#db.prepare('DELETE FROM records WHERE seq = ?').run(row.seq)
    const message = `The saved state of this API key could not be read: ${what} in ${this.#path} is ${reason}. It was moved, with its last good copy (column previous), to the quarantine table of that file. Reset the key (POST /__sandbox/reset) to start it afresh, or put a good record back with a SQLite client, delete the key's row of kind 'broken' in the shared table, and restart the sandbox.`
    this.broken.set(world.tenant, message)
    // kept: the row is out of records, so a restart would otherwise bring the key back without it, silently
    this.#db
      .prepare(
        'INSERT INTO shared(kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value',
      )
      .run('broken', world.tenant, JSON.stringify(message))
    this.#shared.log(
      `--state-dir: ${this.#path}: ${what} is ${reason}; key ${keyLabel(world.tenant)} answers 503 until it is reset`,
    )
  }

  /** Loads what a previous run saved (nothing when the dir is new); imports a state dir of the previous version. */
  async load(): Promise<{ worlds: number } | null> {
    const db = this.#db
    const format = db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as
      | { value: string }
      | undefined
    if (format && Number(format.value) !== DB_FORMAT)
      throw new Error(
        `--state-dir ${this.#dir} holds state.db format ${format.value}; this version of request-sandbox reads format ${DB_FORMAT}: start with an empty --state-dir, or move this one away`,
      )
    if (!format) {
      // a state dir of the previous version is imported in one transaction with the format mark; its files are
      // then renamed *.imported (kept, never read again)
      db.exec('BEGIN')
      let imported: string[]
      try {
        imported = importLegacyStateDir(this.#dir, db, this.#shared.log)
        db.prepare("INSERT INTO meta(key, value) VALUES ('format', ?)").run(String(DB_FORMAT))
        db.exec('COMMIT')
      } catch (error) {
        db.exec('ROLLBACK')
        throw error
      }
      for (const file of imported) renameSync(file, `${file}.imported`)
    }
    const shared = this.#shared
    for (const network of this.#embedded) {
      const row = db.prepare('SELECT state, previous FROM chains WHERE network = ?').get(network) as
        | { state: string; previous: string | null }
        | undefined
      if (!row) continue
      try {
        await this.#supervisors.get(network)!.restore(row.state)
      } catch (error) {
        shared.log(
          `--state-dir: the saved state of chain ${network} in ${this.#path} could not be loaded (${errorText(error)}); trying its previous copy`,
        )
        if (row.previous) await this.#supervisors.get(network)!.restore(row.previous)
      }
      this.#lastChain.set(network, row.state)
    }
    this.#loading = true
    try {
      const rows = this.#readable(
        'the shared rows (client IDs, sessions, webhooks, deliveries)',
        () =>
          db.prepare('SELECT kind, key, value FROM shared').all() as {
            kind: string
            key: string
            value: string
          }[],
        [],
      )
      const deliveries: DeliveryRecord[] = []
      for (const { kind, key, value } of rows) {
        let parsed: unknown
        try {
          parsed = JSON.parse(value)
        } catch {
          shared.log(`--state-dir: ${this.#path}: ${kind} ${key} is not JSON; it is left out`)
          continue
        }
        if (kind === 'globals' && key === 'selections') {
          for (const [tenant, name] of parsed as [string, string][]) {
            try {
              shared.scenarios.select(tenant, name)
            } catch {
              shared.log(
                `--state-dir: scenario ${name} of a key is no longer known; the key runs in the default one`,
              )
            }
          }
        } else if (kind === 'globals' && key === 'webhooks')
          shared.webhooks.registry.restore(parsed as ReturnType<WebhookRegistry['entries']>)
        else if (kind === 'directory.clientIds') shared.directory.clientIdToTenant.set(key, parsed as never)
        else if (kind === 'directory.sessions') shared.directory.sessionToTenant.set(key, parsed as never)
        else if (kind === 'directory.pageTokens') shared.directory.pageTokenToPayer.set(key, parsed as never)
        else if (kind === 'directory.onboardingTokens')
          shared.directory.onboardingTokenToWorld.set(key, parsed as never)
        else if (kind === 'directory.securePaymentTokens')
          shared.directory.securePaymentTokenToWorld.set(key, parsed as never)
        else if (kind === 'delivery') deliveries.push(parsed as DeliveryRecord)
        // a key with a record in quarantine stays stopped across restarts (until it is reset)
        else if (kind === 'broken' && typeof parsed === 'string') this.broken.set(key, parsed)
      }
      // each key's journal comes back with its worlds (below): only the keys that have one are read now
      const journalTenants = this.#readable(
        'the journal',
        () => db.prepare('SELECT DISTINCT tenant FROM journal').all() as { tenant: string }[],
        [],
      )
      for (const { tenant } of journalTenants) {
        this.#journalPending.add(tenant)
        this.#unrevived.set(tenant, [])
      }
      this.#loading = false
      const worlds = this.#readable(
        'the worlds (every key)',
        () =>
          db.prepare('SELECT id, tenant, scenario FROM worlds ORDER BY id').all() as {
            id: number
            tenant: string
            scenario: string
          }[],
        [],
      )
      for (const { id, tenant, scenario } of worlds) {
        this.#worldIds.set(`${tenant}\u0000${scenario}`, id)
        this.#lastWorldId = Math.max(this.#lastWorldId, id)
      }
      this.#lastWorldId = Math.max(
        this.#lastWorldId,
        this.#readable('the worlds', () => maxOf(db, 'worlds', 'id'), 0),
      )
      this.#lastSeq = this.#readable('the records', () => maxOf(db, 'records', 'seq'), 0)
      // each key's deliveries come back with its worlds (their retries read the world's clock; a call listing them
      // brings them back with the key's worlds); the rest once every world is back
      deliveries.sort((a, b) => String(a.id).localeCompare(String(b.id)))
      for (const record of deliveries) {
        const mine = this.#savedDeliveries.get(record.tenant)
        if (mine) mine.push(record)
        else this.#savedDeliveries.set(record.tenant, [record])
      }
      // the worlds come back after the start, one at a time between calls (a call brings its own back at once;
      // anything that reads every world brings all of them back first; payment matching waits for them: complete())
      for (const { tenant, scenario } of worlds) {
        const scenarios = this.#unrevived.get(tenant)
        if (scenarios) scenarios.push(scenario)
        else this.#unrevived.set(tenant, [scenario])
      }
      shared.tenants.setBeforeAll(() => this.#reviveRest())
      this.#background = this.#reviveInBackground()
      // the payment detector's scans wait for every world (its requests, and the proxies a key installed)
      shared.paymentReferences.setComplete(this.#background)
      return { worlds: worlds.length }
    } finally {
      this.#loading = false
    }
  }

  /** saved worlds not brought back yet: each key's scenarios, in the order they were first written */
  readonly #unrevived = new Map<string, string[]>()
  /** keys whose saved journal is not back yet (it comes back with their worlds, before their first call) */
  readonly #journalPending = new Set<string>()
  /** the delivery records of the last run not back yet, by key: a key's come back with its worlds */
  readonly #savedDeliveries = new Map<string, DeliveryRecord[]>()
  #background: Promise<void> = Promise.resolve()
  /** the timers and proxies of the worlds brought back, resuming */
  #resuming: Promise<unknown>[] = []
  #stopping = false
  #revivingRest = false

  /**
   * Brings a key's saved worlds back (unless a call did, or a reset forgot them), synchronously; resolves once their
   * timers have resumed.
   */
  #reviveTenant(tenant: string): Promise<unknown> {
    const scenarios = this.#unrevived.get(tenant)
    if (!scenarios) return Promise.resolve()
    this.#unrevived.delete(tenant)
    if (this.#journalPending.delete(tenant)) this.#reviveJournal(tenant)
    const resumed: (Promise<void> | undefined)[] = []
    for (const scenario of scenarios)
      if (this.#worldIds.has(`${tenant}\u0000${scenario}`))
        resumed.push(this.#filling.get(this.#shared.tenants.get(tenant, scenario)))
    this.#restoreDeliveries(tenant)
    const all = Promise.all(resumed)
    this.#resuming.push(all)
    return all
  }

  /** Puts a key's saved journal back (before anything of this run is recorded for it). */
  #reviveJournal(tenant: string): void {
    // a key's entries in one text (the driver's cost is per row), rows split by U+001E (readJournalText reads an
    // entry's raw bodies by their lengths); through the journal_tenant index, already in seq order
    const entries = this.#readable(
      `the journal of key ${keyLabel(tenant)}`,
      () =>
        (
          this.#db
            .prepare(
              'SELECT group_concat(entry, char(30)) AS entries FROM (SELECT entry FROM journal WHERE tenant = ? ORDER BY seq)',
            )
            .get(tenant) as { entries: string | null } | undefined
        )?.entries,
      undefined,
    )
    if (!entries) return
    // an entry that cannot be read is only history: left out
    const list = readJournalText(entries)
    const loading = this.#loading
    this.#loading = true
    try {
      this.#shared.journal.import([[tenant, list]])
    } finally {
      this.#loading = loading
    }
  }

  async #reviveInBackground(): Promise<void> {
    // after the start's own work (the server listening, the first health answer)
    await new Promise((resolve) => setTimeout(resolve, 0))
    while (this.#unrevived.size && !this.#stopping) {
      await this.#reviveTenant(this.#unrevived.keys().next().value as string)
      await new Promise((resolve) => setImmediate(resolve))
    }
    // worlds brought back at once (by a call, or all of them) resume their timers and proxies too
    await Promise.all(this.#resuming)
    this.#resuming = []
    this.#revived()
  }

  /** Every saved world back now, synchronously (their timers resume after). */
  #reviveRest(): void {
    if (this.#revivingRest || !this.#unrevived.size) return
    this.#revivingRest = true
    try {
      while (this.#unrevived.size && !this.#stopping)
        void this.#reviveTenant(this.#unrevived.keys().next().value as string)
    } finally {
      this.#revivingRest = false
    }
    this.#revived()
  }

  #revived(): void {
    if (this.#unrevived.size && !this.#stopping) return
    this.#shared.tenants.setBeforeAll(null)
    for (const tenant of [...this.#savedDeliveries.keys()]) this.#restoreDeliveries(tenant)
  }

  /** Puts a key's saved delivery records back (its pending retries resume), once its worlds are back. */
  #restoreDeliveries(tenant: string): void {
    const deliveries = this.#savedDeliveries.get(tenant)
    if (!deliveries) return
    this.#savedDeliveries.delete(tenant)
    if (!this.#stopping) this.#shared.webhooks.restore(deliveries)
  }

  /** Resolves once every saved world is back in memory (a restart brings them back after it starts serving). */
  revived(): Promise<void> {
    return this.#background
  }

  /** Nothing to start: each change is written as it happens, each saved chain state as the supervisor saves it. */
  start(): void {}

  /** Closes the database without writing anything (a start that failed: its load, or a step after it). */
  async abandon(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#stopping = true
    await this.#background.catch(() => {})
    clearTimeout(this.#journalTimer)
    if (this.#journalSlice) clearImmediate(this.#journalSlice)
    this.#db.close()
    await this.#writer.close()
  }

  /** Commits what is pending and the chains' last states, then closes the database. */
  async stop(): Promise<void> {
    this.#stopping = true
    await this.#background
    for (const network of this.#embedded)
      await this.#supervisors
        .get(network)
        ?.save()
        .catch((e) => this.#shared.log(`--state-dir: the last save of ${network}'s chain state failed`, e))
    clearTimeout(this.#journalTimer)
    this.#flushJournal(true)
    this.#selectionsDirty = true
    this.#webhooksDirty = true
    this.#saveChains()
    this.#schedule()
    const last = this.#batch?.promise
    this.#commit()
    await last?.catch(() => {})
    this.#closed = true
    this.#db.close()
    await this.#writer.close()
  }

  /** A middleware: a key whose saved state could not be read answers 503 saying what to do (until it is reset). */
  readonly guard: Middleware = (call, next) => {
    const tenant = call.caller?.tenant
    // a key's worlds are back before its first call is answered (a record that cannot be read stops it here)
    if (tenant !== undefined && this.#unrevived.size) void this.#reviveTenant(tenant)
    const message = tenant === undefined ? undefined : this.broken.get(tenant)
    if (message === undefined || call.request.path === '/__sandbox/reset') return next()
    return Promise.reject(new SandboxError(503, message))
  }
}

/** The largest value of an integer column (0 for an empty table). */
function maxOf(db: Database.Database, table: string, column: string): number {
  const row = db.prepare(`SELECT max(${column}) AS n FROM ${table}`).get() as { n: number | null }
  return Number(row.n ?? 0)
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300)
}

export async function resumeTimers(world: World, shared: SandboxState): Promise<void> {
  // recurring requests and payouts go on on their clocks, pending KYC reviews are decided (their old timers died
  // with the process), and so are pending payment-detail reviews
  const ctx = inWorld(shared, world)
  // the key's own conversion stack (its rates are in the world's tables; the stack's registration was in memory)
  await restoreWorldRates(ctx)
  for (const schedule of requestState(world).recurringRequests.all())
    await resumeRecurringSchedule(ctx, schedule.requestId)
  // off-ramps under way take their remaining steps at the times they had (the due ones at once, in order)
  for (const request of requestState(world).requests.all()) resumeOfframp(ctx, world, request)
  // payment intents accepted but not settled: settled now, without redoing what the chains already hold
  resumeSettlements(ctx, world)
  for (const payer of payerState(world).payers.all()) await resumeKycReview(ctx, payer)
  for (const detail of paymentDetailState(world).paymentDetails.all()) await resumeDetailReview(ctx, detail)
  const payouts = payoutState(world).recurringPayouts
  for (const payout of payouts.all()) {
    if (payout.status !== 'active') continue
    await payouts.update(payout.id, (draft) => {
      draft.timerId = null
    })
    await scheduleNext(ctx, payout.id, world.clock.now())
  }
}
