// The writer of state.db: a worker thread with its own libsql connection commits each batch of writes (the changes
// of three event-loop turns) in one transaction, in the order the batches were sent; the answers that report them
// leave once it is committed. The main thread hands a batch over with one postMessage and learns of its commit from
// a shared counter (Atomics.waitAsync: no message back), and gathers the next batch meanwhile.
// It ran on a worker thread until format 4 too, then inline: a batch then held one turn's changes, and each round
// trip (a message each way) cost the main thread ~50 µs (`npm run bench -- state` 0.73x vs 0.78x inline then). With
// a batch of three turns and no message back, the hand-over costs the main thread less than the commit it moves.
// A checkpointer thread copies the WAL into the file beside the commits.
import { Worker } from 'node:worker_threads'

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
  | ['indexWorlds']

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
  indexWorlds: INDEX_WORLDS,
}

/** The sizes of the multi-row inserts a run of one insert is cut into. */
const RUN_SIZES = [16, 8, 4, 2]

/** Batches the main thread may have sent and not learnt the outcome of (a ring of outcomes, by batch number). */
const RING = 4096
/**
 * The shared words: the last batch done (committed or failed), the length of the last failure's text, the last batch
 * published by the main thread.
 */
const DONE = 0
const ERROR_LENGTH = 1
const SENT = 2
/** The bytes of the ring the batches' text is written into (a batch larger than half of it goes as a message). */
const RING_BYTES = 32 * 1024 * 1024

/** The parameters that are integers, by statement (a batch carries text: these are turned back into numbers). */
const NUMERIC: Partial<Record<WriteOp[0], number[]>> = {
  insert: [1, 2],
  update: [2],
  remove: [1],
  world: [1],
  journal: [3],
  journalTrim: [3],
  forgetWorldRecords: [1],
  forgetWorld: [1],
}
const ERROR_BYTES = 1024

