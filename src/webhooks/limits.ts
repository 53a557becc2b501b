// The bounds of webhook delivery: webhooks one key may register (--max-webhooks), delivery records kept per key,
// delivery attempts one key may make per minute (--webhook-rate), and attempts of every key under way at once
// (--webhook-total), of which claimed keys (--claimable) hold at most half. Each attempt holds a connection (a file
// descriptor) until its receiver answers or its timeout: 100 claimed keys, each within its own rate, held 9,300 of
// them towards receivers that never answer, and a few hundred would take every descriptor the process has.
import { type ClaimedKeys, claimedShare, claimedShareNote } from '../contract/claimed-share.ts'

/** Delivery records kept per key (the oldest go first). */
export const MAX_DELIVERIES_PER_KEY = 500

/** Delivery attempts of every key under way at once, by default. */
export const DEFAULT_ATTEMPTS_TOTAL = 256

/** The per-key caps, the attempt rate of each key and the attempts under way. */
export class WebhookLimits {
  /** webhooks one key may register */
  readonly maxPerKey: number
  /** delivery attempts one key may make per minute */
  readonly attemptsPerMinute: number
  /** delivery attempts of every key under way at once */
  readonly attemptsTotal: number
  /** per key: the start of its current minute and the attempts made in it */
  readonly #rate = new Map<string, { since: number; count: number }>()
  readonly #claimed: ClaimedKeys
  #underWay = 0
  #claimedUnderWay = 0

  constructor(
    options: {
      maxPerKey?: number
      attemptsPerMinute?: number
      attemptsTotal?: number
      claimed?: ClaimedKeys
    } = {},
  ) {
    this.maxPerKey = options.maxPerKey ?? 25
    this.attemptsPerMinute = options.attemptsPerMinute ?? 120
    this.attemptsTotal = options.attemptsTotal ?? DEFAULT_ATTEMPTS_TOTAL
    this.#claimed = options.claimed ?? (() => false)
  }

  /** Counts one attempt of a key; false past --webhook-rate in the current minute. */
  withinRate(tenant: string): boolean {
    const now = Date.now()
    let window = this.#rate.get(tenant)
    if (!window || now - window.since >= 60_000) {
      window = { since: now, count: 0 }
      this.#rate.set(tenant, window)
    }
    window.count++
    return window.count <= this.attemptsPerMinute
  }

  /**
   * Admits one attempt of a key: why it is not sent (its key's rate, every key's attempts under way, claimed keys'
   * share of them), or the function to call once it has ended.
   */
  admit(tenant: string): string | (() => void) {
    if (!this.withinRate(tenant))
      return `the key made ${this.attemptsPerMinute} delivery attempts this minute (--webhook-rate)`
    if (this.#underWay >= this.attemptsTotal)
      return `the sandbox has ${this.attemptsTotal} delivery attempts of every key under way, its most (--webhook-total)`
    const claimed = this.#claimed(tenant)
    const share = claimedShare(this.attemptsTotal)
    if (claimed && this.#claimedUnderWay >= share)
      return `the sandbox has its most delivery attempts under way: ${claimedShareNote(`${share} of them`, '--webhook-total')}`
    this.#underWay++
    if (claimed) this.#claimedUnderWay++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.#underWay--
      if (claimed) this.#claimedUnderWay--
    }
  }
}
