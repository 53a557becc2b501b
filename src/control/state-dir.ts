// --state-dir: the sandbox's state kept across restarts. Every second (when it changed) the worlds (every Table and
// Map of each world, its clock, rules and seeded ids), the keys' scenario choices, webhooks and their delivery records,
// client IDs, sessions and payer page links go to `state.json`; each embedded chain's anvil state (saved by its
// supervisor) to `chain-<network>.state`; worlds evicted past --max-worlds to `evicted/` until their next use. Each
// file is written to a temporary name, synced, then renamed over the old one, so a SIGKILL leaves the previous
// complete file. A restart loads them back before serving: recurring requests and payouts, pending KYC reviews and
// pending webhook retries and payment-detail reviews are armed again, off-ramps under way take their remaining steps
// at the times they had, payment intents accepted but not settled are settled (what the chains already hold is not
// redone), and a key's own conversion stack is registered (and installed) again before the detector's first scan.
// The journal goes to `journal.json` every 5 s when it moved. Not kept: the state of a node reached by --rpc-url.
import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { ChainSupervisor } from '../chain/index.ts'
import type { WorldRules } from '../contract/rules.ts'
import { declaredStates, type World } from '../contract/world.ts'
import type { DeliveryRecord } from '../events/webhook-delivery.ts'
import { payerState, resumeKycReview } from '../resources/payers/index.ts'
import { paymentDetailState, resumeDetailReview } from '../resources/payment-details/index.ts'
import { resumeSettlements } from '../resources/payment-intents/index.ts'
import { payoutState, scheduleNext } from '../resources/payouts/index.ts'
import { restoreWorldRates } from '../resources/rates/index.ts'
import { requestState, resumeOfframp, resumeRecurringSchedule } from '../resources/requests/index.ts'
import { inWorld } from '../resources/services.ts'
import type { WebhookRegistry } from '../resources/webhooks/registry.ts'
import { Table } from '../store/table.ts'
import type { SandboxState } from './sandbox-state.ts'

/** The format of state.json this version writes and reads. */
export const STATE_FORMAT = 1

/** One world as saved (state.json, evicted worlds, named snapshots of src/control/snapshots.ts). */
export interface SavedWorld {
  tenant: string
  scenario: string
  clockOffsetMs: number
  rules: WorldRules
  seeded: Record<string, unknown> | null
  tables: Record<string, unknown[]>
  maps: Record<string, [string, unknown][]>
}

interface SavedState {
  format: number
  savedAt: string
  worlds: SavedWorld[]
  selections: [string, string][]
  webhooks: ReturnType<WebhookRegistry['entries']>
  deliveries?: DeliveryRecord[]
  directory: {
    clientIds: [string, unknown][]
    sessions: [string, unknown][]
    pageTokens: [string, unknown][]
  }
}

