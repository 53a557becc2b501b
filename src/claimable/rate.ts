// How many claimable sandboxes one client address may create: `perHour` in any hour (a sliding window), counted by
// the address's group (an IPv6 address by its /64). Memory: at most `perHour` times for each address seen in the last
// hour; addresses whose window emptied are dropped as they are met.
const HOUR_MS = 3_600_000

export class ClaimRate {
  readonly #times = new Map<string, number[]>()
  constructor(readonly perHour: number) {}

  /** Counts a claim of `address` at `now`; false (nothing counted) when it made `perHour` in the last hour. */
  take(address: string, now: number): boolean {
    const recent = (this.#times.get(address) ?? []).filter((t) => t > now - HOUR_MS)
    if (recent.length >= this.perHour) {
      this.#times.set(address, recent)
      return false
    }
    recent.push(now)
    this.#times.set(address, recent)
    if (this.#times.size > 10_000)
      for (const [other, times] of this.#times)
        if (times.every((t) => t <= now - HOUR_MS)) this.#times.delete(other)
    return true
  }
}
