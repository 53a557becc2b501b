// The state webhook chaos keeps between a delivery's start and its attempts: `reorder` holds a delivery until the
// key's next one has gone out, `fail` answers a delivery's first attempt with a status without sending it.

import type { DeliveryRecord } from './format.ts'

/** Held and failed-first deliveries; `send` makes a delivery's first attempt. */
export class WebhookChaos {
  readonly #send: (record: DeliveryRecord) => void
  /** deliveries held back by `reorder`, per key: sent after the key's next delivery */
  readonly #held = new Map<string, { record: DeliveryRecord; timer: NodeJS.Timeout }[]>()
  /** deliveries whose first attempt `fail` answers (the status) without sending */
  readonly #failFirst = new Map<string, number>()

  constructor(send: (record: DeliveryRecord) => void) {
    this.#send = send
  }

  /** `reorder`: holds a delivery until the key's next one has gone out (at most `maxMs`). */
  hold(record: DeliveryRecord, maxMs: number): void {
    let held = this.#held.get(record.tenant)
    if (!held) {
      held = []
      this.#held.set(record.tenant, held)
    }
    const timer = setTimeout(() => this.release(record.tenant, record.id), maxMs)
    timer.unref()
    held.push({ record, timer })
  }

  /** Sends the key's held deliveries (or only `id`). */
  release(tenant: string, id?: string): void {
    const held = this.#held.get(tenant)
    if (!held) return
    for (const entry of [...held]) {
      if (id !== undefined && entry.record.id !== id) continue
      held.splice(held.indexOf(entry), 1)
      clearTimeout(entry.timer)
      this.#send(entry.record)
    }
    if (held.length === 0) this.#held.delete(tenant)
  }

  /** `fail`: the delivery's first attempt answers `status` without sending. */
  failFirst(id: string, status: number): void {
    this.#failFirst.set(id, status)
  }

  /** The status `fail` gives this first attempt (once), or undefined. */
  takeFailFirst(id: string): number | undefined {
    const status = this.#failFirst.get(id)
    if (status !== undefined) this.#failFirst.delete(id)
    return status
  }

  /** Drops every held delivery (their timers too). */
  close(): void {
    for (const held of this.#held.values()) for (const entry of held) clearTimeout(entry.timer)
    this.#held.clear()
  }
}
