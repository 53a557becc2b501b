// The order in which --state-dir brings saved worlds back after a restart: the keys the world cap keeps in memory, one
// key at a time between calls (`reviveInBackground`; the most recently used keys are chosen, by their journal's last
// row), a key's own at its first call or when a payment names one of its requests (`reviveTenant`), those chosen
// at once for whatever reads every world (`reviveRest`). The keys past the cap stay on disk as evicted ones do: their
// payment references and own conversion stacks are read from the file (`savedReferences`) for the detector. Each
// key's journal and delivery records come back with its worlds.
import type { World } from '../contract/world.ts'
import type { SandboxState } from '../control/services.ts'
import type { DeliveryRecord } from '../webhooks/index.ts'
import type { SavedReferences } from './saved-references.ts'

/** The saved worlds not brought back yet, and bringing them back. */
export class WorldReviver {
  readonly #shared: SandboxState
  /** a world of `tenant NUL scenario` has rows */
  readonly #hasWorld: (name: string) => boolean
  /** worlds being filled back: resolved once their timers resumed */
  readonly #filling: ReadonlyMap<World, Promise<void>>
  readonly #reviveJournal: (tenant: string) => void
  /** what a saved world (`tenant NUL scenario`) holds on disk for the payment detector */
  readonly #references: (name: string) => SavedReferences

  constructor(
    shared: SandboxState,
    hasWorld: (name: string) => boolean,
    filling: ReadonlyMap<World, Promise<void>>,
    reviveJournal: (tenant: string) => void,
    references: (name: string) => SavedReferences,
  ) {
    this.#shared = shared
    this.#hasWorld = hasWorld
    this.#filling = filling
    this.#reviveJournal = reviveJournal
    this.#references = references
  }

  /**
   * saved worlds not brought back yet: each key's scenarios, in the order they were first written; the keys with a
   * journal first, the most recently used first (their journal's last row), then the others
   */
  readonly unrevived = new Map<string, string[]>()
  /** keys whose saved journal is not back yet (it comes back with their worlds, before their first call) */
  readonly journalPending = new Set<string>()
  /** the delivery records of the last run not back yet, by key: a key's come back with its worlds */
  readonly savedDeliveries = new Map<string, DeliveryRecord[]>()
  background: Promise<void> = Promise.resolve()
  /** the timers and proxies of the worlds brought back, resuming */
  #resuming: Promise<unknown>[] = []
  stopping = false
  #revivingRest = false
  /** the keys the background brings back (chosen once, `#plan`), the last one first */
  #planned: string[] | null = null

  /** A key reset: what it had on disk is not brought back (the reset's deletes may not be committed yet). */
  forget(tenant: string): void {
    this.unrevived.delete(tenant)
    this.journalPending.delete(tenant)
  }

  /** Keys with a saved journal: it comes back with their worlds. */
  queueJournals(tenants: { tenant: string }[]): void {
    for (const { tenant } of tenants) {
      this.journalPending.add(tenant)
      this.unrevived.set(tenant, [])
    }
  }

  /**
   * Each key's deliveries come back with its worlds (their retries read the world's clock; a call listing them
   * brings them back with the key's worlds); the rest once every world is back.
   */
  queueDeliveries(deliveries: DeliveryRecord[]): void {
    deliveries.sort((a, b) => String(a.id).localeCompare(String(b.id)))
    for (const record of deliveries) {
      const mine = this.savedDeliveries.get(record.tenant)
      if (mine) mine.push(record)
      else this.savedDeliveries.set(record.tenant, [record])
    }
  }

  /**
   * The worlds come back after the start, one at a time between calls (a call brings its own back at once;
   * anything that reads every world brings all of them back first; payment matching waits for them: complete()).
   */
  queueWorlds(worlds: { tenant: string; scenario: string }[]): void {
    for (const { tenant, scenario } of worlds) {
      const scenarios = this.unrevived.get(tenant)
      if (scenarios) scenarios.push(scenario)
      else this.unrevived.set(tenant, [scenario])
    }
  }

  /** Starts bringing the queued worlds back in the background. */
  start(): void {
    this.#beforeAll = true
    this.background = this.reviveInBackground()
    // the payment detector's scans wait for every world (its requests, and the proxies a key installed)
    this.#shared.paymentReferences.setComplete(this.background)
  }

