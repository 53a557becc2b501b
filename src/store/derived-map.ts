/**
 * A Map a resource keeps beside its Tables whose every entry follows from their records (an index: payment
 * reference -> request id). --state-dir does not write it (a third of the rows of a create, otherwise); whoever
 * restores the records rebuilds it (`StateDir` for the requests' own).
 *
 * `set` only queues its entry; the entries are put into the map by the next read of any kind (get, has, delete,
 * size, iteration). A create writes an index it rarely reads: inserting a fresh key into a map of a few hundred
 * thousand entries cost about 0.7 µs of a 10 µs create (hashing, a bucket far from the cache, the old-to-new
 * references the next scavenge walks), against a tenth of that to append to a list.
 */
export class DerivedMap<K, V> extends Map<K, V> {
  // keys and values side by side: [k0, v0, k1, v1, ...]
  #queued: unknown[] = []

  #drain(): void {
    const queued = this.#queued
    if (queued.length === 0) return
    this.#queued = []
    for (let i = 0; i < queued.length; i += 2) super.set(queued[i] as K, queued[i + 1] as V)
  }

  override set(key: K, value: V): this {
    // Map's constructor (given entries) calls set before the field exists
    if (!(#queued in this)) return super.set(key, value)
    this.#queued.push(key, value)
    return this
  }

  override get(key: K): V | undefined {
    this.#drain()
    return super.get(key)
  }

  override has(key: K): boolean {
    this.#drain()
    return super.has(key)
  }

  override delete(key: K): boolean {
    this.#drain()
    return super.delete(key)
  }

  override clear(): void {
    this.#queued = []
    super.clear()
  }

  override get size(): number {
    this.#drain()
    return super.size
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.#drain()
    super.forEach(callback, thisArg)
  }

  override keys(): MapIterator<K> {
    this.#drain()
    return super.keys()
  }

  override values(): MapIterator<V> {
    this.#drain()
    return super.values()
  }

  override entries(): MapIterator<[K, V]> {
    this.#drain()
    return super.entries()
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries()
  }
}
