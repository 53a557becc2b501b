// The journal of --state-dir: the in-memory journal's new entries, appended to the `journal` table every 200 ms (off
// the answers' path) a few keys at a time, each key's rows trimmed to what the journal keeps; record_worlds is brought
// up to date with the appends.
import { type JournalEntry, journalText } from '../control/journal.ts'
import type { SandboxState } from '../control/services.ts'
import type { StateWriter, WriteOp } from './writer.ts'

/** About how many journal entries one transaction appends (a flush goes in slices, a turn apart). */
const JOURNAL_SLICE = 400

/** Appends the journal's entries to state.db (through the writer). */
export class JournalAppender {
  readonly #writer: StateWriter
  readonly #shared: SandboxState
  readonly #path: string
  readonly #closed: () => boolean
  #rows: [string, JournalEntry][] = []
  #timer: NodeJS.Timeout | undefined
  /** a flush's entries not appended yet, by key: appended a few keys at a time, a turn apart (`#append`) */
  #queued = new Map<string, JournalEntry[]>()
  #slice: NodeJS.Immediate | undefined
  /** record_worlds is brought up to date after this flush's entries */
  #indexPending = false
  /** records were appended since record_worlds was last brought up to date (with the next journal append) */
  #unindexed = false
  /** journal entries appended per key since its rows were last trimmed */
  readonly #appended = new Map<string, number>()

  /** a key whose rows sit in a damaged page: they are not trimmed (the delete would meet it and fail every append) */
  readonly #damaged: (tenant: string) => boolean

  constructor(
    writer: StateWriter,
    shared: SandboxState,
    path: string,
    closed: () => boolean,
    damaged: (tenant: string) => boolean,
  ) {
    this.#writer = writer
    this.#shared = shared
    this.#path = path
    this.#closed = closed
    this.#damaged = damaged
  }

  /** A new entry of a key's journal: the journal is history, not what an answer reports (appended within 200 ms). */
  add(tenant: string, entry: JournalEntry): void {
    this.#rows.push([tenant, entry])
    this.#timer ??= setTimeout(() => this.flush(), 200).unref()
  }

  /** Records were inserted: record_worlds is brought up to date with the next append. */
  recordsAppended(): void {
    if (!this.#unindexed) {
      this.#unindexed = true
      this.#timer ??= setTimeout(() => this.flush(), 200).unref()
    }
  }

  /** A key reset: its entries not appended yet are dropped. */
  forget(tenant: string): void {
    this.#rows = this.#rows.filter(([t]) => t !== tenant)
    this.#queued.delete(tenant)
    this.#appended.delete(tenant)
  }

  /** Stops the timers without appending (a start that failed). */
  cancel(): void {
    clearTimeout(this.#timer)
    if (this.#slice) clearImmediate(this.#slice)
  }

  /** Appends every pending entry now (stop). */
  flushAll(): void {
    clearTimeout(this.#timer)
    this.flush(true)
  }

  /**
   * Takes the journal's new entries (every 200 ms) and appends them, a few keys at a time (`#append`); `all`:
   * every one of them now (stop).
   */
  flush(all = false): void {
    this.#timer = undefined
    if (this.#closed()) return
    // one row per key and flush, its entries split by U+001E (journalText): a row per entry cost the writer a third
    // of all it did under a burst of creates
    for (const [tenant, entry] of this.#rows) {
      const entries = this.#queued.get(tenant)
      if (entries) entries.push(entry)
      else this.#queued.set(tenant, [entry])
    }
    this.#rows = []
    if (this.#unindexed) {
      this.#unindexed = false
      this.#indexPending = true
    }
    if (all) {
      clearImmediate(this.#slice)
      this.#slice = undefined
      while (this.#queued.size || this.#indexPending) if (!this.#append(Number.POSITIVE_INFINITY)) break
    } else if (this.#queued.size || this.#indexPending) this.#slice ??= setImmediate(() => this.#nextSlice())
  }

  #nextSlice(): void {
    this.#slice = undefined
    if (this.#closed()) return
    if (!this.#append(JOURNAL_SLICE)) {
      // tried again with the next flush, not at once (a locked file holds the event loop up to a second a try)
      this.#timer ??= setTimeout(() => this.flush(), 200).unref()
      return
    }
    if (this.#queued.size || this.#indexPending) this.#slice = setImmediate(() => this.#nextSlice())
  }

  /**
   * Appends the pending entries of keys until about `max` entries (one transaction), trims those keys' rows to what
   * the journal keeps, and brings record_worlds up to date (on its own). A whole flush at once held the event loop
   * ~10 ms every 200 ms under creates at concurrency 32, every waiting answer with it; a slice holds it ~1 ms.
   * False when the commit failed (the entries are queued again, first).
   */
  #append(max: number): boolean {
    const byTenant = new Map<string, string[]>()
    const took = new Map<string, JournalEntry[]>()
    let taken = 0
    for (const [tenant, entries] of this.#queued) {
      if (taken >= max) break
      this.#queued.delete(tenant)
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
      const appended = (this.#appended.get(tenant) ?? 0) + texts.length
      if (appended < 500) this.#appended.set(tenant, appended)
      else if (this.#damaged(tenant)) this.#appended.delete(tenant)
      else {
        this.#appended.delete(tenant)
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
      for (const [tenant, entries] of this.#queued) {
        const before = took.get(tenant)
        if (before) before.push(...entries)
        else took.set(tenant, entries)
      }
      this.#queued = took
      this.#shared.log(`--state-dir: appending the journal to ${this.#path} failed`, error)
      return false
    }
    return true
  }
}
