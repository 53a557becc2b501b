// Named snapshots of a key (POST /__sandbox/snapshots, request-sandbox snapshot save|load|ls|rm): every world of the
// key (those evicted to --state-dir too; no other key's is read), serialised as --state-dir serialises worlds
// (src/persistence/state-dir.ts: each declared Table and Map, clock, rules, seeded ids), with the block each live chain was at.
// Restoring drops the key's worlds and fills them back in one step (one commit with --state-dir), so its requests,
// payments, payers and timers are as they were; other keys are not touched. With --state-dir each snapshot is its own
// file, `snapshots/<key hash>/<name>.json`, kept across restarts; without, they live in memory (store.ts
// bounds both).
import { blockNumber } from '../chain/index.ts'
import { NotFoundError } from '../contract/sandbox-error.ts'
import type { SandboxState } from '../control/services.ts'
import {
  checkSnapshotName,
  DamagedSnapshotError,
  SNAPSHOT_FORMAT,
  type SnapshotFile,
  type SnapshotSummary,
  summary,
} from './store.ts'
import { fillWorld, type PreparedWorld, prepareWorld, type SavedWorld, snapshotWorld } from './world.ts'

export class SnapshotNotFoundError extends NotFoundError {
  override name = 'SnapshotNotFoundError'
  constructor(name: string) {
    super(`No snapshot named ${name} for this key`)
  }
}

/** Saves the key's worlds under `name` (replacing a snapshot of that name); over a bound, 507 naming it. */
export async function saveSnapshot(
  shared: SandboxState,
  tenant: string,
  name: string,
): Promise<SnapshotSummary> {
  checkSnapshotName(name)
  // refused before any work when the count is reached (the bytes are checked once the text is known)
  shared.snapshots.checkRoom(tenant, name, 0)
  // the key's current world exists (seeded) even if it has made no call yet
  await shared.scenarios.world(tenant)
  const chains = await Promise.all(
    [...shared.chains.values()].map(async (c) => ({ network: c.network, blockNumber: await blockNumber(c) })),
  )
  // the caller's worlds only (those evicted to --state-dir brought back): no other key's world is read
  const worlds = shared.tenants.worldsOf(tenant)
  const file: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    name,
    tenant,
    savedAt: new Date().toISOString(),
    scenario: shared.scenarios.selected(tenant),
    worlds: worlds.map((w) => snapshotWorld(w, shared)),
    chains,
  }
  const saved = summary(file)
  shared.snapshots.put(file, saved)
  return saved
}

/** The 409 of a snapshot whose records its tables refuse (or that cannot be filled back for another reason). */
function refused(name: string, error: unknown): DamagedSnapshotError {
  const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0]
  return new DamagedSnapshotError(
    name,
    issue
      ? `a record it holds is refused: ${issue.path.map(String).join('.')}: ${issue.message}`
      : `it could not be filled back: ${(error as Error).message.slice(0, 200)}`,
  )
}

/** A key's scenario choice and worlds, as a restore fills them in. */
interface KeyState {
  scenario: string
  worlds: PreparedWorld[]
}

/** Fills the key's new worlds (after its reset), its scenario choice first; the promises of their timers. */
function fill(shared: SandboxState, tenant: string, state: KeyState): Promise<void>[] {
  try {
    shared.scenarios.select(tenant, state.scenario)
  } catch {
    // a scenario no longer known: the key stays in its current one
  }
  return state.worlds.map((prepared) =>
    fillWorld(shared.tenants.get(tenant, prepared.saved.scenario), prepared, shared),
  )
}

/**
 * Puts the key's worlds back as the snapshot holds them; other keys are not touched. Every world is built and
 * checked before the key is touched: a snapshot whose records its tables refuse answers 409 naming it, and the key
 * keeps the state it had. The key's reset and refill are one step (`Tenants.replace`) and, with --state-dir, one
 * commit: a kill at any moment leaves the key as it was or as the snapshot holds it.
 */
export async function restoreSnapshot(
  shared: SandboxState,
  tenant: string,
  name: string,
): Promise<SnapshotSummary> {
  const file = shared.snapshots.get(tenant, name)
  if (!file) throw new SnapshotNotFoundError(name)
  let next: KeyState
  try {
    next = {
      scenario: file.scenario,
      worlds: (file.worlds as SavedWorld[]).map((saved) => prepareWorld(saved, shared.log)),
    }
  } catch (error) {
    throw refused(name, error)
  }
  // what the key has now (its records as they are: nothing copied unless the fill below fails)
  const current = {
    scenario: shared.scenarios.selected(tenant),
    worlds: shared.tenants.worldsOf(tenant).map((w) => snapshotWorld(w, shared)),
  }
  const resumed = shared.tenants.replace(tenant, () => {
    try {
      return fill(shared, tenant, next)
    } catch (error) {
      // the key's previous worlds back, in the same step (and commit): it never shows half of the snapshot
      shared.tenants.reset(tenant)
      fill(shared, tenant, {
        scenario: current.scenario,
        worlds: current.worlds.map((saved) => prepareWorld(saved, shared.log)),
      })
      throw refused(name, error)
    }
  })
  await Promise.all(resumed)
  return summary(file)
}
