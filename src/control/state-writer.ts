// The writer of state.db: a worker thread with its own libsql connection commits the batches of writes off the main
// thread, in the order they were sent, and answers when they are committed. Pipelined: two messages in flight; the
// batches made meanwhile go in the next message, and every batch waiting goes in one transaction (group commit).
// A checkpointer thread copies the WAL into the file beside the commits.
// The sandbox serialises records and sends strings; SQLite's own work (B-trees, WAL) runs on the other core. The main thread
// reads with its own connection (WAL: readers see what is committed) and can wait synchronously for the writer to
// catch up (`drain`, Atomics.wait) before reading rows a batch in flight may change (a world coming back).
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
}

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

// the worker's code, plain CommonJS run with eval (nothing to bundle or compile: the same in the sources, the
// esbuild bundle and the published package)
const WORKER_SOURCE = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads')
const { createRequire } = require('node:module')
const Libsql = createRequire(workerData.from)('libsql')
const db = new Libsql(workerData.path)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 10000')
// no checkpoint here: the checkpointer thread copies the WAL into the file (and syncs it) beside the commits, which
// otherwise waited for it (a pause of tens of milliseconds every few thousand rows, on every answer waiting)
db.pragma('wal_autocheckpoint = 0')
// a WAL started again from its beginning is cut back to 16 MB (it keeps its largest size otherwise)
db.pragma('journal_size_limit = 16777216')
db.pragma('cache_size = -32768')
const statements = {}
for (const [name, sql] of Object.entries(workerData.statements)) statements[name] = db.prepare(sql)
// runs of one insert go up to 16 rows to a statement (then 8, 4, 2 for what is left): a call into the driver costs
// as much as a few rows
const SIZES = [16, 8, 4, 2]
const chunked = {}
for (const name of ['insert', 'journal']) {
  const sql = workerData.statements[name]
  const values = sql.slice(sql.indexOf('(', sql.indexOf('VALUES')), sql.indexOf(')', sql.indexOf('VALUES')) + 1)
  chunked[name] = {}
  for (const size of SIZES) chunked[name][size] = db.prepare(sql.replace(values, Array(size).fill(values).join(', ')))
}
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
        for (let j = i; j < i + size; j++) for (let k = 1; k < ops[j].length; k++) params.push(ops[j][k])
        many[size].run(...params)
        i += size
        continue
      }
    }
    statements[name].run(...ops[i].slice(1))
    i++
  }
}
// a batch comes as one string (one copy to send, not one object per field): each op's name, then its parameters,
// each field written as <length>:<text>
const arity = {}
for (const [name, sql] of Object.entries(workerData.statements)) arity[name] = sql.split('?').length - 1
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
    // rowids and OFFSET must be integers
    const numeric = workerData.numeric[name]
    if (numeric) for (const k of numeric) op[k] = Number(op[k])
    ops.push(op)
  }
  return ops
}
const done = new Int32Array(workerData.done)
function commit(batches) {
  db.exec('BEGIN')
  try {
    for (const text of batches) run(decode(text))
    db.exec('COMMIT')
  } catch (e) {
    db.exec('ROLLBACK')
    throw e
  }
}
function close() {
  db.close()
  parentPort.close()
}
parentPort.on('message', (message) => {
  if (message === 'close') return close()
  // group commit: every batch that arrived while the last commit ran goes into this one transaction (one WAL
  // append for all of them), so a writer behind catches up instead of queueing commit after commit
  const batches = [...message]
  let closing = false
  for (;;) {
    const next = receiveMessageOnPort(parentPort)
    if (!next) break
    if (next.message === 'close') {
      closing = true
      break
    }
    batches.push(...next.message)
  }
  const results = []
  try {
    commit(batches.map((b) => b.ops))
    for (const b of batches) results.push({ seq: b.seq, error: null })
  } catch (e) {
    // one failing batch fails only itself: each is tried again in its own transaction
    for (const b of batches) {
      let error = null
      try {
        commit([b.ops])
      } catch (e) {
        error = String((e && e.message) || e)
      }
      results.push({ seq: b.seq, error })
    }
  }
  Atomics.store(done, 0, batches[batches.length - 1].seq)
  Atomics.notify(done, 0)
  parentPort.postMessage(results)
  if (closing) close()
})
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
  db.pragma('busy_timeout = 10000')
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

