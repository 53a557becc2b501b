// The writer of state.db: its own libsql connection commits each batch of writes in one transaction, on the main
// thread, before the answers that report them leave. One batch holds the changes of three event-loop turns: the state
// dir (state-dir.ts) gathers them from the turn of the first change and the next two, then commits (group commit).
// A checkpointer thread copies the WAL into the file beside the commits.
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type Database from 'libsql'

/**
 * One write: the statement's name and its parameters. A record's row is named by its `seq` (the rowid, given by
 * the sandbox: it knows which records are new), so no write looks a key up in an index: a new record is appended
 * at the table's end, whatever order its keys come in.
 */
export type WriteOp =
  | ['insert', seq: number, world: number, tbl: string, key: string, json: string]
  | ['update', json: string, seq: number]
  | ['remove', seq: number]
  | ['world', id: number, tenant: string, scenario: string, json: string]
  | ['shared', kind: string, key: string, json: string]
  | ['sharedRemove', kind: string, key: string]
  | ['journal', tenant: string, json: string, entries: number]
  | ['journalTrim', tenant: string, tenantAgain: string, keep: number]
  | ['chain', network: string, state: string, at: string]
  | ['forgetWorldRecords', world: number]
  | ['forgetWorld', world: number]
  | ['forgetRecords', tenant: string]
  | ['forgetWorlds', tenant: string]
  | ['forgetJournal', tenant: string]
  | ['forgetDeliveries', from: string, to: string]
  | ['indexWorlds']
  | ['meta', key: string, value: string]

/**
 * Adds the records not in `record_worlds` yet (appended since it was last brought up to date) to it. It is not kept
 * by a trigger on each insert (~0.6 µs of the main thread per record, and a page of its own rewritten at every
 * commit): it is brought up to date with each journal append (every 200 ms under load), before any delete that reads
 * it, and when a state.db is opened; a world's rows past it are read from `records` (`worldRows` in state-dir.ts).
 * OR IGNORE: the newest row of record_worlds may have gone (its record deleted), so rows past the new max may be in.
 */
export const INDEX_WORLDS =
  'INSERT OR IGNORE INTO record_worlds(seq, world) SELECT seq, world FROM records WHERE seq > (SELECT coalesce(max(seq), 0) FROM record_worlds)'

/** The statements the writer runs, by name (the names of WriteOp). */
const STATEMENTS: Record<WriteOp[0], string> = {
  insert: 'INSERT INTO records(seq, world, tbl, key, value) VALUES (?, ?, ?, ?, ?)',
  update: 'UPDATE records SET previous = value, value = ? WHERE seq = ?',
  remove: 'DELETE FROM records WHERE seq = ?',
  // REPLACE: a row of the same key under another id (a worlds table the start could not read) gives way too
  world: 'INSERT OR REPLACE INTO worlds(id, tenant, scenario, value) VALUES (?, ?, ?, ?)',
  shared:
    'INSERT INTO shared(kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value',
  sharedRemove: 'DELETE FROM shared WHERE kind = ? AND key = ?',
  journal: 'INSERT INTO journal(tenant, entry, n) VALUES (?, ?, ?)',
  // the rows older than the newest ones that hold `keep` entries
  journalTrim:
    'DELETE FROM journal WHERE tenant = ? AND seq < coalesce((SELECT seq FROM (SELECT seq, sum(n) OVER (ORDER BY seq DESC) AS kept FROM journal WHERE tenant = ?) WHERE kept >= ? ORDER BY seq DESC LIMIT 1), 0)',
  chain:
    'INSERT INTO chains(network, state, saved_at) VALUES (?, ?, ?) ON CONFLICT(network) DO UPDATE SET previous = chains.state, state = excluded.state, saved_at = excluded.saved_at',
  forgetWorldRecords: 'DELETE FROM records WHERE seq IN (SELECT seq FROM record_worlds WHERE world = ?)',
  forgetWorld: 'DELETE FROM worlds WHERE id = ?',
  forgetRecords:
    'DELETE FROM records WHERE seq IN (SELECT seq FROM record_worlds WHERE world IN (SELECT id FROM worlds WHERE tenant = ?))',
  forgetWorlds: 'DELETE FROM worlds WHERE tenant = ?',
  forgetJournal: 'DELETE FROM journal WHERE tenant = ?',
  forgetDeliveries: "DELETE FROM shared WHERE kind = 'delivery' AND key >= ? AND key < ?",
  indexWorlds: INDEX_WORLDS,
  meta: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
}

