// Webhook delivery as the service documents it (api-contract §5): a POST of compact JSON signed with
// HMAC-SHA256 (hex) of the exact body bytes, a ULID delivery id, a retry count 0..3, a 5 s timeout, and
// retries after 1 s, 5 s and 15 s on any non-2xx or error. Every attempt lands in the key's journal.

import type { SandboxEvent } from '../contract/events.ts'
import type { Journal } from '../control/journal.ts'
import type { WebhookRegistry } from '../resources/webhooks/registry.ts'
import type { IdGenerator } from '../store/ids.ts'
import type { Tenants } from '../store/tenants.ts'
import { type DeliveryRecord, deliveryHeaders, webhookBody } from './webhook-format.ts'

export { type DeliveryAttempt, type DeliveryRecord, signWebhook, webhookBody } from './webhook-format.ts'

/** An app's webhook route called in-process (a Fetch Request in, a Response out). */
export type WebhookHandler = (request: Request) => Response | Promise<Response>

/** Delivery settings (SandboxOptions.webhooks). */
export interface WebhookDeliveryOptions {
  /** waits before retries 1, 2, 3 (default [1000, 5000, 15000] ms, as the service) */
  retryDelaysMs?: number[]
  /** per-attempt timeout (default 5000 ms) */
  timeoutMs?: number
  /** a URL that gets every event of every key (--webhook-url, for a server in a container) */
  url?: string
  /** its signing secret (--webhook-secret; generated when absent) */
  secret?: string
  /** how deliveries to URLs are sent (default: global fetch; the MSW harness passes one that bypasses MSW) */
  fetch?: (request: Request) => Promise<Response>
}

interface Target {
  id: string
  url: string
  secret: string
}

const MAX_DELIVERIES_PER_KEY = 500

/** Sends events to the webhooks of their key (and to the server-wide URL), retrying as the service does. */
export class WebhookDelivery {
  readonly defaultTarget: Target | null
  readonly registry: WebhookRegistry
  readonly #deps: { ids: IdGenerator; journal: Journal; tenants: Tenants }
  /** waits before retries 1, 2, 3 */
  readonly retryDelaysMs: readonly number[]
  /** per-attempt timeout */
  readonly timeoutMs: number
  readonly #deliveries = new Map<string, Map<string, DeliveryRecord>>()
  readonly #timers = new Map<string, NodeJS.Timeout>()
  readonly #handlers = new Map<string, WebhookHandler>()
  readonly #fetch: (request: Request) => Promise<Response>
  #closed = false

  constructor(
    registry: WebhookRegistry,
    deps: { ids: IdGenerator; journal: Journal; tenants: Tenants },
    options: WebhookDeliveryOptions = {},
  ) {
    this.registry = registry
    this.#deps = deps
    // The service retries at most 3 times (retry count 0..3): a longer schedule is cut there.
    this.retryDelaysMs = (options.retryDelaysMs ?? [1000, 5000, 15000]).slice(0, 3)
    this.timeoutMs = options.timeoutMs ?? 5000
    this.#fetch = options.fetch ?? ((request) => fetch(request))
    this.defaultTarget = options.url
      ? { id: 'default', url: options.url, secret: options.secret ?? deps.ids.hex(32) }
      : null
  }

