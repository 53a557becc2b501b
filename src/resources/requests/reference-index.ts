import type { Hex } from 'viem'
import { keccakHex } from '../../contract/keccak.ts'
import type { World } from '../../contract/world.ts'

/** One request a reference hash points to. */
export interface ReferenceEntry {
  world: World
  requestId: string
}

/** A request of a world evicted from memory (--state-dir keeps it on disk): named by key and scenario. */
interface ParkedEntry {
  tenant: string
  scenario: string
  requestId: string
}

/** Brings the world of a key and scenario back into memory (--state-dir's reviver, through Tenants.get). */
export type ReferenceReviver = (tenant: string, scenario: string) => World

/**
 * The sandbox-wide index the payment detector reads: keccak256(8 reference bytes) — the proxies' topic1 —
 * to the request(s) of any tenant that carry that reference. Kept by createRequest; shared by every tenant
 * because a chain log does not say whose it is.
 */
export class PaymentReferenceIndex {
  readonly #entries = new Map<Hex, ReferenceEntry[]>()
  /**
   * the references of worlds evicted from memory (--state-dir), by key and scenario: the world holds nothing of them,
   * and a payment to one brings its world back to be recorded (`lookup` with `revive`)
   */
  readonly #parked = new Map<Hex, ParkedEntry[]>()
  #reviver: ReferenceReviver | null = null
  /**
   * the hashes each world has entries under (a hash may have gone since): parking or forgetting a world reads its
   * own, not every request of every world in memory
   */
  readonly #hashesOf = new WeakMap<World, Set<Hex>>()
  /**
   * references added since the last lookup, hashed on the next read, so creating a request costs no keccak: flat
   * (reference, world, request id, reference, ...), no object per create
   */
  #pending: (string | World)[] = []

  #complete: Promise<void> = Promise.resolve()

  /** Sets what `complete()` waits for (--state-dir: every saved world back, its proxies installed again). */
  setComplete(complete: Promise<void>): void {
    this.#complete = complete
  }

  /**
   * Resolves once every request is in the index. A read never brings worlds back: after a --state-dir restart the
   * saved worlds come back in the background, one key at a time between calls, and what matches payments against
   * every key (the payment detector's scans, the escrow watcher) waits for this first; a read of one world's
   * references (`lookupIn`) needs only that world.
   */
  complete(): Promise<void> {
    return this.#complete
  }

  /** topic1 of a payment log carrying `paymentReference` (`0x` + 16 hex digits). */
  static hashOf(paymentReference: string): Hex {
    return keccakHex(paymentReference.toLowerCase())
  }

  /** Registers a request under its payment reference. */
  add(paymentReference: string, world: World, requestId: string): void {
    this.#pending.push(paymentReference, world, requestId)
  }

  #flush(): void {
    if (!this.#pending.length) return
    const pending = this.#pending
    this.#pending = []
    for (let i = 0; i < pending.length; i += 3)
      this.#index(pending[i] as string, pending[i + 1] as World, pending[i + 2] as string)
  }

