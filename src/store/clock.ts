// One clock per tenant world. It runs with real time plus an offset that `advance` grows, and runs the
// world's timed transitions (KYC delays, off-ramp steps, recurring due dates) when they fall due: by a
// real-time timer, or at once when the clock is advanced past them.

/** A scheduled transition. */
interface Timer {
  id: number
  at: number
  label: string
  task: () => Promise<void> | void
}

/** Called after the clock moved (the chain's time follows the furthest tenant clock). */
export type ClockListener = (now: Date) => Promise<void> | void

// the last instant formatted: a busy sandbox stamps many records in the same millisecond (a create's createdAt, its
// journal entry), and toISOString costs about 0.4 µs each time; one entry for every clock (pure: a time's text)
let lastIsoMs = Number.NaN
let lastIso = ''

/** `new Date(ms).toISOString()`, formatted once per millisecond. */
export function isoOf(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString()
    lastIsoMs = ms
  }
  return lastIso
}

/** A tenant's clock: now(), advance(), and timed tasks that run in due order. */
export class TenantClock {
  #offsetMs = 0
  #nextId = 1
  #timers: Timer[] = []
  #realTimer: NodeJS.Timeout | undefined
  #running: Promise<void> = Promise.resolve()
  /** the world was dropped: nothing is scheduled any more */
  #disposed = false
  readonly #listeners = new Set<ClockListener>()
  readonly #onError: (message: string, error: unknown) => void

  constructor(onError: (message: string, error: unknown) => void) {
    this.#onError = onError
  }

  /** The tenant's current time. */
  now(): Date {
    return new Date(Date.now() + this.#offsetMs)
  }

  nowMs(): number {
    return Date.now() + this.#offsetMs
  }

  nowIso(): string {
    return isoOf(Date.now() + this.#offsetMs)
  }

  /** Runs `task` when the clock reaches `at` (at once, on the next tick, if already due). Returns a timer id. */
  schedule(at: Date, label: string, task: () => Promise<void> | void): number {
    const id = this.#nextId++
    // a dropped world's clock keeps nothing (work that was still under way, such as timers resuming after a
    // --state-dir restart, must not arm a timer for a world that was reset)
    if (this.#disposed) return id
    this.#timers.push({ id, at: at.getTime(), label, task })
    this.#timers.sort((a, b) => a.at - b.at || a.id - b.id)
    this.#arm()
    return id
  }

  /** Cancels a scheduled task. */
  cancel(id: number): void {
    this.#timers = this.#timers.filter((t) => t.id !== id)
    this.#arm()
  }

  /** Labels and times of what is scheduled, soonest first. */
  pending(): { id: number; at: string; label: string }[] {
    return this.#timers.map((t) => ({ id: t.id, at: new Date(t.at).toISOString(), label: t.label }))
  }

  /** Moves the clock forward by `ms` (never backward) and runs every task that falls due, in order. */
  async advance(ms: number): Promise<Date> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward')
    this.#offsetMs += ms
    const now = this.now()
    for (const listener of this.#listeners) await listener(now)
    await this.runDue()
    return now
  }

  /** Calls `listener` after each advance. */
  onAdvance(listener: ClockListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Runs the tasks that are due now (serialised: two callers never run the same task twice). */
  runDue(): Promise<void> {
    this.#running = this.#running.then(async () => {
      for (;;) {
        const next = this.#timers[0]
        if (!next || next.at > this.now().getTime()) break
        this.#timers.shift()
        try {
          await next.task()
        } catch (error) {
          this.#onError(`timed task "${next.label}" failed`, error)
        }
      }
      this.#arm()
    })
    return this.#running
  }

  /** Stops the real-time timer (the world is being dropped). */
  dispose(): void {
    this.#disposed = true
    clearTimeout(this.#realTimer)
    this.#timers = []
  }

  #arm(): void {
    clearTimeout(this.#realTimer)
    const next = this.#timers[0]
    if (!next) return
    const delay = Math.max(0, Math.min(next.at - this.now().getTime(), 2 ** 31 - 1))
    this.#realTimer = setTimeout(() => void this.runDue(), delay)
    this.#realTimer.unref()
  }
}