// the writer: plain CommonJS run with eval (nothing to bundle: the same in the sources, the esbuild bundle and the
// published package). Batches arrive in order; those waiting when a commit ends go in one transaction. A batch that
// fails is marked failed and written again, first, with the next one (its changes are taken for written by the
// sandbox: a later update of one of its rows must not reach the file without it).
const WRITER_SOURCE = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads')
const { createRequire } = require('node:module')
const Libsql = createRequire(workerData.from)('libsql')
const { statements: SQL, sizes: SIZES } = workerData
const RING = ${RING}
const words = new Int32Array(workerData.words)
const outcomes = new Uint8Array(workerData.outcomes)
const errorBytes = new Uint8Array(workerData.error)
let db, statements, chunked
function connect() {
  db = new Libsql(workerData.path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  // a commit waits at most 1 s for the file (another process's write transaction): then it fails, its calls answer
  // 503, and the batch goes again with the next one
  db.pragma('busy_timeout = 1000')
  // no checkpoint here: the checkpointer thread copies the WAL into the file (and syncs it) beside the commits
  db.pragma('wal_autocheckpoint = 0')
  // a WAL started again from its beginning is cut back to 16 MB (it keeps its largest size otherwise)
  db.pragma('journal_size_limit = 16777216')
  db.pragma('cache_size = -32768')
  statements = {}
  for (const [name, sql] of Object.entries(SQL)) statements[name] = db.prepare(sql)
  // runs of one insert go up to 16 rows to a statement (then 8, 4, 2 for what is left): a driver call costs ~3 µs
  chunked = {}
  for (const name of ['insert', 'journal']) {
    const sql = SQL[name]
    const at = sql.indexOf('VALUES')
    const values = sql.slice(sql.indexOf('(', at), sql.indexOf(')', at) + 1)
    chunked[name] = {}
    for (const size of SIZES) chunked[name][size] = db.prepare(sql.replace(values, Array(size).fill(values).join(', ')))
  }
}
connect()
let stale = false
function run(ops) {
  let i = 0
  while (i < ops.length) {
    const name = ops[i][0]
    const many = chunked[name]
    if (many) {
      let same = 1
      while (same < SIZES[0] && i + same < ops.length && ops[i + same][0] === name) same++
      const size = SIZES.find((n) => n <= same)
      if (size) {
        const params = []
        for (let j = i; j < i + size; j++) {
          const op = ops[j]
          for (let k = 1; k < op.length; k++) params.push(op[k])
        }
        // one array, not spread arguments: ~0.3 µs less per row in the driver
        many[size].run(params)
        i += size
        continue
      }
    }
    statements[name].run(ops[i].slice(1))
    i++
  }
}
/** failed batches' ops, written again first with the next batch */
let again = []
function commit(batches) {
  if (stale) {
    try { db.close() } catch {}
    connect()
    stale = false
  }
  db.exec('BEGIN')
  try {
    for (const ops of again) run(ops)
    for (const ops of batches) run(ops)
    db.exec('COMMIT')
    again = []
    return null
  } catch (error) {
    try { db.exec('ROLLBACK') } catch {}
    // a statement that failed (database is locked) stays in progress in the driver, and every later COMMIT on this
    // connection failed ("SQL statements in progress"): the next commit opens the connection again
    stale = true
    again.push(...batches)
    return String((error && error.message) || error)
  }
}
function close() {
  // the whole WAL copied into the file (the checkpointer has stopped)
  try { db.pragma('wal_checkpoint(TRUNCATE)') } catch {}
  db.close()
}
const arity = {}
for (const [name, sql] of Object.entries(SQL)) arity[name] = sql.split('?').length - 1
const numeric = workerData.numeric
/** a batch's text: each op's name, then its parameters, each field written as <length>:<text> */
function decode(text) {
  const ops = []
  let at = 0
  const field = () => {
    const colon = text.indexOf(':', at)
    const end = colon + 1 + Number(text.slice(at, colon))
    const value = text.slice(colon + 1, end)
    at = end
    return value
  }
  while (at < text.length) {
    const name = field()
    const op = [name]
    for (let k = 0; k < arity[name]; k++) op.push(field())
    const numbers = numeric[name]
    if (numbers) for (const k of numbers) op[k] = Number(op[k])
    ops.push(op)
  }
  return ops
}
const ring = Buffer.from(workerData.ring)
const places = new Int32Array(workerData.places)
let taken = 0
for (;;) {
  // blocks until the main thread publishes a batch (this thread does nothing else)
  while (Atomics.load(words, ${SENT}) === taken) Atomics.wait(words, ${SENT}, taken)
  const last = Atomics.load(words, ${SENT})
  const batches = []
  let closing = false
  for (let id = taken + 1; id <= last; id++) {
    const at = places[(id % RING) * 2]
    const length = places[(id % RING) * 2 + 1]
    if (length === -2) {
      closing = true
      break
    }
    // a batch too large for the ring comes as a message, posted before its place was published
    const text = length === -1 ? receiveMessageOnPort(parentPort).message : ring.toString('utf8', at, at + length)
    batches.push(decode(text))
  }
  const error = batches.length ? commit(batches) : null
  if (error !== null) {
    const { written } = new TextEncoder().encodeInto(error, errorBytes)
    Atomics.store(words, ${ERROR_LENGTH}, written)
  }
  for (let id = taken + 1; id <= last; id++) outcomes[id % RING] = error === null ? 1 : 2
  taken = last
  Atomics.store(words, ${DONE}, last)
  Atomics.notify(words, ${DONE})
  if (closing) {
    close()
    break
  }
}
`

// the checkpointer: its own connection copies what the WAL holds into the database file every 250 ms (PASSIVE: it
// never waits for, nor holds up, the writer's commits; when all is copied the writer's next commit starts the WAL
// again from its beginning). The last connection to close checkpoints what is left.
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { createRequire } = require('node:module')
const Libsql = createRequire(workerData.from)('libsql')
// a sandbox closed (its dir gone) before this thread started has nothing to checkpoint
let db
try {
  db = new Libsql(workerData.path)
  // short: a RESTART that waits for readers holds the writer's commits back meanwhile (on the event loop)
  db.pragma('busy_timeout = 100')
  db.pragma('wal_autocheckpoint = 0')
} catch {
  process.exit(0)
}
const timer = setInterval(() => {
  try {
    const [done] = db.pragma('wal_checkpoint(PASSIVE)')
    // under steady writes the WAL is never all copied when a commit starts, so it would grow without end: past
    // 16 MB, once a passive round left little to copy, RESTART copies the rest while holding the writer back (a few
    // milliseconds) and the WAL starts again from its beginning
    if (done && done.log > 4000 && done.log - done.checkpointed < 1000) db.pragma('wal_checkpoint(RESTART)')
  } catch {
    // busy or closing: the next turn tries again
  }
}, 250)
parentPort.on('message', (message) => {
  if (message !== 'close') return
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

const ENCODER = new TextEncoder()

/** The writer thread of one state.db (and its checkpointer thread). */
export class StateWriter {
  readonly #worker: Worker
  readonly #workerExited: Promise<unknown>
  readonly #words = new Int32Array(new SharedArrayBuffer(12))
  readonly #ring = Buffer.from(new SharedArrayBuffer(RING_BYTES))
  /** each batch's place in the ring (byte offset and length; -1: sent as a message), by number */
  readonly #places = new Int32Array(new SharedArrayBuffer(RING * 8))
  /** where the next batch's text goes, and the places of the batches not done yet (oldest first) */
  #head = 0
  readonly #held: { id: number; at: number; end: number }[] = []
  readonly #outcomes = new Uint8Array(new SharedArrayBuffer(RING))
  readonly #error = new Uint8Array(new SharedArrayBuffer(ERROR_BYTES))
  readonly #checkpointer: Worker
  readonly #checkpointerExited: Promise<unknown>
  /** the last batch sent, and the last whose outcome was handed on */
  #sent = 0
  #settled = 0
  /** what to tell of each batch sent and not settled, by number */
  readonly #waiting = new Map<number, Outcome>()
  #watching = false
  /** the thread stopped (an error): every batch after fails */
  #failure: Error | null = null
  #closed = false

  constructor(path: string) {
    this.#worker = new Worker(WRITER_SOURCE, {
      eval: true,
      workerData: {
        path,
        from: import.meta.url,
        statements: STATEMENTS,
        sizes: RUN_SIZES,
        ring: this.#ring.buffer,
        places: this.#places.buffer,
        numeric: NUMERIC,
        words: this.#words.buffer,
        outcomes: this.#outcomes.buffer,
        error: this.#error.buffer,
      },
    })
    this.#worker.unref()
    this.#workerExited = new Promise((resolve) => this.#worker.once('exit', resolve))
    this.#worker.on('error', (error) => {
      this.#failure = new Error(`writing state.db failed: the writer thread stopped (${error.message})`)
      for (const outcome of this.#waiting.values()) outcome.reject(this.#failure)
      this.#waiting.clear()
      this.#settled = this.#sent
    })
    this.#checkpointer = new Worker(CHECKPOINTER_SOURCE, {
      eval: true,
      workerData: { path, from: import.meta.url },
    })
    this.#checkpointer.unref()
    this.#checkpointerExited = new Promise((resolve) => this.#checkpointer.once('exit', resolve))
    // it only copies what is committed: should it fail, commits still are durable (the last close checkpoints)
    this.#checkpointer.on('error', () => {})
  }

  /**
   * Hands `ops` to the writer thread: committed in one transaction after every batch sent before (with them if they
   * are still waiting); `outcome` is told once it is committed, or that it failed (its ops are then written again,
   * first, with the next batch).
   */
  send(ops: WriteOp[], outcome: Outcome): void {
    if (this.#closed) {
      outcome.reject(new Error('the state.db writer is closed'))
      return
    }
    if (this.#failure) {
      outcome.reject(this.#failure)
      return
    }
    const id = this.#sent + 1
    // one text (each field <length>:<text>) written into the shared ring: no message, no lock shared with the writer
    let text = ''
    for (const op of ops)
      for (const field of op) {
        const value = typeof field === 'string' ? field : String(field)
        text += `${value.length}:${value}`
      }
    const place = this.#place(text)
    this.#places[(id % RING) * 2] = place.at
    this.#places[(id % RING) * 2 + 1] = place.length
    this.#waiting.set(id, outcome)
    this.#sent = id
    Atomics.store(this.#words, SENT, id)
    Atomics.notify(this.#words, SENT)
    this.#watch()
  }

  /**
   * Writes a batch's text into the ring where no batch not done yet lies (waiting for the writer when none is free);
   * one larger than half the ring goes as a message.
   */
  #place(text: string): { at: number; length: number } {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    const most = text.length * 3
    if (most > RING_BYTES / 2) {
      this.#worker.postMessage(text)
      return { at: 0, length: -1 }
    }
    for (;;) {
      this.#release()
      let at = -1
      if (!this.#held.length) at = 0
      else {
        const tail = this.#held[0]!.at
        if (this.#head >= tail) {
          if (this.#head + most <= RING_BYTES) at = this.#head
          else if (most < tail) at = 0
        } else if (this.#head + most < tail) at = this.#head
      }
      if (at >= 0) {
        const { written } = ENCODER.encodeInto(text, this.#ring.subarray(at))
        const end = at + written
        this.#held.push({ id: this.#sent + 1, at, end })
        this.#head = end
        return { at, length: written }
      }
      // the ring is full of batches in flight: wait for the writer
      const done = Atomics.load(this.#words, DONE)
      Atomics.wait(this.#words, DONE, done, 1000)
    }
  }

  /** Frees the places of the batches the writer is done with. */
  #release(): void {
    const done = Atomics.load(this.#words, DONE)
    while (this.#held.length && this.#held[0]!.id <= done) this.#held.shift()
  }

  /** Waits (without blocking) for the writer's next progress, then tells the outcomes done. */
  #watch(): void {
    if (this.#watching || this.#settled >= this.#sent) return
    const done = Atomics.load(this.#words, DONE)
    if (done > this.#settled) {
      this.#watching = true
      queueMicrotask(() => {
        this.#watching = false
        this.#settle()
        this.#watch()
      })
      return
    }
    const wait = (Atomics as unknown as AtomicsWaitAsync).waitAsync(this.#words, DONE, done)
    this.#watching = true
    const next = (): void => {
      this.#watching = false
      this.#settle()
      this.#watch()
    }
    if (wait.async) void wait.value.then(next)
    else queueMicrotask(next)
  }

  /** Tells the outcome of every batch the writer is done with. */
  #settle(): void {
    const done = Atomics.load(this.#words, DONE)
    while (this.#settled < done) {
      const id = ++this.#settled
      const outcome = this.#waiting.get(id)
      this.#waiting.delete(id)
      if (!outcome) continue
      if (this.#outcomes[id % RING] === 1) outcome.resolve()
      else {
        const length = Atomics.load(this.#words, ERROR_LENGTH)
        const text = Buffer.from(this.#error.slice(0, length)).toString('utf8')
        outcome.reject(new Error(`writing state.db failed: ${text}`))
      }
    }
  }

  /** Blocks until every batch sent so far is done (a read of rows they hold follows), and tells their outcomes. */
  drain(): void {
    while (!this.#failure && Atomics.load(this.#words, DONE) < this.#sent) {
      const done = Atomics.load(this.#words, DONE)
      // at most 10 s at a time: a commit waits at most 1 s for the file
      if (Atomics.wait(this.#words, DONE, done, 10_000) === 'timed-out') break
    }
    this.#settle()
  }

  /** Commits what was sent, stops the checkpointer, then the writer (which copies the whole WAL into the file). */
  async close(): Promise<void> {
    if (this.#closed) return
    this.drain()
    this.#closed = true
    this.#checkpointer.postMessage('close')
    await this.#checkpointerExited
    const id = this.#sent + 1
    this.#places[(id % RING) * 2 + 1] = -2
    this.#sent = id
    Atomics.store(this.#words, SENT, id)
    Atomics.notify(this.#words, SENT)
    await this.#workerExited
  }
}

/** What a batch's sender is told: committed, or failed. */
export interface Outcome {
  resolve(): void
  reject(error: Error): void
}

/** Atomics.waitAsync (Node >= 16; not in this TypeScript's lib) */
interface AtomicsWaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
  ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> }
}