  #index(paymentReference: string, world: World, requestId: string): void {
    const hash = PaymentReferenceIndex.hashOf(paymentReference)
    const list = this.#entries.get(hash) ?? []
    if (!list.some((e) => e.world === world && e.requestId === requestId)) list.push({ world, requestId })
    this.#entries.set(hash, list)
    const hashes = this.#hashesOf.get(world)
    if (hashes) hashes.add(hash)
    else this.#hashesOf.set(world, new Set([hash]))
    // a world back in memory: its requests are live entries again
    const parked = this.#parked.get(hash)
    if (parked) this.#unpark(hash, parked, (p) => p.tenant === world.tenant && p.scenario === world.scenario)
  }

  #unpark(hash: Hex, parked: ParkedEntry[], gone: (entry: ParkedEntry) => boolean): void {
    const kept = parked.filter((p) => !gone(p))
    if (kept.length === parked.length) return
    if (kept.length) this.#parked.set(hash, kept)
    else this.#parked.delete(hash)
  }

  /** Sets what brings an evicted world back when a payment names one of its requests. */
  setReviver(reviver: ReferenceReviver | null): void {
    this.#reviver = reviver
  }

  /**
   * Keeps the requests of a world evicted from memory (it waits on disk) by key and scenario, not by the world
   * object: a payment to one of them is still recognised and brings the world back (`lookup` with `revive`).
   */
  park(world: World): void {
    this.#flush()
    for (const hash of this.#takeHashes(world)) {
      const list = this.#entries.get(hash)
      if (!list?.some((e) => e.world === world)) continue
      const parked = this.#parked.get(hash) ?? []
      for (const e of list)
        if (
          e.world === world &&
          !parked.some((p) => p.requestId === e.requestId && p.tenant === world.tenant)
        )
          parked.push({ tenant: world.tenant, scenario: world.scenario, requestId: e.requestId })
      this.#parked.set(hash, parked)
      const kept = list.filter((e) => e.world !== world)
      if (kept.length) this.#entries.set(hash, kept)
      else this.#entries.delete(hash)
    }
  }

  /**
   * Keeps a request of a world still on disk after a restart (--state-dir: past what --max-worlds keeps, never
   * brought back yet) as `park` keeps an evicted world's: a payment to it brings its world back.
   */
  parkSaved(paymentReference: string, tenant: string, scenario: string, requestId: string): void {
    const hash = PaymentReferenceIndex.hashOf(paymentReference)
    const parked = this.#parked.get(hash)
    if (!parked) this.#parked.set(hash, [{ tenant, scenario, requestId }])
    else if (!parked.some((p) => p.requestId === requestId && p.tenant === tenant))
      parked.push({ tenant, scenario, requestId })
  }

  /** The hashes `world` has entries under, forgotten here (its entries leave the index). */
  #takeHashes(world: World): Iterable<Hex> {
    const hashes = this.#hashesOf.get(world)
    this.#hashesOf.delete(world)
    return hashes ?? []
  }

  /** Forgets the requests of a key's evicted worlds (a reset: they are gone from disk too). */
  forgetTenant(tenant: string): void {
    for (const [hash, parked] of this.#parked) this.#unpark(hash, parked, (p) => p.tenant === tenant)
  }

  /** Forgets every request of a world that left memory (reset, eviction): nothing keeps the world alive. */
  forget(world: World): void {
    const pending = this.#pending
    const kept: (string | World)[] = []
    for (let i = 0; i < pending.length; i += 3)
      if (pending[i + 1] !== world) kept.push(pending[i]!, pending[i + 1]!, pending[i + 2]!)
    this.#pending = kept
    for (const hash of this.#takeHashes(world)) {
      const list = this.#entries.get(hash)
      if (!list?.some((e) => e.world === world)) continue
      const kept = list.filter((e) => e.world !== world)
      if (kept.length) this.#entries.set(hash, kept)
      else this.#entries.delete(hash)
    }
  }

  /** Whether any request carries the reference whose hash is `hash` (one of an evicted world too). */
  has(hash: Hex): boolean {
    this.#flush()
    const key = hash.toLowerCase() as Hex
    return this.#entries.has(key) || this.#parked.has(key)
  }

  /**
   * The requests under a reference hash, restricted to worlds that are still alive (`live`). With `revive` (the
   * payment detector, the escrow watcher), the evicted worlds that hold one are brought back first, and their
   * requests are returned too.
   */
  lookup(hash: Hex, live: ReadonlySet<World>, options: { revive?: boolean } = {}): ReferenceEntry[] {
    this.#flush()
    const key = hash.toLowerCase() as Hex
    const parked = this.#parked.get(key)
    let revived: Set<World> | undefined
    if (parked && options.revive && this.#reviver) {
      revived = new Set()
      for (const { tenant, scenario } of [...parked]) {
        try {
          revived.add(this.#reviver(tenant, scenario))
        } catch {
          // a world that cannot come back now stays parked: the next payment to it tries again
        }
      }
      this.#flush()
      // what the worlds brought back did not hold (a request deleted meanwhile) is not looked for again
      const left = this.#parked.get(key)
      if (left)
        this.#unpark(key, left, (p) =>
          [...revived!].some((w) => w.tenant === p.tenant && w.scenario === p.scenario),
        )
    }
    const list = this.#entries.get(key)
    if (!list) return []
    const alive = list.filter((e) => live.has(e.world) || revived?.has(e.world))
    // Worlds dropped by a reset are forgotten here, lazily.
    if (alive.length !== list.length) {
      if (alive.length) this.#entries.set(key, alive)
      else this.#entries.delete(key)
    }
    return alive
  }

  /** The request of `world` under a reference hash (nothing of another world is read or forgotten). */
  lookupIn(hash: Hex, world: World): ReferenceEntry | undefined {
    this.#flush()
    return this.#entries.get(hash.toLowerCase() as Hex)?.find((e) => e.world === world)
  }

  /** Number of reference hashes indexed. */
  get size(): number {
    this.#flush()
    return this.#entries.size
  }
}
