// `listen` clients: a key's connected clients that receive its deliveries down a stream (`listen://<id>`) and report
// their app's answer to each attempt, which waits for it as a URL's attempt waits for its receiver.

import type { IdGenerator } from '../store/ids.ts'
import { ANSWER_BODY_BYTES, type DeliveryRecord } from './format.ts'
import type { PostResult } from './post.ts'

/** One attempt handed to a `listen` client, which posts it to its app and reports the answer. */
export interface ListenAttempt {
  attemptId: string
  deliveryId: string
  event: string
  retryCount: number
  headers: Record<string, string>
  body: string
}

/** What a `listen` client reports of its app's answer (or why there was none). */
export interface ListenAnswer {
  status: number | null
  headers?: Record<string, string>
  body?: string
  error?: string
}

interface Listener {
  id: string
  tenant: string
  /** event types it wants (null: all) */
  events: ReadonlySet<string> | null
  send(attempt: ListenAttempt): void
}

/** The URL of a listen client's deliveries. */
export const LISTEN_SCHEME = 'listen://'

/** The listen clients of every key and their attempts waiting for an answer. */
export class WebhookListeners {
  readonly #ids: IdGenerator
  /** listen clients by tenant, then id */
  readonly #listeners = new Map<string, Map<string, Listener>>()
  /** attempts handed to a listen client, waiting for its answer */
  readonly #waiting = new Map<string, { tenant: string; resolve(answer: ListenAnswer): void }>()

  constructor(ids: IdGenerator) {
    this.#ids = ids
  }

  /** A key's listen clients (of `event`, when given) as delivery targets. */
  targets(tenant: string, event?: string): { id: string; url: string; secret: string }[] {
    return [...(this.#listeners.get(tenant)?.values() ?? [])]
      .filter((l) => event === undefined || l.events === null || l.events.has(event))
      .map((l) => ({ id: `listen:${l.id}`, url: `${LISTEN_SCHEME}${l.id}`, secret: '' }))
  }

  /** Adds a listen client of a key; returns its id and its removal. */
  listen(
    tenant: string,
    events: string[] | null,
    send: (attempt: ListenAttempt) => void,
  ): { id: string; stop(): void } {
    const id = this.#ids.ulid()
    let mine = this.#listeners.get(tenant)
    if (!mine) {
      mine = new Map()
      this.#listeners.set(tenant, mine)
    }
    mine.set(id, { id, tenant, events: events ? new Set(events) : null, send })
    return {
      id,
      stop: () => {
        mine.delete(id)
        if (mine.size === 0 && this.#listeners.get(tenant) === mine) this.#listeners.delete(tenant)
      },
    }
  }

  /** A listen client's report of its app's answer; false when no attempt of the key waits under that id. */
  answer(tenant: string, attemptId: string, answer: ListenAnswer): boolean {
    const waiting = this.#waiting.get(attemptId)
    if (!waiting || waiting.tenant !== tenant) return false
    this.#waiting.delete(attemptId)
    waiting.resolve(answer)
    return true
  }

  /** Hands an attempt to a listen client and waits for its app's answer (an error when it has gone). */
  post(
    record: DeliveryRecord,
    retryCount: number,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<PostResult> {
    const listener = this.#listeners.get(record.tenant)?.get(record.url.slice(LISTEN_SCHEME.length))
    if (!listener) return Promise.reject(new Error('the listen client has disconnected'))
    const attemptId = this.#ids.ulid()
    return new Promise((resolve, reject) => {
      signal.addEventListener(
        'abort',
        () => {
          this.#waiting.delete(attemptId)
          reject(signal.reason)
        },
        { once: true },
      )
      this.#waiting.set(attemptId, {
        tenant: record.tenant,
        resolve: (answer) =>
          resolve({
            status: answer.status,
            ...(answer.status !== null
              ? {
                  response: {
                    headers: answer.headers ?? {},
                    body: (answer.body ?? '').slice(0, ANSWER_BODY_BYTES),
                  },
                }
              : {}),
            ...(answer.error ? { error: answer.error } : {}),
          }),
      })
      listener.send({
        attemptId,
        deliveryId: record.id,
        event: record.event,
        retryCount,
        headers,
        body: record.body,
      })
    })
  }
}
