// What a journal entry is: an API call, an event or a webhook delivery attempt of one key, and a call's bodies kept as
// the text they were sent and answered as (RawBody), parsed only when the journal is read.
import type { DeliveryEntry } from '../contract/ports.ts'

export type { DeliveryEntry }

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
  /** the sandbox's note on how the call was understood (its `x-sandbox-hint`), if any */
  hint?: string
}

/** A domain event of one of the key's worlds (its payload is the webhook body). */
export interface EventEntry {
  type: 'event'
  eventId: string
  event: string
  payload: Record<string, unknown>
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

/** Whether an entry passes a filter of GET /__sandbox/journal (`limit` aside). */
export function entryMatches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.types && !filter.types.includes(entry.type)) return false
  if (filter.scenario && entry.scenario !== filter.scenario) return false
  if (filter.since && Date.parse(entry.at) <= filter.since.getTime()) return false
  if (filter.event && (entry.type === 'call' || entry.event !== filter.event)) return false
  // a path that is not a string (a journal edited by hand) matches no path filter
  if (
    filter.path &&
    (entry.type !== 'call' || typeof entry.path !== 'string' || !entry.path.startsWith(filter.path))
  )
    return false
  return true
}

const MAX_BODY = 4096

/**
 * A body as the call carried it, kept as text (cut at 4 KB) and parsed only when the journal is read: the hot
 * path of every API call must not serialise or parse twice.
 */
export class RawBody {
  readonly text: string | undefined
  readonly bytes: number
  /** `utf8Bytes`: the body's UTF-8 length when the caller knows it (an answer kept with its bytes), else counted */
  constructor(value: string | undefined, utf8Bytes?: number) {
    // a body past the cut reports its UTF-8 bytes, as journalBody does; one kept whole only needs its length (hot path)
    this.bytes =
      value === undefined
        ? 0
        : value.length <= MAX_BODY
          ? value.length
          : (utf8Bytes ?? Buffer.byteLength(value))
    // a slice would keep the whole body alive (V8 sliced strings point into their parent): keep a copy
    this.text = value === undefined || value.length <= MAX_BODY ? value : copyString(value.slice(0, 256))
  }
  /** A body saved by --state-dir: its kept text and its original size. */
  static restored(text: string | undefined, bytes: number): RawBody {
    const body = new RawBody(text)
    ;(body as { bytes: number }).bytes = bytes
    return body
  }

  toJSON(): { $raw: string | null; bytes: number } {
    return { $raw: this.text ?? null, bytes: this.bytes }
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
  return { truncated: true, bytes: Buffer.byteLength(text), start: copyString(text.slice(0, 256)) }
}

/** A string that owns its characters: not a slice of a larger string V8 would keep alive for it. */
export function copyString(value: string): string {
  // flattening a cons string copies the characters into a new sequential string; the slice(1) then points into it
  return ` ${value}`.slice(1)
}
