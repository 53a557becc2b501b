import type { Collection } from '@msw/data'
import type { z } from 'zod'
import { SandboxError } from '../contract/sandbox-error.ts'

/** Thrown by Table.insert when the key is already taken (models turn it into the service's error). */
export class DuplicateKeyError extends Error {
  override name = 'DuplicateKeyError'
  constructor(readonly key: string) {
    super(`duplicate key ${key}`)
  }
}

/**
 * The most records one table of one world takes from the API (a key's requests, its payouts, ...): past it a create
 * answers 507, so one key cannot grow the process without end. What --state-dir reads back is never refused.
 */
export const MAX_RECORDS_PER_TABLE = 250_000

/** Told of each change of a Table: the record stored under `key`, or undefined when it was deleted. */
export type TableObserver = (key: string, record: unknown) => void

/**
 * An @msw/data collection (zod-validated records, queries for search endpoints) with an index on one key, so
 * lookups by id stay O(1) however many records a tenant creates. Records are validated by the schema when
 * inserted; they enter the collection lazily, the first time it is queried or the record changes, because the
 * collection's own bookkeeping (deep sanitising, ids) costs as much as the rest of a create and most records
 * are never queried. @msw/data itself is loaded then too (0.25 s of start-up otherwise).
 */
export class Table<S extends z.ZodObject, K extends keyof z.infer<S> & string> {
  /** created (and @msw/data loaded) on the first flush */
  #collection: Collection<S> | undefined
  readonly #schema: S
  readonly #index = new Map<string, z.infer<S>>()
  /** keys inserted but not yet in the collection (until the first flush every key is: none is listed) */
  #pending = new Set<string>()
  /** no flush has run: every key of the index waits for the collection (a create adds nothing to `#pending`) */
  #allPending = true
  #flushing: Promise<void> = Promise.resolve()
  readonly #key: K
  /** secondary indexes (`where`), by their key function: value -> its records, in the order they entered */
  readonly #secondary = new Map<(record: z.infer<S>) => string | undefined, Map<string, Bucket<z.infer<S>>>>()
  /** told of every change (--state-dir writes the record, or deletes it when `record` is undefined) */
  #observer: TableObserver | undefined

  readonly #maxRecords: number

  constructor(schema: S, key: K, maxRecords = MAX_RECORDS_PER_TABLE) {
    this.#schema = schema
    this.#key = key
    this.#maxRecords = maxRecords
  }

  /** Tells `observer` of every later change (one observer; --state-dir's writer). */
  observe(observer: TableObserver | undefined): void {
    this.#observer = observer
  }

  /** Validates and stores a record; its key must be new (a duplicate throws DuplicateKeyError). */
  async insert(record: z.input<S>): Promise<z.infer<S>> {
    this.#room()
    return this.#store(this.#schema.parse(record) as z.infer<S>)
  }

  /** `insert`, synchronously: a record read back from --state-dir (validated; throws when its schema refuses it). */
  restore(record: unknown): z.infer<S> {
    return this.#store(this.#schema.parse(record) as z.infer<S>)
  }

  /**
   * Stores a record the model built whole, typed as the schema's output (every field present, defaults written
   * out), from input its route already validated: the compiler checks its shape, so the schema does not run again.
   * For the hot create paths only (a request's record costs 2-3 µs to re-parse, and a copy); whatever comes from
   * outside the model (a restored state, a seed, a partial record) goes through `insert`.
   */
  add(record: z.infer<S>): z.infer<S> {
    this.#room()
    return this.#store(record)
  }

  /** 507 when the table holds its bound of records (a new record from the API; a restore is never refused). */
  #room(): void {
    if (this.#index.size >= this.#maxRecords)
      throw new SandboxError(
        507,
        `This key's world holds ${this.#maxRecords.toLocaleString('en-US')} records of this kind, the most the sandbox keeps: delete some, reset the key (POST /__sandbox/reset) or use another key`,
      )
  }

