// Webhook delivery as the service documents it (api-contract §5): a POST of compact JSON signed with
// HMAC-SHA256 (hex) of the exact body bytes, a ULID delivery id, a retry count 0..3, a 5 s timeout, and
// retries after 1 s, 5 s and 15 s on any non-2xx or error. Every attempt lands in the key's journal.

import { AsyncLocalStorage } from 'node:async_hooks'
import type { ClaimedKeys } from '../contract/claimed-share.ts'
import type { SandboxEvent } from '../contract/events.ts'
import type { DeliveryJournal } from '../contract/ports.ts'
import type { IdGenerator } from '../store/ids.ts'
import type { Tenants } from '../store/tenants.ts'
import { WebhookChaos } from './chaos.ts'
import { type ChaosRule, chaosFor } from './chaos-rules.ts'
import { DeliverySpans } from './delivery-spans.ts'
import {
  type DeliveryAttempt,
  type DeliveryRecord,
  deliveryHeaders,
  type ReceiverAnswer,
  webhookBody,
} from './format.ts'
import { type CheckedAddress, DestinationPolicy, DestinationRefusedError } from './hosts.ts'
import { WebhookLimits } from './limits.ts'
import { LISTEN_SCHEME, type ListenAnswer, type ListenAttempt, WebhookListeners } from './listen.ts'
import { answerOf, type PostResult, postPinned } from './post.ts'
import { DeliveryRecords } from './records.ts'
import type { WebhookRegistry } from './registry.ts'

export {
  type DeliveryAttempt,
  type DeliveryRecord,
  type ReceiverAnswer,
  signWebhook,
  webhookBody,
} from './format.ts'
export type { ListenAnswer, ListenAttempt } from './listen.ts'

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
  /** `--webhook-hosts`: host names, globs, addresses and CIDR ranges webhooks may reach besides public addresses */
  hosts?: readonly string[]
  /** the listener is not loopback-only: without `hosts`, public addresses only (a loopback listener allows anything) */
  exposed?: boolean
  /** resolves host names (tests; default the system resolver) */
  resolve?: (host: string) => Promise<CheckedAddress[]>
  /** `--max-webhooks`: webhooks one key may register (default 25) */
  maxPerKey?: number
  /** `--webhook-rate`: delivery attempts one key may make per minute (default 120); past it attempts are not sent */
  attemptsPerMinute?: number
  /** `--webhook-total`: attempts of every key under way at once (default 256); past it attempts are not sent */
  attemptsTotal?: number
  /** the keys of claimable sandboxes: their attempts under way and their records take at most half of each total */
  claimed?: ClaimedKeys
  /** the bytes of delivery records every key keeps in memory together (default 64 MB); the oldest go past it */
  recordBytesTotal?: number
}

interface Target {
  id: string
  url: string
  secret: string
  /** only these event types (listen clients) */
  events?: ReadonlySet<string> | null
}

/** Sends events to the webhooks of their key (and to the server-wide URL), retrying as the service does. */
export class WebhookDelivery {
  readonly defaultTarget: Target | null
  readonly registry: WebhookRegistry
  readonly #deps: { ids: IdGenerator; journal: DeliveryJournal; tenants: Tenants }
  /** waits before retries 1, 2, 3 */
  readonly retryDelaysMs: readonly number[]
  /** per-attempt timeout */
  readonly timeoutMs: number
  /** every key's records, within their bounds */
  readonly #records: DeliveryRecords
  readonly #timers = new Map<string, NodeJS.Timeout>()
  /** deliveries of forgotten keys: an attempt under way when its key was forgotten records nothing, retries never */
  readonly #forgotten = new WeakSet<DeliveryRecord>()
  readonly #spans = new DeliverySpans()
  readonly #handlers = new Map<string, WebhookHandler>()
  readonly #fetch: ((request: Request) => Promise<Response>) | null
  /** where webhooks may go (--webhook-hosts) */
  readonly policy: DestinationPolicy
  /** webhooks one key may register */
  readonly maxPerKey: number
  /** delivery attempts one key may make per minute */
  readonly attemptsPerMinute: number
  readonly #limits: WebhookLimits
  readonly #listeners: WebhookListeners
  /** the chaos of the call being handled (x-sandbox-webhook-chaos): it applies to the events the call causes */
  readonly callChaos = new AsyncLocalStorage<ChaosRule>()
  /** what `reorder` holds and `fail` answers */
  readonly #chaos = new WebhookChaos((record) => void this.#attempt(record, 0))
  /** told when a key's deliveries are forgotten (--state-dir deletes their rows) */
  readonly #onForget: ((tenant: string) => void)[] = []
  #closed = false

