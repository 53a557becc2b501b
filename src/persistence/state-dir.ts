// --state-dir: the sandbox's state kept across restarts in `state.db` (libsql: SQLite's format, WAL). Every change is
// written as it happens: the Tables and Maps of every declared resource state (record by record, through
// `Table.observe` and the Maps' own set/delete), each world's clock offset, rules and seeded ids, the keys' scenario
// choices and webhooks, delivery records (after each attempt), the credential directory (client IDs, sessions, page
// links), the journal (appended every 200 ms, off the answers' path, bounded as the in-memory one) and each embedded
// chain's anvil state when it moved. Changes are committed in batches (writer.ts says how many turns one holds); the
// dispatcher awaits `barrier()` before an answer leaves, so a 2xx reports a committed change (kill -9 loses none).
// A restart brings back what --max-worlds keeps in memory (reviver.ts): those worlds' recurring requests and payouts,
// reviews, webhook retries, off-ramps, unsettled intents and conversion stacks resume (what the chains already hold is
// not redone); the others wait on disk as evicted ones do, their payment references and stacks watched.
// A record that cannot be read back (not JSON, or refused by its schema) stops only its key: the row moves to
// `quarantine` (with the last good copy the row kept in `previous`), the file and key are logged, and the key answers
// 503 saying what to do until it is reset (across restarts). A state dir of the previous version (state.json,
// journal.json, chain-*.state, evicted/) is imported once (import.ts).
import { join } from 'node:path'
import type Database from 'libsql'
import type { ChainSupervisor } from '../chain/index.ts'
import type { Middleware } from '../contract/middleware.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import type { World } from '../contract/world.ts'
import type { SandboxState } from '../control/services.ts'
import type { DropReason, WorldLifecycle } from '../store/lifecycle.ts'
import { collectWrites } from './collect.ts'
import { type Batch, forgetTenantOps, forgetWorldOps, newBatch, scenariosOf } from './forget.ts'
import { JournalAppender } from './journal-appender.ts'
import {
  checkFormat,
  type Readable,
  readJournalTenants,
  readSharedRows,
  readWorldIndex,
  restoreChains,
  restoreSharedRows,
} from './load.ts'
import { observeShared } from './observe.ts'
import { openStateFile, readOrLeaveOut } from './open.ts'
import { quarantineRow } from './quarantine.ts'
import { observeWorldState, reviveJournal, reviveWorldRows, type Slot, worldSettings } from './revival.ts'
import { WorldReviver } from './reviver.ts'
import { keyLabel, StateDamage } from './salvage.ts'
import { NONE_SAVED, savedReferences } from './saved-references.ts'
import { ensureWritableDir } from './writable.ts'
import { StateWriter, type WriteOp } from './writer.ts'

/** The state dir of one sandbox: load once at start, then write each change as it happens until stopped. */
export class StateDir implements WorldLifecycle {
  readonly #dir: string
  readonly #shared: SandboxState
  readonly #supervisors: ReadonlyMap<string, ChainSupervisor>
  readonly #embedded: ReadonlySet<string>
  #db: Database.Database
  readonly #writer: StateWriter
  readonly #reviver: WorldReviver
  readonly #journal: JournalAppender
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
  #sharedRows = new Map<string, [kind: string, key: string, value: unknown]>()
  /** the keys' scenario choices changed since they were last written */
  #selectionsDirty = false
  /** the webhook registry changed since it was last written */
  #webhooksDirty = false
  #deliveries = new Set<string>()
  /** the batch being gathered (committed by `#schedule`'s last immediate) */
  #batch: Batch | null = null
  /** set while records are put back (their inserts are not changes) */
  #loading = false
  readonly #lastChain = new Map<string, string>()
  /** keys whose saved state could not be read: they answer 503 with the reason */
  readonly broken = new Map<string, string>()
  #closed = false
  /** worlds being put back (their timers resume once their records are in) */
  readonly #filling = new Map<World, Promise<void>>()