  #store(record: z.infer<S>): z.infer<S> {
    const key = String((record as Record<string, unknown>)[this.#key])
    if (this.#index.has(key)) throw new DuplicateKeyError(key)
    this.#index.set(key, record)
    if (!this.#allPending) this.#pending.add(key)
    if (this.#secondary.size) this.#reindex(key, undefined, record)
    this.#observer?.(key, record)
    return record
  }

  /** The record with this key, if any. */
  get(key: string): z.infer<S> | undefined {
    return this.#index.get(key)
  }

  /**
   * Applies `mutate` to a copy of the record with this key (a draft: mutate it in place), validates the result and
   * stores it. No draft library: @msw/data's own update goes through one that refuses records built in another
   * realm (jest's module sandbox), so the new record replaces the old one in the collection instead.
   */
  async update(key: string, mutate: (draft: z.infer<S>) => void): Promise<z.infer<S> | undefined> {
    const current = this.#index.get(key)
    if (!current) return undefined
    const draft = structuredClone(current) as z.infer<S>
    mutate(draft)
    const updated = this.#schema.parse(draft) as z.infer<S>
    if (String(updated[this.#key]) !== key) throw new Error(`an update cannot change the key ${key}`)
    await this.#flushing
    if (!this.#pending.has(key)) {
      this.#collection?.delete(current as never)
      this.#pending.add(key)
    }
    this.#index.set(key, updated)
    if (this.#secondary.size) this.#reindex(key, current, updated)
    this.#observer?.(key, updated)
    return updated
  }

  /** Removes the record with this key. */
  delete(key: string): boolean {
    const current = this.#index.get(key)
    if (!current) return false
    if (!this.#pending.delete(key)) this.#collection?.delete(current as never)
    this.#index.delete(key)
    if (this.#secondary.size) this.#reindex(key, current, undefined)
    this.#observer?.(key, undefined)
    return true
  }

  /**
   * The records whose `by(record)` is `value`, in the order they entered that value (insertion order for a field
   * that never changes), from an index this Table keeps as records change (built on the first call with `by`:
   * pass the same function every time, one defined at module level). Lists of one key stay proportional to what
   * they return, not to the whole table.
   */
  where(by: (record: z.infer<S>) => string | undefined, value: string): z.infer<S>[] {
    return this.#bucket(by, value)?.all() ?? []
  }

  /**
   * One page of `where(by, value)` from its newest end (the last to enter first), and how many there are: walks only
   * the page, however many records hold `value`.
   */
  whereNewest(
    by: (record: z.infer<S>) => string | undefined,
    value: string,
    offset: number,
    limit: number,
  ): { total: number; page: z.infer<S>[] } {
    const bucket = this.#bucket(by, value)
    return bucket ? { total: bucket.size, page: bucket.newest(offset, limit) } : { total: 0, page: [] }
  }

  #bucket(by: (record: z.infer<S>) => string | undefined, value: string): Bucket<z.infer<S>> | undefined {
    let index = this.#secondary.get(by)
    if (!index) {
      index = new Map()
      this.#secondary.set(by, index)
      for (const [key, record] of this.#index) {
        const v = by(record)
        if (v === undefined) continue
        const bucket = index.get(v) ?? new Bucket<z.infer<S>>()
        index.set(v, bucket)
        bucket.put(key, record)
      }
    }
    return index.get(value)
  }

  #reindex(key: string, before: z.infer<S> | undefined, after: z.infer<S> | undefined): void {
    for (const [by, index] of this.#secondary) {
      const old = before === undefined ? undefined : by(before)
      const now = after === undefined ? undefined : by(after)
      if (old !== undefined && old !== now) {
        const bucket = index.get(old)
        bucket?.remove(key)
        // a value nothing holds any more leaves the index (a key's records deleted: its bucket goes with them)
        if (bucket?.size === 0) index.delete(old)
      }
      if (now === undefined || after === undefined) continue
      const bucket = index.get(now) ?? new Bucket<z.infer<S>>()
      index.set(now, bucket)
      bucket.put(key, after)
    }
  }

  /** Every record, oldest first. */
  all(): z.infer<S>[] {
    return [...this.#index.values()]
  }

  /** The @msw/data collection with every record in it, for queries. */
  async collection(): Promise<Collection<S>> {
    await this.#flush()
    return this.#collection ?? (await this.#createCollection())
  }

  async #createCollection(): Promise<Collection<S>> {
    const { Collection } = await import('@msw/data')
    this.#collection ??= new Collection({ schema: this.#schema })
    return this.#collection
  }

  /** The field records are keyed by. */
  get keyField(): K {
    return this.#key
  }

  get size(): number {
    return this.#index.size
  }

  /** Moves pending records into the collection, one flush at a time. */
  #flush(): Promise<void> {
    if (this.#allPending) {
      this.#allPending = false
      for (const key of this.#index.keys()) this.#pending.add(key)
    }
    if (this.#pending.size === 0) return this.#flushing
    this.#flushing = this.#flushing.then(async () => {
      const collection = this.#collection ?? (await this.#createCollection())
      const keys = this.#pending
      this.#pending = new Set()
      for (const key of keys) {
        const record = this.#index.get(key)
        if (!record) continue
        const created = (await collection.create(record as never)) as z.infer<S>
        if (this.#index.get(key) === record) {
          this.#index.set(key, created)
          if (this.#secondary.size) this.#reindex(key, record, created)
        }
      }
    })
    return this.#flushing
  }
}

/** The records of one value of a secondary index, in the order they entered it; removed ones leave a hole until
 * holes are half the slots. */
class Bucket<R> {
  #slots: (R | undefined)[] = []
  readonly #at = new Map<string, number>()

  get size(): number {
    return this.#at.size
  }

  put(key: string, record: R): void {
    const at = this.#at.get(key)
    if (at !== undefined) this.#slots[at] = record
    else {
      this.#at.set(key, this.#slots.length)
      this.#slots.push(record)
    }
  }

  remove(key: string): void {
    const at = this.#at.get(key)
    if (at === undefined) return
    this.#slots[at] = undefined
    this.#at.delete(key)
    if (this.#slots.length > 64 && this.#at.size * 2 < this.#slots.length) {
      const keys = [...this.#at.entries()].sort((a, b) => a[1] - b[1])
      const slots = keys.map(([, i]) => this.#slots[i])
      for (const [i, [k]] of keys.entries()) this.#at.set(k, i)
      this.#slots = slots
    }
  }

  all(): R[] {
    return this.#slots.filter((r): r is R => r !== undefined)
  }

  newest(offset: number, limit: number): R[] {
    const page: R[] = []
    let skipped = 0
    for (let i = this.#slots.length - 1; i >= 0 && page.length < limit; i--) {
      const record = this.#slots[i]
      if (record === undefined) continue
      if (skipped < offset) skipped++
      else page.push(record)
    }
    return page
  }
}