  /**
   * Brings a key's saved worlds back (unless a call did, or a reset forgot them), synchronously; resolves once their
   * timers have resumed.
   */
  reviveTenant(tenant: string): Promise<unknown> {
    const scenarios = this.unrevived.get(tenant)
    if (!scenarios) return Promise.resolve()
    this.unrevived.delete(tenant)
    if (this.journalPending.delete(tenant)) this.#reviveJournal(tenant)
    const resumed: (Promise<void> | undefined)[] = []
    for (const scenario of scenarios)
      if (this.#hasWorld(`${tenant}\u0000${scenario}`))
        resumed.push(this.#filling.get(this.#shared.tenants.get(tenant, scenario)))
    this.#restoreDeliveries(tenant)
    const all = Promise.all(resumed)
    // what the background waits for (after it, a key's revival is its caller's to wait for)
    if (this.#beforeAll) this.#resuming.push(all)
    return all
  }

  /**
   * A world of a key still on disk came back on its own (a payment to it, a link of it opened): the key's journal
   * and delivery records come with it, synchronously (before anything of this run is recorded for the key); its
   * other worlds stay on disk as evicted ones do (no other world is brought back inside this one's revival).
   */
  keyBack(world: World): void {
    const scenarios = this.unrevived.get(world.tenant)
    if (!scenarios) return
    this.unrevived.delete(world.tenant)
    if (this.journalPending.delete(world.tenant)) this.#reviveJournal(world.tenant)
    for (const scenario of scenarios) if (scenario !== world.scenario) this.#park(world.tenant, scenario)
    this.#restoreDeliveries(world.tenant)
  }

  /** A world left on disk: the payment detector knows its requests and its own conversion stack. */
  #park(tenant: string, scenario: string): void {
    const saved = this.#references(`${tenant}\u0000${scenario}`)
    for (const [requestId, reference] of saved.references)
      this.#shared.paymentReferences.parkSaved(reference, tenant, scenario, requestId)
    if (saved.ownRates) this.#shared.conversion.watchSaved(tenant, scenario)
  }

  /**
   * The keys the background brings back: in the order of `unrevived` (the most recently used first), each key whose
   * worlds all still fit in memory under --max-worlds (and, for a claimed key, the claimed keys' share), until none
   * is left. Returned the least recently used first, so that memory's eviction order is the saved one.
   */
  #plan(): string[] {
    if (this.#planned) return this.#planned
    const tenants = this.#shared.tenants
    const room = tenants.room
    const chosen: string[] = []
    for (const [tenant, scenarios] of this.unrevived) {
      if (room.any === 0) break
      const claimed = tenants.isClaimed(tenant)
      if (scenarios.length > room.any || (claimed && scenarios.length > room.claimed)) continue
      chosen.push(tenant)
      room.any -= scenarios.length
      if (claimed) room.claimed -= scenarios.length
    }
    this.#planned = chosen.reverse()
    return this.#planned
  }

  /** Brings back the next planned key still on disk if its worlds fit in memory now (calls may have filled it). */
  #reviveNext(): Promise<unknown> | undefined {
    const tenant = this.#plan().shift() as string
    const scenarios = this.unrevived.get(tenant)
    if (!scenarios) return
    const room = this.#shared.tenants.room
    const fits = this.#shared.tenants.isClaimed(tenant) ? room.claimed : room.any
    if (scenarios.length <= fits) return this.reviveTenant(tenant)
  }

  async reviveInBackground(): Promise<void> {
    // after the start's own work (the server listening, the first health answer)
    await new Promise((resolve) => setTimeout(resolve, 0))
    while (this.#plan().length && !this.stopping) {
      await this.#reviveNext()
      await new Promise((resolve) => setImmediate(resolve))
    }
    // the keys past the cap wait on disk as evicted ones do: a payment to one of their requests (through the
    // published proxies or their own conversion stack) brings them back
    let parked = 0
    for (const [tenant, scenarios] of [...this.unrevived]) {
      if (this.stopping) break
      if (!this.unrevived.has(tenant)) continue
      for (const scenario of scenarios) this.#park(tenant, scenario)
      // other calls run between, every 20 worlds
      parked += scenarios.length
      if (parked >= 20) {
        parked = 0
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    // worlds brought back at once (by a call, or all of them) resume their timers and proxies too
    await Promise.all(this.#resuming)
    this.#resuming = []
    this.#revived()
  }

  /** set from `start` until every saved world is back (or the state dir stops) */
  #beforeAll = false

  /** What runs before every world is listed: the saved worlds not back yet come back at once. */
  beforeAll(): void {
    if (this.#beforeAll) this.reviveRest()
  }

  /** The keys the background brings back, all back now, synchronously (their timers resume after). */
  reviveRest(): void {
    if (this.#revivingRest || !this.unrevived.size) return
    this.#revivingRest = true
    try {
      while (this.#plan().length && !this.stopping) void this.#reviveNext()
    } finally {
      this.#revivingRest = false
    }
  }

  /**
   * The background is done: the delivery records of keys with no world on disk come back, and those of keys still on
   * disk with retries under way (their journal first, where the attempts are recorded: the retries go on from the
   * start, as they would have in a sandbox that kept running); the others' come back with their worlds.
   */
  #revived(): void {
    this.#beforeAll = false
    for (const [tenant, deliveries] of [...this.savedDeliveries]) {
      if (this.stopping || !this.unrevived.has(tenant)) this.#restoreDeliveries(tenant)
      else if (deliveries.some((record) => record.state === 'pending')) {
        if (this.journalPending.delete(tenant)) this.#reviveJournal(tenant)
        this.#restoreDeliveries(tenant)
      }
    }
  }

  /** Puts a key's saved delivery records back (its pending retries resume), once its worlds are back. */
  #restoreDeliveries(tenant: string): void {
    const deliveries = this.savedDeliveries.get(tenant)
    if (!deliveries) return
    this.savedDeliveries.delete(tenant)
    if (!this.stopping) this.#shared.webhooks.restore(deliveries)
  }
}