  /** Sends a domain event to every active webhook of its key. */
  handleEvent(event: SandboxEvent): DeliveryRecord[] {
    return this.#targets(event.tenant).map((target) =>
      this.#start(
        target,
        event.tenant,
        event.scenario,
        event.type,
        event.id,
        false,
        webhookBody(event.payload),
      ),
    )
  }

  /** Sends a test payload to every active webhook of a key (`x-request-network-test: true`). */
  sendTest(tenant: string, scenario: string, payload: Record<string, unknown>): DeliveryRecord[] {
    const body = webhookBody(payload)
    return this.#targets(tenant).map((t) =>
      this.#start(t, tenant, scenario, String(payload.event), null, true, body),
    )
  }

  /** Whether a key has anything to deliver to. */
  hasTargets(tenant: string): boolean {
    return this.#targets(tenant).length > 0
  }

  /** Sends a delivery again, from retry count 0, with the same delivery id and body (a fresh signature). */
  redeliver(tenant: string, deliveryId: string): DeliveryRecord | undefined {
    const record = this.#deliveries.get(tenant)?.get(deliveryId)
    if (!record) return undefined
    clearTimeout(this.#timers.get(record.id))
    record.state = 'pending'
    void this.#attempt(record, 0)
    return record
  }

  /** A key's deliveries, newest first. */
  deliveries(tenant: string): DeliveryRecord[] {
    return [...(this.#deliveries.get(tenant)?.values() ?? [])].reverse()
  }

  /** One delivery record of a key (--state-dir writes it after each attempt). */
  record(tenant: string, deliveryId: string): DeliveryRecord | undefined {
    return this.#deliveries.get(tenant)?.get(deliveryId)
  }

  /** Every key's delivery records, oldest first (--state-dir). */
  records(): DeliveryRecord[] {
    return [...this.#deliveries.values()].flatMap((mine) => [...mine.values()])
  }

  /** Puts back saved delivery records; the ones still pending get their next attempt now (--state-dir). */
  restore(records: DeliveryRecord[]): void {
    for (const record of records) {
      let mine = this.#deliveries.get(record.tenant)
      if (!mine) {
        mine = new Map()
        this.#deliveries.set(record.tenant, mine)
      }
      mine.set(record.id, record)
      if (record.state === 'pending')
        void this.#attempt(record, Math.min(record.attempts.length, this.retryDelaysMs.length))
    }
  }

  /** Routes deliveries for `url` to an in-process handler instead of the network (test harness). */
  route(url: string, handler: WebhookHandler): () => void {
    this.#handlers.set(url, handler)
    return () => this.#handlers.delete(url)
  }

  /** Cancels pending retries. */
  close(): void {
    this.#closed = true
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
  }

  #targets(tenant: string): Target[] {
    const own = this.registry.list(tenant).filter((w) => w.isActive)
    return this.defaultTarget ? [...own, this.defaultTarget] : own
  }

  #start(
    target: Target,
    tenant: string,
    scenario: string,
    event: string,
    eventId: string | null,
    test: boolean,
    body: string,
  ): DeliveryRecord {
    const record: DeliveryRecord = {
      id: this.#deps.ids.ulid(),
      tenant,
      scenario,
      webhookId: target.id,
      url: target.url,
      event,
      eventId,
      test,
      body,
      state: 'pending',
      attempts: [],
    }
    let mine = this.#deliveries.get(tenant)
    if (!mine) {
      mine = new Map()
      this.#deliveries.set(tenant, mine)
    }
    mine.set(record.id, record)
    if (mine.size > MAX_DELIVERIES_PER_KEY) mine.delete(mine.keys().next().value!)
    void this.#attempt(record, 0)
    return record
  }

  #secretOf(record: DeliveryRecord): string {
    if (record.webhookId === 'default') return this.defaultTarget?.secret ?? ''
    return this.registry.get(record.tenant, record.webhookId)?.secret ?? ''
  }

  async #attempt(record: DeliveryRecord, retryCount: number): Promise<void> {
    if (this.#closed) return
    const headers = deliveryHeaders(record, retryCount, this.#secretOf(record))
    const started = Date.now()
    let status: number | null = null
    let error: string | null = null
    try {
      status = await this.#post(record.url, headers, record.body)
    } catch (e) {
      const err = e as Error
      error = err.name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : describe(err)
    }
    if (this.#closed) return
    const delivered = status !== null && status >= 200 && status < 300
    const retry = !delivered && retryCount < this.retryDelaysMs.length
    const world = this.#deps.tenants.peek(record.tenant, record.scenario)
    const at = (world?.clock.now() ?? new Date()).toISOString()
    record.attempts.push({ retryCount, at, status, error, durationMs: Date.now() - started })
    record.state = delivered ? 'delivered' : retry ? 'pending' : 'failed'
    this.#deps.journal.record(record.tenant, {
      type: 'delivery',
      at,
      scenario: record.scenario,
      deliveryId: record.id,
      webhookId: record.webhookId,
      url: record.url,
      event: record.event,
      test: record.test,
      retryCount,
      status,
      error,
      durationMs: Date.now() - started,
      outcome: delivered ? 'delivered' : retry ? 'retrying' : 'failed',
    })
    if (!retry) return
    const timer = setTimeout(() => {
      this.#timers.delete(record.id)
      void this.#attempt(record, retryCount + 1)
    }, this.retryDelaysMs[retryCount])
    timer.unref()
    this.#timers.set(record.id, timer)
  }

  async #post(url: string, headers: Record<string, string>, body: string): Promise<number> {
    const handler = this.#handlers.get(url)
    const signal = AbortSignal.timeout(this.timeoutMs)
    if (!handler) {
      const response = await this.#fetch(
        new Request(url, { method: 'POST', headers, body, signal, redirect: 'manual' }),
      )
      // Only the status matters; the body is dropped without waiting (an intercepted fetch may never end it).
      void response.body?.cancel().catch(() => undefined)
      return response.status
    }
    const request = new Request(url, { method: 'POST', headers, body, signal })
    const response = await new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      Promise.resolve()
        .then(() => handler(request))
        .then(resolve, reject)
    })
    return response.status
  }
}

function describe(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ? `${error.message}: ${cause.code}` : error.message
}