  constructor(
    registry: WebhookRegistry,
    deps: { ids: IdGenerator; journal: DeliveryJournal; tenants: Tenants },
    options: WebhookDeliveryOptions = {},
  ) {
    this.registry = registry
    this.#deps = deps
    // The service retries at most 3 times (retry count 0..3): a longer schedule is cut there.
    this.retryDelaysMs = (options.retryDelaysMs ?? [1000, 5000, 15000]).slice(0, 3)
    this.timeoutMs = options.timeoutMs ?? 5000
    this.#fetch = options.fetch ?? null
    this.policy = new DestinationPolicy({
      ...(options.exposed ? { exposed: true } : {}),
      ...(options.hosts ? { hosts: options.hosts } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    })
    this.#limits = new WebhookLimits(options)
    this.#records = new DeliveryRecords(options.recordBytesTotal, options.claimed)
    this.maxPerKey = this.#limits.maxPerKey
    this.attemptsPerMinute = this.#limits.attemptsPerMinute
    this.#listeners = new WebhookListeners(deps.ids)
    this.defaultTarget = options.url
      ? { id: 'default', url: options.url, secret: options.secret ?? deps.ids.hex(32) }
      : null
  }

  /** Sends a domain event to every active webhook of its key. */
  handleEvent(event: SandboxEvent): DeliveryRecord[] {
    // a webhook a client ID registered receives only that client ID's events; the account's receive every event
    const targets = this.#targets(event.tenant, event.type).filter(
      (t) => !('clientId' in t) || !t.clientId || t.clientId === event.clientId,
    )
    if (targets.length === 0) return []
    const world = this.#deps.tenants.peek(event.tenant, event.scenario)
    const chaos = this.callChaos.getStore() ?? (world ? chaosFor(world, event.type) : undefined)
    return targets.map((target) =>
      this.#start(
        target,
        event.tenant,
        event.scenario,
        event.type,
        event.id,
        false,
        webhookBody(event.payload),
        chaos,
      ),
    )
  }

  /** Sends a test payload to every active webhook of a key (`x-request-network-test: true`). */
  sendTest(
    tenant: string,
    scenario: string,
    payload: Record<string, unknown>,
    clientId?: string | null,
  ): DeliveryRecord[] {
    const body = webhookBody(payload)
    return this.#targets(tenant, undefined, clientId).map((t) =>
      this.#start(t, tenant, scenario, String(payload.event), null, true, body),
    )
  }

  /** Why webhooks may not go to `url` (--webhook-hosts), or null when they may. */
  async destinationProblem(url: string): Promise<string | null> {
    try {
      await this.policy.check(new URL(url))
      return null
    } catch (error) {
      if (error instanceof DestinationRefusedError) return error.message
      throw error
    }
  }

  /** Whether a key has anything to deliver to. */
  hasTargets(tenant: string, clientId?: string | null): boolean {
    return this.#targets(tenant, undefined, clientId).length > 0
  }

  /** Sends a delivery again, from retry count 0, with the same delivery id and body (a fresh signature). */
  redeliver(tenant: string, deliveryId: string): DeliveryRecord | undefined {
    const record = this.#records.get(tenant, deliveryId)
    if (!record) return undefined
    clearTimeout(this.#timers.get(record.id))
    record.state = 'pending'
    void this.#attempt(record, 0)
    return record
  }

  /** A key's deliveries, newest first. */
  deliveries(tenant: string): DeliveryRecord[] {
    return this.#records.of(tenant).reverse()
  }

  /** One delivery record of a key (--state-dir writes it after each attempt). */
  record(tenant: string, deliveryId: string): DeliveryRecord | undefined {
    return this.#records.get(tenant, deliveryId)
  }

  /** Every key's delivery records, oldest first (--state-dir). */
  records(): DeliveryRecord[] {
    return this.#records.all()
  }

  /**
   * Puts back saved delivery records within the bounds of new ones (the newest kept; the others told to `onDrop`'s
   * listeners); the ones kept and still pending get their next attempt now (--state-dir).
   */
  restore(records: DeliveryRecord[]): void {
    for (const record of this.#records.restore(records)) {
      if (record.state === 'pending')
        void this.#attempt(record, Math.min(record.attempts.length, this.retryDelaysMs.length))
    }
  }

  /** Routes deliveries for `url` to an in-process handler instead of the network (test harness). */
  route(url: string, handler: WebhookHandler): () => void {
    this.#handlers.set(url, handler)
    return () => this.#handlers.delete(url)
  }

  /**
   * Forgets a key's deliveries (a claimable sandbox's expiry): their retries cancelled, their records dropped, in
   * memory and (through `onForget`'s listeners: --state-dir) on disk. An attempt under way records nothing.
   */
  forget(tenant: string): void {
    for (const record of this.#records.forget(tenant)) {
      this.#forgotten.add(record)
      clearTimeout(this.#timers.get(record.id))
      this.#timers.delete(record.id)
    }
    for (const listener of this.#onForget) listener(tenant)
  }

  /** Calls `listener` with each record a bound drops from memory (--state-dir deletes its row). */
  onDrop(listener: (record: DeliveryRecord) => void): void {
    this.#records.onDrop(listener)
  }

  /** Calls `listener` with the key each time a key's deliveries are forgotten. */
  onForget(listener: (tenant: string) => void): void {
    this.#onForget.push(listener)
  }

  /** Cancels pending retries. */
  close(): void {
    this.#closed = true
    this.#chaos.close()
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
  }

  /**
   * The key's active webhooks, listen clients (of `event`, when given) and --webhook-url; with `clientId`, only the
   * webhooks that client ID registered.
   */
  #targets(tenant: string, event?: string, clientId?: string | null): Target[] {
    if (clientId) return this.registry.ofClient(tenant, clientId).filter((w) => w.isActive)
    const own: Target[] = this.registry.list(tenant).filter((w) => w.isActive)
    const listening = this.#listeners.targets(tenant, event)
    return [...own, ...listening, ...(this.defaultTarget ? [this.defaultTarget] : [])]
  }

  /**
   * Adds a `listen` client of a key: its events (of `events`, or all) are delivered to `send` as attempts, and each
   * attempt waits for `answer(attemptId)` as a URL waits for its receiver. Returns the listener's id and its removal.
   */
  listen(
    tenant: string,
    events: string[] | null,
    send: (attempt: ListenAttempt) => void,
  ): { id: string; stop(): void } {
    return this.#listeners.listen(tenant, events, send)
  }

  /** A listen client's report of its app's answer; false when no attempt of the key waits under that id. */
  answer(tenant: string, attemptId: string, answer: ListenAnswer): boolean {
    return this.#listeners.answer(tenant, attemptId, answer)
  }

  #start(
    target: Target,
    tenant: string,
    scenario: string,
    event: string,
    eventId: string | null,
    test: boolean,
    body: string,
    chaos?: ChaosRule,
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
    this.#records.add(record)
    if (chaos) record.chaos = chaos.action
    switch (chaos?.action) {
      case 'drop':
        this.#dropped(record)
        break
      case 'delay': {
        const timer = setTimeout(() => {
          this.#timers.delete(record.id)
          void this.#attempt(record, 0)
        }, chaos.delayMs ?? 2000)
        timer.unref()
        this.#timers.set(record.id, timer)
        break
      }
      case 'duplicate':
        // the same delivery (id, body, retry count 0) twice, as at-least-once delivery may do
        void this.#attempt(record, 0)
        void this.#attempt(record, 0)
        break
      case 'fail':
        this.#chaos.failFirst(record.id, chaos.status ?? 500)
        void this.#attempt(record, 0)
        break
      case 'reorder':
        this.#chaos.hold(record, chaos.delayMs ?? 2000)
        return record
      default:
        // a held delivery goes out once this one has been answered: the receiver sees them out of order
        void this.#attempt(record, 0).then(() => this.#chaos.release(tenant))
        return record
    }
    this.#chaos.release(tenant)
    return record
  }

  /** `drop`: never sent; recorded as given up, so it can still be redelivered by hand. */
  #dropped(record: DeliveryRecord): void {
    const at = (
      this.#deps.tenants.peek(record.tenant, record.scenario)?.clock.now() ?? new Date()
    ).toISOString()
    record.state = 'failed'
    const error = 'dropped by webhook chaos (not sent)'
    this.#recordAttempt(record, { retryCount: 0, at, status: null, error, durationMs: 0 }, 'failed')
  }

  /** Adds an attempt to the delivery's record and to the key's journal. */
  #recordAttempt(
    record: DeliveryRecord,
    attempt: DeliveryAttempt,
    outcome: 'delivered' | 'retrying' | 'failed',
  ): void {
    if (this.#forgotten.has(record)) return
    record.attempts.push(attempt)
    this.#records.grown(record)
    const { retryCount, at, status, error, durationMs } = attempt
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
      durationMs,
      outcome,
    })
  }

  #secretOf(record: DeliveryRecord): string {
    if (record.webhookId === 'default') return this.defaultTarget?.secret ?? ''
    return this.registry.get(record.tenant, record.webhookId)?.secret ?? ''
  }

  /** One attempt, as a span (`delivery-spans.ts`). */
  #attempt(record: DeliveryRecord, retryCount: number): Promise<void> {
    if (this.#closed) return Promise.resolve()
    return this.#spans.attempt(record, retryCount, () => this.#attemptNow(record, retryCount))
  }

  async #attemptNow(record: DeliveryRecord, retryCount: number): Promise<void> {
    if (this.#closed) return
    const headers = deliveryHeaders(record, retryCount, this.#secretOf(record))
    const started = Date.now()
    let status: number | null = null
    let error: string | null = null
    let response: ReceiverAnswer | undefined
    const failed = retryCount === 0 ? this.#chaos.takeFailFirst(record.id) : undefined
    try {
      const answer =
        failed !== undefined
          ? { status: failed, error: `failed by webhook chaos with ${failed} (not sent)` }
          : await this.#admitted(record, () => this.#post(record, retryCount, headers))
      status = answer.status
      response = answer.response
      if (answer.error) error = answer.error
    } catch (e) {
      const err = e as Error
      error =
        err.name === 'TimeoutError'
          ? `timed out after ${this.timeoutMs} ms`
          : err instanceof DestinationRefusedError
            ? `refused: ${err.message}`
            : describe(err)
    }
    if (this.#closed) return
    const delivered = status !== null && status >= 200 && status < 300
    const retry = !delivered && retryCount < this.retryDelaysMs.length
    const world = this.#deps.tenants.peek(record.tenant, record.scenario)
    const at = (world?.clock.now() ?? new Date()).toISOString()
    record.state = delivered ? 'delivered' : retry ? 'pending' : 'failed'
    this.#recordAttempt(
      record,
      { retryCount, at, status, error, durationMs: Date.now() - started, ...(response ? { response } : {}) },
      delivered ? 'delivered' : retry ? 'retrying' : 'failed',
    )
    if (!retry || this.#forgotten.has(record)) return
    const timer = setTimeout(() => {
      this.#timers.delete(record.id)
      void this.#attempt(record, retryCount + 1)
    }, this.retryDelaysMs[retryCount])
    timer.unref()
    this.#timers.set(record.id, timer)
  }

  /** `post` within the key's rate and the attempts under way (WebhookLimits), else refused (not sent). */
  async #admitted(record: DeliveryRecord, post: () => Promise<PostResult>): Promise<PostResult> {
    const admitted = this.#limits.admit(record.tenant)
    if (typeof admitted === 'string') throw new DestinationRefusedError(`not sent: ${admitted}`)
    try {
      return await post()
    } finally {
      admitted()
    }
  }

  async #post(
    record: DeliveryRecord,
    retryCount: number,
    headers: Record<string, string>,
  ): Promise<PostResult> {
    const { url, body } = record
    const signal = AbortSignal.timeout(this.timeoutMs)
    if (url.startsWith(LISTEN_SCHEME)) return this.#listeners.post(record, retryCount, headers, signal)
    const handler = this.#handlers.get(url)
    if (!handler) {
      // the server-wide --webhook-url is the operator's own; every key's URL is checked, at each attempt
      const checked = record.webhookId === 'default' ? null : await this.policy.check(new URL(url))
      if (this.#fetch) {
        const response = await this.#fetch(
          new Request(url, { method: 'POST', headers, body, signal, redirect: 'manual' }),
        )
        return { status: response.status, response: await answerOf(response, signal) }
      }
      return postPinned(url, checked, headers, body, signal)
    }
    const request = new Request(url, { method: 'POST', headers, body, signal })
    const response = await new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      Promise.resolve()
        .then(() => handler(request))
        .then(resolve, reject)
    })
    return { status: response.status, response: await answerOf(response, signal) }
  }
}

function describe(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ? `${error.message}: ${cause.code}` : error.message
}
