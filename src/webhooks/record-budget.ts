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

/**
 * The records counted, oldest first, claimed keys' apart; in each, the records put back after a restart before those
 * made since (every one of which is newer).
 */
export class RecordBudget {
  readonly #claimedSaved = new Map<DeliveryRecord, number>()
  readonly #claimed = new Map<DeliveryRecord, number>()
  readonly #othersSaved = new Map<DeliveryRecord, number>()
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
   * Counts `record` at its size now (new, put back after a restart: `saved`, or grown by an attempt) and drops
   * (`onDrop`) claimed keys' oldest while they hold more than half of the total, then the oldest (claimed keys' first)
   * while every key's hold more than the total; answers the records dropped. `record` itself is never dropped.
   */
  count(record: DeliveryRecord, saved = false): DeliveryRecord[] {
    const claimed = this.isClaimed(record.tenant)
    const map =
      this.#holding(record) ??
      (claimed ? (saved ? this.#claimedSaved : this.#claimed) : saved ? this.#othersSaved : this.#others)
    const size = recordBytes(record)
    const grown = size - (map.get(record) ?? 0)
    map.set(record, size)
    if (map === this.#claimed || map === this.#claimedSaved) this.#claimedBytes += grown
    else this.#otherBytes += grown
    const dropped: DeliveryRecord[] = []
    // the first of the saved, else of the others; none when it is `record`
    const oldest = (saved: Map<DeliveryRecord, number>, made: Map<DeliveryRecord, number>) => {
      for (const candidate of saved.size ? saved.keys() : made.keys())
        return candidate === record ? undefined : candidate
      return undefined
    }
    const oldestClaimed = () => oldest(this.#claimedSaved, this.#claimed)
    for (let next = oldestClaimed(); next && this.#claimedBytes > claimedShare(this.total); ) {
      this.drop(next)
      dropped.push(next)
      next = oldestClaimed()
    }
    while (this.#claimedBytes + this.#otherBytes > this.total) {
      const next = oldestClaimed() ?? oldest(this.#othersSaved, this.#others)
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
    const map = this.#holding(record)
    if (!map) return
    const size = map.get(record)!
    map.delete(record)
    if (map === this.#claimed || map === this.#claimedSaved) this.#claimedBytes -= size
    else this.#otherBytes -= size
  }

  /** The map that counts `record`, if one does. */
  #holding(record: DeliveryRecord): Map<DeliveryRecord, number> | undefined {
    for (const map of [this.#claimedSaved, this.#claimed, this.#othersSaved, this.#others])
      if (map.has(record)) return map
    return undefined
  }
}
