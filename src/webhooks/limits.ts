// The per-key bounds of webhook delivery: webhooks one key may register (--max-webhooks), delivery records kept
// per key, and delivery attempts one key may make per minute (--webhook-rate).

/** Delivery records kept per key (the oldest go first). */
export const MAX_DELIVERIES_PER_KEY = 500

/** The per-key caps and the attempt rate of each key. */
export class WebhookLimits {
  /** webhooks one key may register */
  readonly maxPerKey: number
  /** delivery attempts one key may make per minute */
  readonly attemptsPerMinute: number
  /** per key: the start of its current minute and the attempts made in it */
  readonly #rate = new Map<string, { since: number; count: number }>()

  constructor(options: { maxPerKey?: number; attemptsPerMinute?: number } = {}) {
    this.maxPerKey = options.maxPerKey ?? 25
    this.attemptsPerMinute = options.attemptsPerMinute ?? 120
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
}
