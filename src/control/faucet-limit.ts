// The faucet's windows on a shared listener: how many faucet calls and triggers (whose payers the deployer funds) a
// key made in the current real-time minute, and every key together. Each mint is a transaction of the one deployer
// on a chain every key shares, sent one after another: one stranger looping the faucet or a trigger, or many keys
// each within its own window (claimed keys: 100 of them held another key's mint for 25 s), would hold the deployer's
// queue, and every other key's mints, hostage. The total is counted in slices of 10 seconds (a sixth of it each), so
// that a burst at the start of a minute queues few mints ahead of another key's; claimed keys (--claimable) take at
// most half of each slice. Kept by the sandbox, keyed by the API key and outside every world: `POST /__sandbox/reset`
// and a snapshot restore (which replace the key's worlds) leave it.
import { type ClaimedKeys, claimedShare, claimedShareNote } from '../contract/claimed-share.ts'
import { SandboxError } from '../contract/sandbox-error.ts'

/** The faucet calls one key may make a minute on a shared listener. */
export const FAUCET_CALLS_PER_MINUTE = 30

/** The faucet calls every key together may make a minute on a shared listener (--faucet-total). */
export const FAUCET_TOTAL_PER_MINUTE = 300

/** The slice of real time in which every key's faucet calls together are counted: a sixth of a minute. */
const SLICE_MS = 10_000

/** Keys past which windows older than a minute are swept (so a stream of new keys cannot grow the map for ever). */
const SWEEP_AT = 10_000

interface Window {
  startMs: number
  count: number
  /** its length, ms */
  ms: number
}

/** Every key's faucet window and all keys' together (real time, not the key's clock, which the key moves itself). */
export class FaucetLimit {
  readonly #windows = new Map<string, Window>()
  #all: Window & { claimed: number } = { startMs: 0, count: 0, ms: SLICE_MS, claimed: 0 }
  /** every key's faucet calls together in a slice of 10 seconds */
  readonly perSlice: number

  constructor(
    readonly perMinute = FAUCET_CALLS_PER_MINUTE,
    readonly total = FAUCET_TOTAL_PER_MINUTE,
    readonly claimed?: ClaimedKeys,
  ) {
    this.perSlice = Math.max(1, Math.floor((total * SLICE_MS) / 60_000))
  }

  /**
   * Counts a faucet call of `tenant` (every scenario of the key shares it), or throws 429 with Retry-After (its own
   * window full, every key's, or claimed keys' share of it). A trigger counts too (`what`: it funds its payer with the
   * deployer's mints).
   */
  count(tenant: string, nowMs = Date.now(), what = 'faucet calls'): void {
    const current = this.#windows.get(tenant)
    const window =
      current && nowMs - current.startMs < 60_000 ? current : { startMs: nowMs, count: 0, ms: 60_000 }
    if (window.count >= this.perMinute)
      throw tooMany(
        window,
        nowMs,
        (wait) =>
          `This key made ${this.perMinute} ${what} this minute, the limit of a shared sandbox: try again in ${wait} s`,
      )
    if (nowMs - this.#all.startMs >= SLICE_MS)
      this.#all = { startMs: nowMs, count: 0, ms: SLICE_MS, claimed: 0 }
    const all = this.#all
    if (all.count >= this.perSlice)
      throw tooMany(
        all,
        nowMs,
        (wait) =>
          `Every key together made ${this.perSlice} ${what} these 10 seconds (a sixth of --faucet-total, ${this.total} a minute), the most the deployer all keys share sends for them: try again in ${wait} s, or start the sandbox with a higher --faucet-total`,
      )
    const claimed = this.claimed?.(tenant) === true
    const share = claimedShare(this.perSlice)
    if (claimed && all.claimed >= share)
      throw tooMany(
        all,
        nowMs,
        () =>
          `This sandbox made its most ${what} these 10 seconds: ${claimedShareNote(`${share} of them every 10 seconds`, '--faucet-total')}`,
      )
    if (!current && this.#windows.size >= SWEEP_AT) this.#sweep(nowMs)
    this.#windows.set(tenant, { startMs: window.startMs, count: window.count + 1, ms: 60_000 })
    all.count++
    if (claimed) all.claimed++
  }

  #sweep(nowMs: number): void {
    for (const [tenant, window] of this.#windows)
      if (nowMs - window.startMs >= 60_000) this.#windows.delete(tenant)
  }
}

/** 429 with Retry-After: the seconds until `window` ends (`message` given them). */
function tooMany(window: Window, nowMs: number, message: (wait: number) => string): SandboxError {
  const wait = Math.max(1, Math.ceil((window.startMs + window.ms - nowMs) / 1000))
  return new SandboxError(429, message(wait), { headers: { 'retry-after': String(wait) } })
}