/**
 * Messages handed to the writer and not answered yet: with two, the next batch is already waiting when a commit
 * ends (the writer does not wait for the main thread, busy with calls, to read its answer and send more); the
 * batches made meanwhile still go together.
 */
const MAX_IN_FLIGHT = 2

/** The writer thread of one state.db (and its checkpointer thread). */
export class StateWriter {
  readonly #worker: Worker
  readonly #checkpointer: Worker
  readonly #checkpointerExited: Promise<unknown>
  readonly #done = new Int32Array(new SharedArrayBuffer(4))
  #sent = 0
  readonly #waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()
  #closed = false

  constructor(path: string) {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path,
        from: import.meta.url,
        statements: STATEMENTS,
        numeric: NUMERIC,
        done: this.#done.buffer,
      },
    })
    this.#worker.unref()
    this.#checkpointer = new Worker(CHECKPOINTER_SOURCE, {
      eval: true,
      workerData: { path, from: import.meta.url },
    })
    this.#checkpointer.unref()
    this.#checkpointerExited = new Promise((resolve) => this.#checkpointer.once('exit', resolve))
    // it only copies what is committed: should it fail, commits still are durable (the last close checkpoints)
    this.#checkpointer.on('error', () => {})
    this.#worker.on('message', (results: { seq: number; error: string | null }[]) => {
      this.#inFlight--
      if (this.#inFlight < MAX_IN_FLIGHT) this.#post()
      for (const { seq, error } of results) {
        const waiting = this.#waiting.get(seq)
        this.#waiting.delete(seq)
        if (error) waiting?.reject(new Error(`writing state.db failed: ${error}`))
        else waiting?.resolve()
      }
    })
    this.#worker.on('error', (error) => {
      for (const waiting of this.#waiting.values()) waiting.reject(error)
      this.#waiting.clear()
    })
  }

  /** Commits `ops` in one transaction after every batch sent before; resolves once committed. */
  send(ops: WriteOp[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the state.db writer is closed'))
    const seq = ++this.#sent
    const committed = new Promise<void>((resolve, reject) => this.#waiting.set(seq, { resolve, reject }))
    let text = ''
    for (const op of ops)
      for (const field of op) {
        const value = String(field)
        text += `${value.length}:${value}`
      }
    this.#queued.push({ seq, ops: text })
    // pipelined: while the writer has two messages, the next batches gather here and go in one message when it
    // answers one (a postMessage wakes the other thread: ~40 µs each on a busy machine)
    // an idle writer gets them at once (they are already the changes of a whole event-loop turn; waiting 1 ms for
    // more added that millisecond to every answer)
    if (this.#inFlight < MAX_IN_FLIGHT) this.#post()
    return committed
  }

  /** batches not handed to the writer yet (it is committing earlier ones) */
  #queued: { seq: number; ops: string }[] = []
  /** messages the writer has not answered */
  #inFlight = 0

  #post(): void {
    if (!this.#queued.length) return
    this.#inFlight++
    this.#worker.postMessage(this.#queued)
    this.#queued = []
  }

  /** Blocks until every batch sent so far is committed (at most `timeoutMs`). */
  drain(timeoutMs = 10_000): void {
    this.#post()
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const done = Atomics.load(this.#done, 0)
      if (done >= this.#sent || Date.now() > deadline) return
      Atomics.wait(this.#done, 0, done, Math.max(1, deadline - Date.now()))
    }
  }

  /** Waits for what was sent, then closes the writer's connection. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await Promise.allSettled([...this.#waiting.values()].map(() => undefined))
    this.drain()
    this.#checkpointer.postMessage('close')
    await this.#checkpointerExited
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve))
    this.#worker.postMessage('close')
    await exited
  }
}
