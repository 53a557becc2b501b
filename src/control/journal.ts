// What happened to one key, newest first: its API calls (recorded by a middleware), the events of its worlds,
// and every webhook delivery attempt. Bounded per key so a long-running sandbox does not grow without end.
import type { IdGenerator } from '../store/ids.ts'

/** An API call as the journal keeps it. */
export interface CallEntry {
  type: 'call'
  method: string
  path: string
  query: Record<string, string>
  status: number
  durationMs: number
  /** the request body as sent (cut at 4 KB) */
  requestBody: unknown
  /** the response body (cut at 4 KB) */
  responseBody: unknown
  /** the fault that answered instead of the handler, if any */
  fault?: string
}

/** A domain event of one of the key's worlds (its payload is the webhook body). */
export interface EventEntry {
  type: 'event'
  eventId: string
  event: string
  payload: Record<string, unknown>
}

/** One webhook delivery attempt. */
export interface DeliveryEntry {
  type: 'delivery'
  deliveryId: string
  webhookId: string
  url: string
  event: string
  test: boolean
  retryCount: number
  /** the receiver's status, null when it could not be reached or timed out */
  status: number | null
  error: string | null
  durationMs: number
  /** after this attempt: delivered, will be retried, or given up */
  outcome: 'delivered' | 'retrying' | 'failed'
}

/** What every journal entry carries. */
export type JournalEntry = (CallEntry | EventEntry | DeliveryEntry) & {
  id: string
  /** the time of the key's world (tenant clock) when it happened */
  at: string
  scenario: string
}

/** Distributes Omit over the entry union. */
export type NewJournalEntry =
  | (CallEntry & { at: string; scenario: string })
  | (EventEntry & { at: string; scenario: string })
  | (DeliveryEntry & { at: string; scenario: string })

/** Filters of GET /__sandbox/journal. */
export interface JournalFilter {
  types?: JournalEntry['type'][]
  /** event type (events and deliveries) */
  event?: string
  /** path prefix (calls) */
  path?: string
  /** only entries strictly after this time */
  since?: Date
  scenario?: string
  limit?: number
}

const MAX_BODY = 4096

/**
 * A body as the call carried it, kept as text (cut at 4 KB) and parsed only when the journal is read: the hot
 * path of every API call must not serialise or parse twice.
 */
export class RawBody {
  readonly text: string | undefined
  readonly bytes: number
  constructor(value: string | undefined) {
    this.bytes = value === undefined ? 0 : value.length
    this.text = value === undefined || value.length <= MAX_BODY ? value : value.slice(0, 256)
  }
  /** The journal's view: parsed JSON, the text itself, or a truncation note. */
  view(): unknown {
    if (this.text === undefined) return null
    if (this.bytes > MAX_BODY) return { truncated: true, bytes: this.bytes, start: this.text }
    return journalBody(this.text)
  }
}

/** Keeps a body in the journal unless it is large. */
export function journalBody(value: unknown): unknown {
  if (value === undefined) return null
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  if (text.length <= MAX_BODY) {
    if (typeof value !== 'string') return value
    try {
      return JSON.parse(value)
    } catch {
      return value
    }
  }
  return { truncated: true, bytes: Buffer.byteLength(text), start: text.slice(0, 256) }
}

const view = (body: unknown) => (body instanceof RawBody ? body.view() : body)

/** An entry as readers see it (call bodies parsed back from the kept text). */
function readable(entry: JournalEntry): JournalEntry {
  return entry.type === 'call'
    ? { ...entry, requestBody: view(entry.requestBody), responseBody: view(entry.responseBody) }
    : entry
}

/** Told of each new entry of one key (the dashboard's live stream). */
export type JournalListener = (entry: JournalEntry) => void

/**
 * Told of each new entry of every key, as recorded: call bodies stay unread (the terminal log formats a short
 * line and must not parse or serialise a body per call).
 */
export type JournalTap = (tenant: string, entry: JournalEntry) => void

/** The journals of every key of one sandbox. */
export class Journal {
  readonly #entries = new Map<string, JournalEntry[]>()
  readonly #ids: IdGenerator
  readonly #capacity: number
  readonly #listeners = new Map<string, Set<JournalListener>>()
  readonly #taps = new Set<JournalTap>()

  constructor(ids: IdGenerator, capacity = 2000) {
    this.#ids = ids
    this.#capacity = capacity
  }

  /** Appends an entry to a key's journal (the oldest entries go past the capacity). */
  record(tenant: string, entry: NewJournalEntry): JournalEntry {
    const full = { id: this.#ids.ulid(Date.parse(entry.at)), ...entry } as JournalEntry
    let list = this.#entries.get(tenant)
    if (!list) {
      list = []
      this.#entries.set(tenant, list)
    }
    list.push(full)
    // Trimmed once it holds twice the capacity (list() reads only the newest `capacity`): dropping one entry per
    // call moved the whole array on every API call of a busy key.
    if (list.length >= 2 * this.#capacity) list.splice(0, list.length - this.#capacity)
    // nobody listening (the usual case): no lookup, no copy
    if (this.#taps.size !== 0) this.#tapped(tenant, full)
    if (this.#listeners.size !== 0) this.#notify(tenant, full)
    return full
  }

  /** Calls `listener` with each new entry of a key, as `list` shows it; returns the unsubscribe function. */
  subscribe(tenant: string, listener: JournalListener): () => void {
    let set = this.#listeners.get(tenant)
    if (!set) {
      set = new Set()
      this.#listeners.set(tenant, set)
    }
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0 && this.#listeners.get(tenant) === set) this.#listeners.delete(tenant)
    }
  }

  /** Calls `tap` with each new entry of every key, bodies unread; returns the function that stops it. */
  tap(tap: JournalTap): () => void {
    this.#taps.add(tap)
    return () => {
      this.#taps.delete(tap)
    }
  }

  #tapped(tenant: string, entry: JournalEntry): void {
    for (const tap of this.#taps) {
      try {
        tap(tenant, entry)
      } catch {
        // a tap's failure (a closed terminal) must not break the call that recorded the entry
      }
    }
  }

  #notify(tenant: string, entry: JournalEntry): void {
    const set = this.#listeners.get(tenant)
    if (!set) return
    const shown = readable(entry)
    for (const listener of set) {
      try {
        listener(shown)
      } catch {
        // a listener's failure (a closed stream) must not break the call that recorded the entry
      }
    }
  }

  /** A key's entries, newest first, filtered. */
  list(tenant: string, filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = []
    const list = this.#entries.get(tenant) ?? []
    const limit = filter.limit ?? 100
    const oldest = Math.max(0, list.length - this.#capacity)
    for (let i = list.length - 1; i >= oldest && out.length < limit; i--) {
      const entry = list[i]!
      if (filter.types && !filter.types.includes(entry.type)) continue
      if (filter.scenario && entry.scenario !== filter.scenario) continue
      if (filter.since && Date.parse(entry.at) <= filter.since.getTime()) continue
      if (filter.event && (entry.type === 'call' || entry.event !== filter.event)) continue
      if (filter.path && (entry.type !== 'call' || !entry.path.startsWith(filter.path))) continue
      out.push(readable(entry))
    }
    return out
  }

  /** Forgets a key's journal (POST /__sandbox/reset). */
  clear(tenant: string): void {
    this.#entries.delete(tenant)
  }
}
