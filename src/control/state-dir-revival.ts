// Revival for --state-dir: the rows of a world read back from WORLD_ROWS' text, the timers a revived world
// arms again, and how a world's Tables and Maps are observed (Slot, observeMap).
import type { World } from '../contract/world.ts'
import { payerState, resumeKycReview } from '../resources/payers/index.ts'
import { paymentDetailState, resumeDetailReview } from '../resources/payment-details/index.ts'
import { resumeSettlements } from '../resources/payment-intents/index.ts'
import { payoutState, scheduleNext } from '../resources/payouts/index.ts'
import { restoreWorldRates } from '../resources/rates/index.ts'
import { requestState, resumeOfframp, resumeRecurringSchedule } from '../resources/requests/index.ts'
import { inWorld } from '../resources/services.ts'
import type { SandboxState } from './sandbox-state.ts'
import { rowKey } from './state-dir-schema.ts'

/** One Table or Map of one world as --state-dir writes it: each key's row, and the changes not committed yet. */
export interface Slot {
  world: World
  tbl: string
  /** key -> the seq (rowid) of its row */
  readonly rows: Map<string, number>
  /** key -> what to write (undefined: deleted), the changes since the last commit */
  pending: Map<string, unknown>
}

/** Observes a Map: every set and delete is reported (its values are what --state-dir writes). */
export function observeMap(map: Map<unknown, unknown>, changed: (key: string, value: unknown) => void): void {
  const { set, delete: remove, clear } = Map.prototype
  map.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    set.call(this, key, value)
    changed(String(key), value)
    return this
  }
  map.delete = function (this: Map<unknown, unknown>, key: unknown) {
    const had = remove.call(this, key)
    if (had) changed(String(key), undefined)
    return had
  }
  map.clear = function (this: Map<unknown, unknown>) {
    for (const key of this.keys()) changed(String(key), undefined)
    clear.call(this)
  }
}

export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300)
}

export async function resumeTimers(world: World, shared: SandboxState): Promise<void> {
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

/** A world's rows from WORLD_ROWS' text (fields split by U+001F, rows by U+001E); an unreadable row is skipped. */
export function* worldRows(
  text: string,
): Generator<{ seq: number; tbl: string; key: string; value: string }> {
  let at = 0
  while (at < text.length) {
    let end = text.indexOf('\u001e', at)
    if (end === -1) end = text.length
    const zero = text.indexOf('\u001f', at)
    const first = zero === -1 ? -1 : text.indexOf('\u001f', zero + 1)
    const second = first === -1 ? -1 : text.indexOf('\u001f', first + 1)
    if (second === -1 || second > end) {
      // a row written by hand with the separators in it: the rest of this row is not readable
      at = end + 1
      continue
    }
    const seq = Number(text.slice(at, zero))
    const row = {
      seq,
      tbl: text.slice(zero + 1, first),
      key: rowKey(text.slice(first + 1, second)),
      value: text.slice(second + 1, end),
    }
    at = end + 1
    yield row
  }
}
