// The webhook delivery records kept in memory: each key's newest MAX_DELIVERIES_PER_KEY, every key's together within
// the records' byte budget (record-budget.ts). The same bounds hold for records put back after a restart (the newest
// kept). Each record dropped from memory is told to the `onDrop` listeners: --state-dir deletes its row.
import type { ClaimedKeys } from '../contract/claimed-share.ts'
import type { DeliveryRecord } from './format.ts'
import { MAX_DELIVERIES_PER_KEY } from './limits.ts'
import { RecordBudget } from './record-budget.ts'

/** Every key's delivery records, by key, each key's oldest first. */
export class DeliveryRecords {
  readonly #byTenant = new Map<string, Map<string, DeliveryRecord>>()
  readonly #budget: RecordBudget
  readonly #onDrop: ((record: DeliveryRecord) => void)[] = []

  /** `bytesTotal`: the records' byte budget; `claimed`: the keys whose records take at most half of it */
  constructor(bytesTotal?: number, claimed?: ClaimedKeys) {
    this.#budget = new RecordBudget(bytesTotal, claimed, (record) => {
      this.#byTenant.get(record.tenant)?.delete(record.id)
      for (const listener of this.#onDrop) listener(record)
    })
  }

  /** One record of a key. */
  get(tenant: string, id: string): DeliveryRecord | undefined {
    return this.#byTenant.get(tenant)?.get(id)
  }

  /** Whether `record` is kept (not dropped, nor its key's records forgotten). */
  kept(record: DeliveryRecord): boolean {
    return this.#byTenant.get(record.tenant)?.get(record.id) === record
  }

  /** A key's records, oldest first. */
  of(tenant: string): DeliveryRecord[] {
    return [...(this.#byTenant.get(tenant)?.values() ?? [])]
  }

  /** Every key's records, each key's oldest first. */
  all(): DeliveryRecord[] {
    return [...this.#byTenant.values()].flatMap((mine) => [...mine.values()])
  }

  /** A new record: its key's oldest goes past the per-key bound, then the budget counts it. */
  add(record: DeliveryRecord): void {
    const mine = this.#mine(record.tenant)
    mine.set(record.id, record)
    this.#trim(mine)
    this.#budget.count(record)
  }

  /** A kept record grew (an attempt added): counted again at its size. */
  grown(record: DeliveryRecord): void {
    if (this.kept(record)) this.#budget.count(record)
  }

  /**
   * Puts saved records back among each key's records by id (ULIDs: by time), then applies the bounds as to new ones:
   * each key keeps its newest MAX_DELIVERIES_PER_KEY, the budget drops past its total. Answers the saved records kept.
   */
  restore(records: DeliveryRecord[]): DeliveryRecord[] {
    const saved = [...records].sort(byId)
    const byTenant = new Map<string, DeliveryRecord[]>()
    for (const record of saved) {
      const mine = byTenant.get(record.tenant)
      if (mine) mine.push(record)
      else byTenant.set(record.tenant, [record])
    }
    for (const [tenant, theirs] of byTenant) {
      // a record in memory stays the one kept under its id (a stable sort keeps it first)
      const merged = [...(this.#byTenant.get(tenant)?.values() ?? []), ...theirs].sort(byId)
      const mine = new Map<string, DeliveryRecord>()
      for (const record of merged) if (!mine.has(record.id)) mine.set(record.id, record)
      this.#byTenant.set(tenant, mine)
      this.#trim(mine)
    }
    // counted as older than every record made since the start (they are): the budget drops them first
    for (const record of saved) if (this.kept(record)) this.#budget.count(record, true)
    return saved.filter((record) => this.kept(record))
  }

  /** Forgets a key's records (not told as drops); answers them. */
  forget(tenant: string): DeliveryRecord[] {
    const records = this.of(tenant)
    for (const record of records) this.#budget.forget(record)
    this.#byTenant.delete(tenant)
    return records
  }

  /** Calls `listener` with each record dropped from memory by a bound. */
  onDrop(listener: (record: DeliveryRecord) => void): void {
    this.#onDrop.push(listener)
  }

  #mine(tenant: string): Map<string, DeliveryRecord> {
    let mine = this.#byTenant.get(tenant)
    if (!mine) {
      mine = new Map()
      this.#byTenant.set(tenant, mine)
    }
    return mine
  }

  /** Drops a key's oldest records past the per-key bound. */
  #trim(mine: Map<string, DeliveryRecord>): void {
    while (mine.size > MAX_DELIVERIES_PER_KEY) this.#budget.drop(mine.values().next().value!)
  }
}

const byId = (a: DeliveryRecord, b: DeliveryRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
