// Named snapshots of a key (POST /__sandbox/snapshots, request-sandbox snapshot save|load|ls|rm): every world of the
// key in memory, serialised as --state-dir serialises worlds (state-dir.ts: each declared Table and Map, clock, rules,
// seeded ids), with the block each live chain was at. Restoring drops the key's worlds and fills them back, so its
// requests, payments, payers and timers are as they were; other keys are not touched. With --state-dir each snapshot
// is its own file, `snapshots/<key hash>/<name>.json`, kept across restarts; without, they live in memory.
import { blockNumber } from '../chain/index.ts'
import { BadRequestError, NotFoundError } from '../contract/sandbox-error.ts'
import type { SandboxState } from './sandbox-state.ts'
import {
  checkSnapshotName,
  DamagedSnapshotError,
  MAX_SNAPSHOTS_PER_KEY,
  SNAPSHOT_FORMAT,
  type SnapshotFile,
} from './snapshot-store.ts'
import { fillWorld, type SavedWorld, snapshotWorld } from './world-snapshot.ts'

/** What lists and answers show of a snapshot. */
export interface SnapshotSummary {
  name: string
  savedAt: string
  scenario: string
  /** per world: its scenario and how many records each of its tables holds */
  worlds: { scenario: string; records: number }[]
  chains: { network: string; blockNumber: number }[]
}

export function summary(file: SnapshotFile): SnapshotSummary {
  const worlds = file.worlds as SavedWorld[]
  return {
    name: file.name,
    savedAt: file.savedAt,
    scenario: file.scenario,
    worlds: worlds.map((w) => ({
      scenario: w.scenario,
      records: Object.values(w.tables).reduce((n, records) => n + records.length, 0),
    })),
    chains: file.chains,
  }
}

export class SnapshotNotFoundError extends NotFoundError {
  override name = 'SnapshotNotFoundError'
  constructor(name: string) {
    super(`No snapshot named ${name} for this key`)
  }
}

/** Saves the key's worlds under `name` (replacing a snapshot of that name). */
export async function saveSnapshot(
  shared: SandboxState,
  tenant: string,
  name: string,
): Promise<SnapshotSummary> {
  checkSnapshotName(name)
  const names = shared.snapshots.names(tenant)
  if (!names.includes(name) && names.length >= MAX_SNAPSHOTS_PER_KEY)
    throw new BadRequestError(
      `A key may keep at most ${MAX_SNAPSHOTS_PER_KEY} snapshots: delete one first (or save under an existing name)`,
    )
  // the key's current world exists (seeded) even if it has made no call yet
  await shared.scenarios.world(tenant)
  const worlds = [...shared.tenants.all()].filter((w) => w.tenant === tenant)
  const chains = await Promise.all(
    [...shared.chains.values()].map(async (c) => ({ network: c.network, blockNumber: await blockNumber(c) })),
  )
  const file: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    name,
    tenant,
    savedAt: new Date().toISOString(),
    scenario: shared.scenarios.selected(tenant),
    worlds: worlds.map((w) => snapshotWorld(w, shared)),
    chains,
  }
  shared.snapshots.put(file)
  return summary(file)
}

/** Drops the key's worlds and fills them back from saved ones, the key's scenario choice first. */
async function refill(shared: SandboxState, tenant: string, scenario: string, worlds: SavedWorld[]) {
  shared.tenants.reset(tenant)
  try {
    shared.scenarios.select(tenant, scenario)
  } catch {
    // a scenario no longer known: the key stays in its current one
  }
  for (const saved of worlds) await fillWorld(shared.tenants.get(tenant, saved.scenario), saved, shared)
}

/**
 * Puts the key's worlds back as the snapshot holds them; other keys are not touched. A snapshot whose records its
 * tables refuse answers 409 naming it, and the key keeps the state it had.
 */
export async function restoreSnapshot(
  shared: SandboxState,
  tenant: string,
  name: string,
): Promise<SnapshotSummary> {
  const file = shared.snapshots.get(tenant, name)
  if (!file) throw new SnapshotNotFoundError(name)
  const before = {
    scenario: shared.scenarios.selected(tenant),
    worlds: [...shared.tenants.all()].filter((w) => w.tenant === tenant).map((w) => snapshotWorld(w, shared)),
  }
  try {
    await refill(shared, tenant, file.scenario, file.worlds as SavedWorld[])
  } catch (error) {
    await refill(shared, tenant, before.scenario, before.worlds)
    const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0]
    throw new DamagedSnapshotError(
      name,
      issue
        ? `a record it holds is refused: ${issue.path.map(String).join('.')}: ${issue.message}`
        : `it could not be filled back: ${(error as Error).message.slice(0, 200)}`,
    )
  }
  return summary(file)
}