/** The sizes of the multi-row inserts a run of one insert is cut into. */
const RUN_SIZES = [16, 8, 4, 2] as const

// the checkpointer: its own connection copies what the WAL holds into the database file every 250 ms (PASSIVE: it
// never waits for, nor holds up, the writer's commits; when all is copied the writer's next commit starts the WAL
// again from its beginning). The last connection to close checkpoints what is left.
// Every libsql call goes through the gate (`workerData.gate`: [0] the process is exiting, [1] a call is in flight):
// a thread that Node stops while it is inside a libsql call aborts the whole process (the driver's Rust code panics
// on the first Node-API call that fails in a stopping thread), so the process's exit waits for the call in flight
// and this thread makes no other (StateWriter's exit hook).
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { createRequire } = require('node:module')
const Libsql = createRequire(workerData.from)('libsql')
const gate = new Int32Array(workerData.gate)
/** runs one libsql call unless the process is exiting; false when it did not run */
function call(run) {
  Atomics.store(gate, 1, 1)
  try {
    if (Atomics.load(gate, 0)) return false
    run()
    return true
  } finally {
    Atomics.store(gate, 1, 0)
    Atomics.notify(gate, 1)
  }
}
// a sandbox closed (its dir gone) before this thread started has nothing to checkpoint
let db
try {
  const opened = call(() => {
    db = new Libsql(workerData.path)
    // short: a RESTART that waits for readers holds the writer's commits back meanwhile (on the event loop)
    db.pragma('busy_timeout = 100')
    db.pragma('wal_autocheckpoint = 0')
  })
  if (!opened) process.exit(0)
} catch {
  process.exit(0)
}
const timer = setInterval(() => {
  try {
    call(() => {
      const [done] = db.pragma('wal_checkpoint(PASSIVE)')
      // under steady writes the WAL is never all copied when a commit starts, so it would grow without end: past
      // 16 MB, once a passive round left little to copy, RESTART copies the rest while holding the writer back (a
      // few milliseconds) and the WAL starts again from its beginning
      if (done && done.log > 4000 && done.log - done.checkpointed < 1000) db.pragma('wal_checkpoint(RESTART)')
    })
  } catch {
    // busy or closing: the next turn tries again
  }
}, 250)
parentPort.on('message', (message) => {
  if (message !== 'close') return
  clearInterval(timer)
  call(() => db.close())
  // nothing keeps the thread: it ends on its own (never stopped by terminate())
  parentPort.close()
})
`

/** How long the process's exit waits for a checkpoint in flight (a PASSIVE one of a 16 MB WAL takes far less). */
const EXIT_WAIT_MS = 5_000

/** The writer of one state.db: commits on the calling thread (and its checkpointer thread). */
export class StateWriter {
  readonly #path: string
  #db!: Database.Database
  #statements = new Map<string, Database.Statement>()
  /** runs of one insert go up to 16 rows to a statement (then 8, 4, 2 for what is left): a driver call costs ~3 µs */
  #chunked = new Map<string, Map<number, Database.Statement>>()
  /** the connection failed a commit: opened again before the next one */
  #stale = false
  readonly #checkpointer: Worker
  readonly #checkpointerExited: Promise<unknown>
  /** shared with the checkpointer: [0] the process is exiting, [1] a libsql call of the checkpointer in flight */
  readonly #gate = new Int32Array(new SharedArrayBuffer(8))
  /** on the process's exit: the checkpointer's call in flight ends first, and it makes no other */
  readonly #onExit = () => {
    const gate = this.#gate
    Atomics.store(gate, 0, 1)
    const until = Date.now() + EXIT_WAIT_MS
    while (Atomics.load(gate, 1) === 1 && Date.now() < until) Atomics.wait(gate, 1, 1, 50)
  }
  #closed = false

  constructor(path: string) {
    this.#path = path
    this.#connect()
    this.#checkpointer = new Worker(CHECKPOINTER_SOURCE, {
      eval: true,
      workerData: { path, from: import.meta.url, gate: this.#gate.buffer },
    })
    // the process may end without close() (an uncaught error, process.exit elsewhere): Node then stops the thread
    process.on('exit', this.#onExit)
    this.#checkpointer.unref()
    this.#checkpointerExited = new Promise((resolve) => this.#checkpointer.once('exit', resolve))
    // it only copies what is committed: should it fail, commits still are durable (the last close checkpoints)
    this.#checkpointer.on('error', () => {})
  }

  /** Opens the connection and prepares its statements. */
  #connect(): void {
    const Libsql = createRequire(import.meta.url)('libsql') as typeof Database
    const db = new Libsql(this.#path)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    // a commit blocks the event loop while it waits for the file (another process's write transaction): after 1 s
    // it fails, its calls answer 503, and the batch goes again with the next one
    db.pragma('busy_timeout = 1000')
    // no checkpoint here: the checkpointer thread copies the WAL into the file (and syncs it) beside the commits,
    // which otherwise waited for it (a pause of tens of milliseconds every few thousand rows, on every answer waiting)
    db.pragma('wal_autocheckpoint = 0')
    // a WAL started again from its beginning is cut back to 16 MB (it keeps its largest size otherwise)
    db.pragma('journal_size_limit = 16777216')
    db.pragma('cache_size = -32768')
    const statements = new Map<string, Database.Statement>()
    for (const [name, sql] of Object.entries(STATEMENTS)) statements.set(name, db.prepare(sql))
    const chunked = new Map<string, Map<number, Database.Statement>>()
    for (const name of ['insert', 'journal'] as const) {
      const sql = STATEMENTS[name]
      const at = sql.indexOf('VALUES')
      const values = sql.slice(sql.indexOf('(', at), sql.indexOf(')', at) + 1)
      const sizes = new Map<number, Database.Statement>()
      for (const size of RUN_SIZES)
        sizes.set(size, db.prepare(sql.replace(values, Array(size).fill(values).join(', '))))
      chunked.set(name, sizes)
    }
    this.#db = db
    this.#statements = statements
    this.#chunked = chunked
  }

  /** Commits `ops` in one transaction (after every batch before: each is committed when sent); throws if it failed. */
  commit(ops: WriteOp[]): void {
    if (this.#closed) throw new Error('the state.db writer is closed')
    if (this.#stale) {
      try {
        this.#db.close()
      } catch {
        // its statements still hold it: collected later
      }
      this.#connect()
      this.#stale = false
    }
    const db = this.#db
    db.exec('BEGIN')
    try {
      let i = 0
      while (i < ops.length) {
        const name = ops[i]![0]
        const many = this.#chunked.get(name)
        if (many) {
          let same = 1
          while (same < RUN_SIZES[0] && i + same < ops.length && ops[i + same]![0] === name) same++
          const size = RUN_SIZES.find((n) => n <= same)
          if (size) {
            const params: unknown[] = []
            for (let j = i; j < i + size; j++) {
              const op = ops[j]!
              for (let k = 1; k < op.length; k++) params.push(op[k])
            }
            // one array, not spread arguments: ~0.3 µs less per row in the driver
            many.get(size)!.run(params)
            i += size
            continue
          }
        }
        this.#statements.get(name)!.run(ops[i]!.slice(1))
        i++
      }
      db.exec('COMMIT')
    } catch (error) {
      try {
        db.exec('ROLLBACK')
      } catch {
        // no transaction left to roll back
      }
      // a statement that failed (database is locked) stays in progress in the driver, and every later COMMIT on
      // this connection failed ("SQL statements in progress"): the next commit opens the connection again
      this.#stale = true
      throw new Error(`writing state.db failed: ${(error as Error)?.message ?? error}`)
    }
  }

  /** Stops the checkpointer, then closes the connection. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    // waited for: the process lives until it is gone (unref'd, a close with nothing else pending ended the process)
    this.#checkpointer.ref()
    this.#checkpointer.postMessage('close')
    // it closes its connection and ends on its own (its 'exit' comes once the thread is gone)
    await this.#checkpointerExited
    process.off('exit', this.#onExit)
    // the whole WAL copied into the file: a libsql connection closes for good (the last one checkpointing) only once
    // its statements are collected
    try {
      this.#db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // another connection still reading: the next start reads the WAL
    }
    this.#db.close()
  }
}
