// Password checks per client address. A login costs scrypt (about 50 ms of CPU and 16 MB on libuv's thread pool)
// whatever the answer: 400 anonymous wrong logins took 19 CPU seconds and held the pool's four threads for 36 s
// (every fs and DNS call of the process waits behind them), and nothing bounded guessing a password. So one client
// address (an IPv6 address with its /64) checks at most LOGINS_PER_SIGNUP × --signup-rate passwords a minute; past
// it, 429 before any hashing.

import { SandboxError } from '../../contract/sandbox-error.ts'
import { addressGroup } from '../../contract/security.ts'

/** Password checks a client address may make a minute, per registration --signup-rate allows. */
export const LOGINS_PER_SIGNUP = 3

/** 429: the address checked the most passwords it may this minute. */
export class LoginRateError extends SandboxError {
  override name = 'LoginRateError'
  constructor(perMinute: number, retryAfterSeconds: number) {
    super(
      429,
      `Too many logins from this address: at most ${perMinute} a minute (three times the sandbox's --signup-rate)`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    )
  }
}

/** Password checks per client address in its current minute. */
export class LoginRate {
  readonly perMinute: number
  readonly #windows = new Map<string, { since: number; count: number }>()

  constructor(signupsPerMinute: number) {
    this.perMinute = signupsPerMinute * LOGINS_PER_SIGNUP
  }

  /** Counts a password check from `address`; throws LoginRateError past the minute's bound. */
  admit(address: string, now: number): void {
    const group = addressGroup(address)
    let window = this.#windows.get(group)
    if (!window || now - window.since >= 60_000) {
      // forget addresses whose minute is over, so the map stays as small as the traffic of one minute
      for (const [a, w] of this.#windows) if (now - w.since >= 60_000) this.#windows.delete(a)
      window = { since: now, count: 0 }
      this.#windows.set(group, window)
    }
    if (window.count >= this.perMinute)
      throw new LoginRateError(this.perMinute, Math.max(1, Math.ceil((window.since + 60_000 - now) / 1000)))
    window.count++
  }
}