/** Writes `text` so that `path` always holds a complete file: temporary file, fsync, rename. */
export function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`
  const fd = openSync(tmp, 'w')
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
}

export function snapshotWorld(world: World, shared: SandboxState): SavedWorld {
  const tables: Record<string, unknown[]> = {}
  const maps: Record<string, [string, unknown][]> = {}
  // every resource's declared state, field by field, under `<state name>.<field>`
  for (const definition of declaredStates()) {
    for (const [field, value] of Object.entries(world.state(definition) as Record<string, unknown>)) {
      if (value instanceof Table) tables[`${definition.name}.${field}`] = value.all()
      else if (value instanceof Map) maps[`${definition.name}.${field}`] = [...value]
    }
  }
  return {
    tenant: world.tenant,
    scenario: world.scenario,
    clockOffsetMs: world.clock.now().getTime() - Date.now(),
    rules: world.rules,
    seeded: (shared.scenarios.seededIds(world) as Record<string, unknown> | undefined) ?? null,
    tables,
    maps,
  }
}

async function restoreWorld(saved: SavedWorld, shared: SandboxState): Promise<void> {
  await fillWorld(shared.tenants.get(saved.tenant, saved.scenario), saved, shared)
}

// Everything but the recurring payouts' rescheduling happens synchronously (Table.insert stores at once), so an
// evicted world can be brought back inside Tenants.get.
export function fillWorld(world: World, saved: SavedWorld, shared: SandboxState): Promise<void> {
  world.rules = saved.rules
  const definitions = new Map(declaredStates().map((d) => [d.name, d]))
  const field = (key: string): unknown => {
    const dot = key.lastIndexOf('.')
    const definition = definitions.get(key.slice(0, dot))
    return definition ? (world.state(definition) as Record<string, unknown>)[key.slice(dot + 1)] : undefined
  }
  // no await before the end: every record is stored before this returns
  const inserts: Promise<unknown>[] = []
  for (const [name, records] of Object.entries(saved.tables)) {
    const table = field(name)
    if (table instanceof Table) for (const record of records) inserts.push(table.insert(record as never))
  }
  for (const [name, entries] of Object.entries(saved.maps)) {
    const map = field(name)
    if (map instanceof Map) for (const [k, v] of entries) map.set(k, v)
  }
  for (const request of requestState(world).requests.all())
    shared.paymentReferences.add(request.paymentReference, world, request.requestId)
  shared.scenarios.markSeeded(world, (saved.seeded ?? {}) as never)
  // advance moves the clock at once; what falls due runs after
  const advanced = saved.clockOffsetMs > 1000 ? world.clock.advance(saved.clockOffsetMs) : Promise.resolve()
  return Promise.all([...inserts, advanced]).then(() => resumeTimers(world, shared))
}

async function resumeTimers(world: World, shared: SandboxState): Promise<void> {
  // recurring requests and payouts go on on their clocks, pending KYC reviews are decided (their old timers died
  // with the process), and so are pending payment-detail reviews
  const ctx = inWorld(shared, world)
  // the key's own conversion stack (its rates are in the world's tables; the stack's registration was in memory)
  await restoreWorldRates(ctx)
  for (const schedule of requestState(world).recurringRequests.all())
    await resumeRecurringSchedule(ctx, schedule.requestId)
  // off-ramps under way take their remaining steps at the times they had (the due ones at once, in order)
  for (const request of requestState(world).requests.all()) resumeOfframp(ctx, world, request)
  // payment intents accepted but not settled: settled now, without redoing what the chains already hold
  resumeSettlements(ctx, world)
  for (const payer of payerState(world).payers.all()) await resumeKycReview(ctx, payer)
  for (const detail of paymentDetailState(world).paymentDetails.all()) await resumeDetailReview(ctx, detail)
  const payouts = payoutState(world).recurringPayouts
  for (const payout of payouts.all()) {
    if (payout.status !== 'active') continue
    await payouts.update(payout.id, (draft) => {
      draft.timerId = null
    })
    await scheduleNext(ctx, payout.id, world.clock.now())
  }
}

/** The state dir of one sandbox: load once at start, then save every second until stopped. */
export class StateDir {
  readonly #dir: string
  readonly #shared: SandboxState
  readonly #supervisors: ReadonlyMap<string, ChainSupervisor>
  readonly #embedded: ReadonlySet<string>
  #timer: NodeJS.Timeout | undefined
  #lastText = ''
  readonly #lastChain = new Map<string, string>()
  #saving = false
  #journalSavedAt = 0
  #journalChanges = -1

  constructor(dir: string, shared: SandboxState, embedded: ReadonlySet<string>) {
    this.#dir = dir
    this.#shared = shared
    this.#supervisors = shared.supervisors
    this.#embedded = embedded
    mkdirSync(join(dir, 'evicted'), { recursive: true })
    // worlds past --max-worlds go to disk and come back on their next use; a reset forgets them there too
    shared.tenants.onDrop((world, reason) => {
      if (reason === 'evict')
        writeAtomically(
          this.#evictedPath(world.tenant, world.scenario),
          JSON.stringify(snapshotWorld(world, shared)),
        )
    })
    shared.tenants.onReset((tenant) => rmSync(this.#evictedDir(tenant), { recursive: true, force: true }))
    shared.tenants.setReviver((world) => this.#revive(world))
  }

  #evictedDir(tenant: string): string {
    return join(this.#dir, 'evicted', createHash('sha256').update(tenant).digest('hex').slice(0, 32))
  }

  #evictedPath(tenant: string, scenario: string): string {
    const dir = this.#evictedDir(tenant)
    mkdirSync(dir, { recursive: true })
    return join(dir, `${createHash('sha256').update(scenario).digest('hex').slice(0, 32)}.json`)
  }

  #revive(world: World): boolean {
    const dir = this.#evictedDir(world.tenant)
    if (!existsSync(dir)) return false
    const path = this.#evictedPath(world.tenant, world.scenario)
    if (!existsSync(path)) return false
    const saved = JSON.parse(readFileSync(path, 'utf8')) as SavedWorld
    rmSync(path, { force: true })
    fillWorld(world, saved, this.#shared).catch((error) =>
      this.#shared.log('--state-dir: an evicted world came back incomplete', error),
    )
    return true
  }

  get #statePath(): string {
    return join(this.#dir, 'state.json')
  }

  #chainPath(network: string): string {
    return join(this.#dir, `chain-${network}.state`)
  }

  /** Loads what a previous run saved (nothing when the dir is new); refuses a state of another format. */
  async load(): Promise<{ worlds: number } | null> {
    for (const network of this.#embedded) {
      const path = this.#chainPath(network)
      if (!existsSync(path)) continue
      const saved = readFileSync(path, 'utf8')
      await this.#supervisors.get(network)!.restore(saved)
      this.#lastChain.set(network, saved)
    }
    if (!existsSync(this.#statePath)) return null
    const text = readFileSync(this.#statePath, 'utf8')
    let state: SavedState
    try {
      state = JSON.parse(text) as SavedState
    } catch (error) {
      throw new Error(`--state-dir ${this.#dir}: state.json is not JSON (${(error as Error).message})`)
    }
    if (state.format !== STATE_FORMAT) {
      throw new Error(
        `--state-dir ${this.#dir} holds state format ${String(state.format)}; this version of request-sandbox reads format ${STATE_FORMAT}: start with an empty --state-dir, or move this one away`,
      )
    }
    const { shared } = { shared: this.#shared }
    for (const [tenant, name] of state.selections) {
      try {
        shared.scenarios.select(tenant, name)
      } catch {
        shared.log(
          `--state-dir: scenario ${name} of a key is no longer known; the key runs in the default one`,
        )
      }
    }
    shared.webhooks.registry.restore(state.webhooks)
    for (const [k, v] of state.directory.clientIds) shared.directory.clientIdToTenant.set(k, v as never)
    for (const [k, v] of state.directory.sessions) shared.directory.sessionToTenant.set(k, v as never)
    for (const [k, v] of state.directory.pageTokens) shared.directory.pageTokenToPayer.set(k, v as never)
    for (const world of state.worlds) await restoreWorld(world, shared)
    const journal = join(this.#dir, 'journal.json')
    if (existsSync(journal)) {
      try {
        shared.journal.import(JSON.parse(readFileSync(journal, 'utf8')))
      } catch (error) {
        shared.log('--state-dir: journal.json could not be read; the journals start empty', error)
      }
    }
    // pending retries resume once the worlds are back (their attempts read the world's clock)
    shared.webhooks.restore(state.deliveries ?? [])
    this.#lastText = text
    return { worlds: state.worlds.length }
  }

  /** Saves every second from now on (the timer does not keep the process alive). */
  start(): void {
    this.#timer = setInterval(
      () => void this.save().catch((e) => this.#shared.log('--state-dir: save failed', e)),
      1000,
    )
    this.#timer.unref()
  }

  /** Writes what changed since the last save. */
  async save(): Promise<void> {
    if (this.#saving) return
    this.#saving = true
    try {
      const shared = this.#shared
      const state: SavedState = {
        format: STATE_FORMAT,
        savedAt: new Date().toISOString(),
        worlds: [...shared.tenants.all()].map((w) => snapshotWorld(w, shared)),
        selections: shared.scenarios.selections(),
        webhooks: shared.webhooks.registry.entries(),
        deliveries: shared.webhooks.records(),
        directory: {
          clientIds: [...shared.directory.clientIdToTenant],
          sessions: [...shared.directory.sessionToTenant],
          pageTokens: [...shared.directory.pageTokenToPayer],
        },
      }
      const text = JSON.stringify(state)
      // savedAt changes every time: compare without it
      if (text.slice(text.indexOf('"worlds"')) !== this.#lastText.slice(this.#lastText.indexOf('"worlds"')))
        writeAtomically(this.#statePath, text)
      this.#lastText = text
      // the journal (up to 32 MiB) is saved every 5 s when it moved, not every second
      if (shared.journal.changes !== this.#journalChanges && Date.now() - this.#journalSavedAt >= 5000) {
        this.#journalChanges = shared.journal.changes
        this.#journalSavedAt = Date.now()
        writeAtomically(join(this.#dir, 'journal.json'), JSON.stringify(shared.journal.export()))
      }
      for (const network of this.#embedded) {
        const chainState = this.#supervisors.get(network)?.savedState()
        if (chainState && chainState !== this.#lastChain.get(network)) {
          writeAtomically(this.#chainPath(network), chainState)
          this.#lastChain.set(network, chainState)
        }
      }
    } finally {
      this.#saving = false
    }
  }

  /** Stops the timer after a last save (the chains' states saved first). */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#journalSavedAt = 0
    for (const network of this.#embedded)
      await this.#supervisors
        .get(network)
        ?.save()
        .catch((e) => this.#shared.log(`--state-dir: the last save of ${network}'s chain state failed`, e))
    await this.save()
  }
}
