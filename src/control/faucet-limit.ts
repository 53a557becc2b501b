// The faucet's per-key window on a shared listener: how many faucet calls and triggers (whose payers the deployer
// funds) a key made in the current real-time minute. Each mint is a deployer transaction on a chain every key shares,
// so one stranger looping the faucet or a trigger would hold the deployer's queue (and every other key's mints)
// hostage. Kept by the sandbox, keyed by the API key and
// outside every world: `POST /__sandbox/reset` and a snapshot restore (which replace the key's worlds) leave it.
import { SandboxError } from '../contract/sandbox-error.ts'

/** The faucet calls one key may make a minute on a shared listener. */
export const FAUCET_CALLS_PER_MINUTE = 30

/** Keys past which windows older than a minute are swept (so a stream of new keys cannot grow the map for ever). */
const SWEEP_AT = 10_000

/** Every key's faucet window (real time, not the key's clock, which the key moves itself). */
export class FaucetLimit {
  readonly #windows = new Map<string, { startMs: number; count: number }>()

  constructor(readonly perMinute = FAUCET_CALLS_PER_MINUTE) {}

  /**
   * Counts a faucet call of `tenant` (every scenario of the key shares it), or throws 429 with Retry-After. A trigger
   * counts too (`what`: it funds its payer with the deployer's mints).
   */
  count(tenant: string, nowMs = Date.now(), what = 'faucet calls'): void {
    const current = this.#windows.get(tenant)
    const window = current && nowMs - current.startMs < 60_000 ? current : { startMs: nowMs, count: 0 }
    if (window.count >= this.perMinute) {
      const wait = Math.max(1, Math.ceil((window.startMs + 60_000 - nowMs) / 1000))
      throw new SandboxError(
        429,
        `This key made ${this.perMinute} ${what} this minute, the limit of a shared sandbox: try again in ${wait} s`,
        { headers: { 'retry-after': String(wait) } },
      )
    }
    if (!current && this.#windows.size >= SWEEP_AT) this.#sweep(nowMs)
    this.#windows.set(tenant, { startMs: window.startMs, count: window.count + 1 })
  }

  #sweep(nowMs: number): void {
    for (const [tenant, window] of this.#windows)
      if (nowMs - window.startMs >= 60_000) this.#windows.delete(tenant)
  }
}
