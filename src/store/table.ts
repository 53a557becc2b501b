import { Collection } from '@msw/data'
import type { z } from 'zod'

/** Thrown by Table.insert when the key is already taken (models turn it into the service's error). */
export class DuplicateKeyError extends Error {
  override name = 'DuplicateKeyError'
  constructor(readonly key: string) {
    super(`duplicate key ${key}`)
  }
}

/**
 * An @msw/data collection (zod-validated records, queries for search endpoints) with an index on one
 * key, so lookups by id stay O(1) however many records a tenant creates.
 */
export class Table<S extends z.ZodObject, K extends keyof z.infer<S> & string> {
  readonly collection: Collection<S>
  readonly #index = new Map<string, z.infer<S>>()
  /** keys being inserted: two concurrent inserts of one key must not both pass */
  readonly #inserting = new Set<string>()
  readonly #key: K

  constructor(schema: S, key: K) {
    this.collection = new Collection({ schema })
    this.#key = key
  }

  /** Validates and stores a record; its key must be new (a duplicate throws DuplicateKeyError). */
  async insert(record: z.input<S>): Promise<z.infer<S>> {
    const key = String((record as Record<string, unknown>)[this.#key])
    if (this.#index.has(key) || this.#inserting.has(key)) throw new DuplicateKeyError(key)
    this.#inserting.add(key)
    try {
      const created = (await this.collection.create(record as never)) as z.infer<S>
      this.#index.set(String(created[this.#key]), created)
      return created
    } finally {
      this.#inserting.delete(key)
    }
  }

  /** The record with this key, if any. */
  get(key: string): z.infer<S> | undefined {
    return this.#index.get(key)
  }

  /** Applies `mutate` to the record with this key (a draft: mutate it in place) and returns the new record. */
  async update(key: string, mutate: (draft: z.infer<S>) => void): Promise<z.infer<S> | undefined> {
    const current = this.#index.get(key)
    if (!current) return undefined
    const updated = (await this.collection.update(current as never, { data: mutate as never })) as
      | z.infer<S>
      | undefined
    if (updated) this.#index.set(key, updated)
    return updated
  }

  /** Removes the record with this key. */
  delete(key: string): boolean {
    const current = this.#index.get(key)
    if (!current) return false
    this.collection.delete(current as never)
    this.#index.delete(key)
    return true
  }

  /** Every record, oldest first. */
  all(): z.infer<S>[] {
    return [...this.#index.values()]
  }

  get size(): number {
    return this.#index.size
  }
}
