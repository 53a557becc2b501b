// What the webhook delivery records in memory take, every key's together: each keeps its body and, for each attempt,
// the receiver's headers and the start of its body, so a key's 500 records reach about 20 MB against a receiver that
// answers large headers, and claimed keys (--claimable, up to --max-claims of them) would take the process's
// memory. Past RECORD_BYTES_TOTAL the oldest records are dropped from memory, claimed keys' first, and claimed keys
// together keep at most half of it (their own oldest go), as the journal does.
import { type ClaimedKeys, claimedShare } from '../contract/claimed-share.ts'
import type { DeliveryRecord } from './format.ts'

/** The bytes of delivery records every key keeps in memory together. */
export const RECORD_BYTES_TOTAL = 64 * 1024 * 1024

/** About what a record takes in memory: its body, URL and each attempt with what its receiver answered. */
export function recordBytes(record: DeliveryRecord): number {
  let bytes = 256 + record.body.length + record.url.length
  for (const attempt of record.attempts) {
    bytes += 128 + (attempt.error?.length ?? 0)
    if (!attempt.response) continue
    bytes += attempt.response.body.length
    for (const [name, value] of Object.entries(attempt.response.headers)) bytes += name.length + value.length
  }
  return bytes
}

/** The records counted, oldest first, claimed keys' apart. */
export class RecordBudget {
  readonly #claimed = new Map<DeliveryRecord, number>()
  readonly #others = new Map<DeliveryRecord, number>()
  #claimedBytes = 0
  #otherBytes = 0

  /** `onDrop`: takes a dropped record out of memory */
  constructor(
    readonly total = RECORD_BYTES_TOTAL,
    readonly isClaimed: ClaimedKeys = () => false,
    readonly onDrop: (record: DeliveryRecord) => void = () => {},
  ) {}

  /** Bytes counted now: every key's, and claimed keys'. */
  get bytes(): { all: number; claimed: number } {
    return { all: this.#claimedBytes + this.#otherBytes, claimed: this.#claimedBytes }
  }

  /**
   * Counts `record` at its size now (new, or grown by an attempt) and drops (`onDrop`) claimed keys' oldest while they
   * hold more than half of the total, then the oldest (claimed keys' first) while every key's hold more than the
   * total; answers the records dropped. `record` itself is never dropped.
   */
  count(record: DeliveryRecord): DeliveryRecord[] {
    const claimed = this.isClaimed(record.tenant)
    const map = claimed ? this.#claimed : this.#others
    const size = recordBytes(record)
    const grown = size - (map.get(record) ?? 0)
    map.set(record, size)
    if (claimed) this.#claimedBytes += grown
    else this.#otherBytes += grown
    const dropped: DeliveryRecord[] = []
    const oldest = (from: Map<DeliveryRecord, number>) => {
      for (const candidate of from.keys()) return candidate === record ? undefined : candidate
      return undefined
    }
    for (let next = oldest(this.#claimed); next && this.#claimedBytes > claimedShare(this.total); ) {
      this.drop(next)
      dropped.push(next)
      next = oldest(this.#claimed)
    }
    while (this.#claimedBytes + this.#otherBytes > this.total) {
      const next = oldest(this.#claimed) ?? oldest(this.#others)
      if (!next) break
      this.drop(next)
      dropped.push(next)
    }
    return dropped
  }

  /** Stops counting `record` and takes it out of memory (`onDrop`). */
  drop(record: DeliveryRecord): void {
    this.forget(record)
    this.onDrop(record)
  }

  /** Stops counting `record` (dropped, or its key's deliveries forgotten). */
  forget(record: DeliveryRecord): void {
    const claimed = this.#claimed.get(record)
    if (claimed !== undefined) {
      this.#claimed.delete(record)
      this.#claimedBytes -= claimed
      return
    }
    const other = this.#others.get(record)
    if (other === undefined) return
    this.#others.delete(record)
    this.#otherBytes -= other
  }
}