  constructor(dir: string, shared: SandboxState, embedded: ReadonlySet<string>) {
    this.#dir = dir
    this.#shared = shared
    this.#reviver = new WorldReviver(
      shared,
      (name) => this.#worldIds.has(name),
      this.#filling,
      (tenant) => this.#reviveJournal(tenant),
      (name) =>
        this.#readable(
          "a world's requests",
          () => savedReferences(this.#db, this.#worldIds.get(name)),
          NONE_SAVED,
        ),
    )
    this.#supervisors = shared.supervisors
    this.#embedded = embedded
    ensureWritableDir(dir)
    this.#path = join(dir, 'state.db')
    this.#damage = new StateDamage(this.#path, shared.log)
    this.#db = openStateFile(this.#path, this.#damage, shared.log)
    this.#writer = new StateWriter(this.#path)
    const damaged = (tenant: string) => this.#damage.journals.has(tenant)
    this.#journal = new JournalAppender(this.#writer, shared, this.#path, () => this.#closed, damaged)
    observeShared(shared, {
      selections: () => {
        if (this.#loading) return
        this.#selectionsDirty = true
        this.#schedule()
      },
      webhooks: () => {
        if (this.#loading) return
        this.#webhooksDirty = true
        this.#schedule()
      },
      deliveriesForgotten: (tenant) => this.#forgetDeliveries(tenant),
      sharedRow: (kind, key, value) => this.#sharedChanged(kind, key, value),
    })
    // each new saved state of an embedded chain is written at once (receipts wait for it: see LiveChain.keepBlock)
    for (const network of embedded)
      this.#supervisors.get(network)?.onSave(() => (this.#closed ? undefined : this.#saveChains()))
    shared.events.on('journal', (tenant, entry) => {
      if (this.#loading) return
      this.#journal.add(tenant, entry)
      if (entry.type === 'delivery') {
        this.#deliveries.add(`${tenant}\u0000${entry.deliveryId}`)
        this.#schedule()
      }
    })
  }

  // The worlds' lifecycle (WorldLifecycle, attached by openState): past --max-worlds on disk until used; a reset forgets.

  /** A new world's settings are written, and again each time its clock moves. */
  created(world: World): void {
    world.clock.onAdvance(() => this.#touchWorld(world))
    this.#touchWorld(world)
  }

  /** Starts observing a resource state a world just created (`observeWorldState`). */
  stateCreated(world: World, name: string, state: unknown): void {
    observeWorldState(this.#slots, world, name, state, (slot, key, value) => this.#changed(slot, key, value))
  }

  /** What a world dropped or reset still changes is not written; a dropped world's rows are deleted. */
  dropped(world: World, reason: DropReason): void {
    if (reason !== 'evict') this.#forgotten.add(world)
    if (reason === 'drop') this.#forgetWorld(world.tenant, world.scenario)
  }

  /** Every world still on disk after a restart comes back before all worlds are listed. */
  beforeAll(): void {
    this.#reviver.beforeAll()
  }

  /** The scenarios of a key's worlds in the database (evicted, or not back yet). */
  savedScenarios(tenant: string): Iterable<string> {
    return scenariosOf(this.#worldIds, tenant)
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

  /** Gathers the changes into one batch, committed once the turns writer.ts names have made theirs. */
  #schedule(): void {
    if (this.#batch || this.#closed) return
    this.#batch = newBatch()
    // three immediates, each setting the next (the loop polls in between without waiting): the calls of the next two
    // turns add their changes to this batch before it is committed
    setImmediate(() => setImmediate(() => setImmediate(() => this.#commit())))
  }

  /**
   * What an answer waits for before it leaves: the commit of every change made so far (undefined when none is
   * pending). Every change schedules its batch as it happens (the scenario choices and webhooks too: their
   * registries say when they changed).
   */
  barrier(): Promise<void> | undefined {
    // a batch that failed waits in #ops for the next one: an answer (a read too) reports it only once it is written
    if (!this.#batch && this.#ops.length) this.#schedule()
    return this.#batch?.promise
  }

  #commit(): void {
    // inside inOneCommit: what would be committed now goes with the rest of its changes
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

  /** set inside inOneCommit: no commit takes part of its changes */
  #holding = 0

  /**
   * Runs `run` (synchronous) so that every change it makes is committed in one transaction, after what was pending
   * before: a kill shows all of them or none (a snapshot's restore: the key's reset and its refill). Nothing in `run`
   * reads another key's world back from the file (the reset key's worlds have no rows left to read).
   */
  inOneCommit<T>(run: () => T): T {
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
    return collectWrites(
      { ops, dirty, worlds, sharedRows, deliveries, selections, webhooks },
      {
        shared: this.#shared,
        forgotten: this.#forgotten,
        worldIds: this.#worldIds,
        unseeded: this.#unseeded,
        worldId: (world) => this.#worldId(world),
        nextSeq: () => ++this.#lastSeq,
        recordsAppended: () => this.#journal.recordsAppended(),
      },
    )
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
    const ops = forgetWorldOps(this.#dirty, this.#forgotten, this.#worldIds, tenant, scenario)
    if (!ops) return
    this.#ops.push(...ops)
    this.#schedule()
  }

  /** A key's delivery records go: their rows (`tenant NUL id`), those not back yet; committed at once. */
  #forgetDeliveries(tenant: string): void {
    this.#ops.push(['forgetDeliveries', `${tenant}\u0000`, `${tenant}\u0001`])
    this.#reviver.savedDeliveries.delete(tenant)
    this.#schedule()
    this.#commit()
  }

  /** A key's rows, journal and quarantine mark are deleted, committed at once. */
  reset(tenant: string): void {
    const marks = this.#damage.journals.reset(this.#db, tenant)
    const ops = forgetTenantOps(this.#dirty, this.#forgotten, this.#worldIds, this.#damage, tenant)
    this.#journal.forget(tenant)
    this.#ops.push(...ops, ...marks)
    this.#schedule()
    // committed now (inside a snapshot's restore, inOneCommit, with its refill instead: the key's worlds have no
    // ids left to be read back by)
    this.#commit()
    // a reset starts the key afresh: what could not be read stays in quarantine, the key works again
    this.broken.delete(tenant)
    // what the key had on disk is not brought back after the restart (the reset's deletes may not be committed yet)
    this.#reviver.forget(tenant)
  }

  /** Brings an evicted world back from the database (synchronously, inside Tenants.get). */
  revive(world: World): boolean {
    // its settings are read, not written (`created` marked the new world's, with a clock not moved yet)
    this.#dirtyWorlds.delete(world)
    // the changes of this turn get their rows (a world evicted a moment ago has its id; a failed batch's rows: read below)
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
      () => worldSettings(this.#db, id),
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
    this.#reviver.keyBack(world)
    return true
  }

  /** Puts a world's rows back into it (`reviveWorldRows`). */
  #fill(world: World, id: number, metaText: string): Promise<void> {
    return reviveWorldRows(
      {
        db: this.#db,
        shared: this.#shared,
        broken: this.broken,
        damage: this.#damage,
        slots: this.#slots,
        quarantine: (w, row, reason) =>
          quarantineRow(this.#db, this.#path, this.#shared.log, this.broken, w, row, reason),
        setLoading: (on) => {
          this.#loading = on
        },
      },
      world,
      id,
      metaText,
    )
  }

  /** `read()`, or `fallback` when the file's pages it needs are damaged (`readOrLeaveOut`). */
  #readable<T>(what: string, read: () => T, fallback: T): T {
    return readOrLeaveOut(this.#damage, this.#db, this.#path, this.#shared.log, what, read, fallback)
  }

  /** Loads what a previous run saved (nothing when the dir is new); imports a state dir of the previous version. */
  async load(): Promise<{ worlds: number } | null> {
    const db = this.#db
    checkFormat(db, this.#dir, this.#shared.log)
    const shared = this.#shared
    await restoreChains(db, this.#embedded, this.#supervisors, this.#path, shared.log, this.#lastChain)
    this.#loading = true
    try {
      const readable: Readable = (what, read, fallback) => this.#readable(what, read, fallback)
      const deliveries = restoreSharedRows(readSharedRows(db, readable), shared, this.#path, this.broken)
      // each key's journal comes back with its worlds (below): only the keys that have one are read now
      this.#reviver.queueJournals(readJournalTenants(db, readable))
      this.#loading = false
      const { worlds, lastWorldId, lastSeq } = readWorldIndex(db, readable)
      for (const { id, tenant, scenario } of worlds) this.#worldIds.set(`${tenant}\u0000${scenario}`, id)
      this.#lastWorldId = Math.max(this.#lastWorldId, lastWorldId)
      this.#lastSeq = lastSeq
      this.#reviver.queueDeliveries(deliveries)
      this.#reviver.queueWorlds(worlds)
      this.#reviver.start()
      return { worlds: worlds.length }
    } finally {
      this.#loading = false
    }
  }

  /** Puts a key's saved journal back (`reviveJournal`). */
  #reviveJournal(tenant: string): void {
    const what = `the journal of key ${keyLabel(tenant)}`
    reviveJournal(
      tenant,
      this.#shared,
      (read) => this.#readable(what, () => this.#damage.journals.read(tenant, read), undefined),
      this.#db,
      {
        get: () => this.#loading,
        set: (on) => {
          this.#loading = on
        },
      },
    )
  }

  /** Resolves once the saved worlds --max-worlds keeps are back in memory, the others' payment references indexed. */
  revived(): Promise<void> {
    return this.#reviver.background
  }

  /** Closes the database without writing anything (a start that failed: its load, or a step after it). */
  async abandon(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#reviver.stopping = true
    await this.#reviver.background.catch(() => {})
    this.#journal.cancel()
    this.#db.close()
    await this.#writer.close()
  }

  /** Commits what is pending and the chains' last states, then closes the database. */
  async stop(): Promise<void> {
    this.#reviver.stopping = true
    await this.#reviver.background
    for (const network of this.#embedded)
      await this.#supervisors
        .get(network)
        ?.save()
        .catch((e) => this.#shared.log(`--state-dir: the last save of ${network}'s chain state failed`, e))
    this.#journal.flushAll()
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
    if (tenant !== undefined && this.#reviver.unrevived.size) void this.#reviver.reviveTenant(tenant)
    const message = tenant === undefined ? undefined : this.broken.get(tenant)
    if (message === undefined || call.request.path === '/__sandbox/reset') return next()
    return Promise.reject(new SandboxError(503, message))
  }
}
