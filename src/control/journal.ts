// What happened to one key, newest first: its API calls (recorded by a middleware), the events of its worlds,
// and every webhook delivery attempt. Bounded per key so a long-running sandbox does not grow without end.
import { type ClaimedKeys, claimedShare } from '../contract/claimed-share.ts'
import type { IdGenerator } from '../store/ids.ts'
import {
  type CallEntry,
  type JournalEntry,
  type JournalFilter,
  type NewJournalEntry,
  RawBody,
} from './journal-entry.ts'
import { KeyJournal } from './key-journal.ts'

export {
  type CallEntry,
  copyString,
  type DeliveryEntry,
  type EventEntry,
  type JournalEntry,
  type JournalFilter,
  journalBody,
  type NewJournalEntry,
  RawBody,
} from './journal-entry.ts'

/**
 * An entry as --state-dir writes it in a journal row (entries of a row, and rows, are split by U+001E). A call's
 * bodies are the text they were sent and answered as: written as they are, after the rest of the entry as JSON,
 * their lengths (UTF-16 code units, as JavaScript counts them) in a header, instead of escaped again into a JSON
 * string (~2 µs a create under load):
 * `U+0001 <JSON length>,<request length or -1>,<request bytes>,<response length or -1>,<response bytes>; <JSON><request><response>`.
 * Any other entry is its JSON (which starts with `{`, and never holds a raw U+001E): what every entry was before.
 */
export function journalText(entry: JournalEntry): string {
  if (entry.type !== 'call') return JSON.stringify(entry)
  const { requestBody, responseBody, ...rest } = entry
  if (!(requestBody instanceof RawBody && responseBody instanceof RawBody)) return JSON.stringify(entry)
  const request = requestBody.text
  const response = responseBody.text
  // SQLite reads a text back only up to a NUL (and the key's whole journal with it, one group_concat): such bodies
  // go escaped, as JSON
  if (request?.includes('\u0000') || response?.includes('\u0000')) return JSON.stringify(entry)
  const json = JSON.stringify(rest)
  return `\u0001${json.length},${request === undefined ? -1 : request.length},${requestBody.bytes},${response === undefined ? -1 : response.length},${responseBody.bytes};${json}${request ?? ''}${response ?? ''}`
}

/**
 * The entries of journal rows joined by U+001E (`journalText`'s, and rows of JSON entries only), oldest first; a
 * call's bodies as `{$raw, bytes}` (what `Journal.import` takes). An entry that cannot be read is left out.
 */
export function readJournalText(text: string): JournalEntry[] {
  const entries: JournalEntry[] = []
  let at = 0
  while (at < text.length) {
    let end: number
    let entry: JournalEntry | undefined
    if (text.charCodeAt(at) === 1) {
      const semicolon = text.indexOf(';', at)
      const header =
        semicolon === -1
          ? []
          : text
              .slice(at + 1, semicolon)
              .split(',')
              .map(Number)
      const [json, request, requestBytes, response, responseBytes] = header as [
        number,
        number,
        number,
        number,
        number,
      ]
      const bodies = json + Math.max(request, 0) + Math.max(response, 0)
      end = semicolon + 1 + bodies
      if (header.length !== 5 || !header.every(Number.isInteger) || json < 0 || end > text.length) end = -1
      else if (end < text.length && text.charCodeAt(end) !== 0x1e) end = -1
      else {
        try {
          const bodyAt = semicolon + 1 + json
          const responseAt = bodyAt + Math.max(request, 0)
          const parsed = JSON.parse(text.slice(semicolon + 1, bodyAt)) as JournalEntry & CallEntry
          const requestText = request < 0 ? null : text.slice(bodyAt, responseAt)
          const responseText = response < 0 ? null : text.slice(responseAt, end)
          parsed.requestBody = { $raw: requestText, bytes: requestBytes }
          parsed.responseBody = { $raw: responseText, bytes: responseBytes }
          entry = parsed
        } catch {
          // not JSON: left out
        }
      }
      // a header or lengths that do not fit (a row edited by hand): on from the next separator
      if (end === -1) {
        end = text.indexOf('\u001e', at + 1)
        if (end === -1) end = text.length
      }
    } else {
      end = text.indexOf('\u001e', at)
      if (end === -1) end = text.length
      try {
        entry = JSON.parse(text.slice(at, end)) as JournalEntry
      } catch {
        // not JSON: left out
      }
    }
    if (entry && typeof entry === 'object') entries.push(entry)
    at = end + 1
  }
  return entries
}

const view = (body: unknown) => (body instanceof RawBody ? body.view() : body)

/** Bounds of the journal. */
export interface JournalLimits {
  /** entries per key (default 2000) */
  perKey?: number
  /** bytes kept per key, bodies counted (default 2 MiB) */
  perKeyBytes?: number
  /** bytes kept for all keys together (default 32 MiB): past it, the keys written least recently lose their oldest entries */
  totalBytes?: number
}

/** An entry as readers see it (call bodies parsed back from the kept text). */
export function readable(entry: JournalEntry): JournalEntry {
  return entry.type === 'call'
    ? { ...entry, requestBody: view(entry.requestBody), responseBody: view(entry.responseBody) }
    : entry
}

/**
 * The event bus's topic of the journal: each new entry of a key, as recorded (call bodies stay unread: the terminal
 * log formats a short line and must not parse or serialise a body per call; a stream shows it `readable`).
 */
export interface JournalTopics {
  journal: [tenant: string, entry: JournalEntry]
}

/** Where the journal tells of its new entries (the event bus). */
export interface JournalChannel {
  listens(topic: 'journal'): boolean
  publish(topic: 'journal', tenant: string, entry: JournalEntry): void
}

// what an entry costs beside the strings counted below (its slot in the ring or its object, id, time), roughly
const ENTRY_OVERHEAD = 300
/**
 * What a key costs beside its entries and its name (its ring's arrays, its Map entry), roughly: counted in the key's
 * bytes while it holds entries, so many keys of one call each fill the total instead of the heap.
 */
export const KEY_OVERHEAD = 600
const rawSize = (body: unknown) => (body instanceof RawBody ? (body.text?.length ?? 0) : 0)

/** The characters of a call's query (a caller's: up to node:http's 16 KB of URL); a value not a string counts 0. */
function querySize(query: Record<string, string>): number {
  let size = 0
  for (const name in query) {
    const value = query[name]
    size += name.length + (typeof value === 'string' ? value.length : 0)
  }
  return size
}

const textSize = (value: unknown) => (typeof value === 'string' ? value.length : 0)

function entrySize(entry: JournalEntry): number {
  if (entry.type === 'call')
    return (
      ENTRY_OVERHEAD +
      textSize(entry.path) +
      querySize(entry.query) +
      textSize(entry.hint) +
      rawSize(entry.requestBody) +
      rawSize(entry.responseBody)
    )
  if (entry.type === 'event') return ENTRY_OVERHEAD + 1000
  return ENTRY_OVERHEAD + entry.url.length + (entry.error?.length ?? 0)
}

/** The journals of every key of one sandbox, bounded per key and in total. */
export class Journal {
  // insertion order is write order: the first key is the one written least recently
  readonly #keys = new Map<string, KeyJournal>()
  readonly #ids: IdGenerator
  readonly #perKey: number
  readonly #perKeyBytes: number
  readonly #totalBytes: number
  #bytes = 0
  /** the bytes of claimed keys' journals */
  #claimedBytes = 0
  readonly #claimed: ClaimedKeys
  #changes = 0
  /** the key of the last entry: the last of `#keys` */
  #lastTenant: string | undefined
  readonly #channel: JournalChannel | null

  /**
   * `channel`: where new entries are told (the event bus's `journal` topic); none, nobody is told. `claimed`: the keys
   * of claimable sandboxes, whose journals together keep at most half of the total bytes and lose their oldest
   * entries before other keys' do.
   */
  constructor(
    ids: IdGenerator,
    limits: number | JournalLimits = {},
    channel: JournalChannel | null = null,
    claimed: ClaimedKeys = () => false,
  ) {
    const l = typeof limits === 'number' ? { perKey: limits } : limits
    this.#ids = ids
    this.#channel = channel
    this.#claimed = claimed
    this.#perKey = l.perKey ?? 2000
    this.#perKeyBytes = l.perKeyBytes ?? 2 * 1024 * 1024
    this.#totalBytes = l.totalBytes ?? 32 * 1024 * 1024
  }

  /** Counts changes (records, clears): --state-dir saves the journal when it moved. */
  get changes(): number {
    return this.#changes
  }

  /** How many entries a key's journal holds (--state-dir keeps as many rows). */
  count(tenant: string): number {
    return this.#keys.get(tenant)?.count ?? 0
  }

  /** Every key's entries, oldest first (--state-dir; bodies as `{$raw, bytes}`). */
  export(): [string, JournalEntry[]][] {
    return [...this.#keys].map(([tenant, key]) => [tenant, key.all()])
  }

  /** Puts back what `export()` saved, as parsed JSON: history, so the bus is not told (the terminal log, streams). */
  import(saved: [string, JournalEntry[]][]): void {
    const raw = (v: unknown) => {
      const r = v as { $raw?: string | null; bytes?: number } | null
      return r && typeof r === 'object' && '$raw' in r
        ? RawBody.restored(r.$raw ?? undefined, r.bytes ?? 0)
        : v
    }
    for (const [tenant, entries] of saved) {
      for (const entry of entries) {
        const { id, ...rest } = entry
        if (rest.type === 'call') {
          rest.requestBody = raw(rest.requestBody)
          rest.responseBody = raw(rest.responseBody)
        }
        this.#append(tenant, { id, ...rest } as JournalEntry, false)
      }
    }
  }

  /** Appends an entry to a key's journal (the oldest entries go past the bounds); `atMs` is `entry.at` as a time. */
  record(tenant: string, entry: NewJournalEntry, atMs = Date.parse(entry.at)): JournalEntry {
    const full = { id: this.#ids.ulid(atMs), ...entry } as JournalEntry
    return this.#append(tenant, full)
  }

  /**
   * `record` of an entry built whole with an empty `id` as its first field (the journal middleware's, one a call):
   * its id is written into it, with no copy of the entry.
   */
  recordBuilt(tenant: string, entry: JournalEntry, atMs: number): JournalEntry {
    entry.id = this.#ids.ulid(atMs)
    return this.#append(tenant, entry, true, atMs)
  }

  #append(tenant: string, full: JournalEntry, tell = true, atMs?: number): JournalEntry {
    this.#changes++
    // the key written last stays last (written least recently first); already last, nothing moves
    let key = this.#keys.get(tenant)
    if (!key || tenant !== this.#lastTenant) {
      if (key) this.#keys.delete(tenant)
      else {
        key = new KeyJournal()
        key.claimed = this.#claimed(tenant)
        const cost = KEY_OVERHEAD + tenant.length
        key.bytes += cost
        this.#bytes += cost
        if (key.claimed) this.#claimedBytes += cost
      }
      this.#keys.set(tenant, key)
      this.#lastTenant = tenant
    }
    const size = entrySize(full)
    key.push(full, size, atMs)
    this.#bytes += size
    if (key.claimed) this.#claimedBytes += size
    while (key.count > 1 && (key.count > this.#perKey || key.bytes > this.#perKeyBytes)) this.#dropOldest(key)
    // claimed keys past their share lose their oldest entries, theirs only
    const share = claimedShare(this.#totalBytes)
    if (key.claimed && this.#claimedBytes > share) this.#trim(key, () => this.#claimedBytes > share, true)
    // under the total (nearly always): no walk over the keys; claimed keys lose theirs first
    if (this.#bytes > this.#totalBytes) {
      if (this.#claimedBytes) this.#trim(key, () => this.#bytes > this.#totalBytes, true)
      this.#trim(key, () => this.#bytes > this.#totalBytes, false)
    }
    // nobody listening (the usual case): nothing more
    if (tell && this.#channel?.listens('journal')) this.#channel.publish('journal', tenant, full)
    return full
  }

  /** Bytes the journal holds (estimated: bodies plus a fixed cost per entry). */
  get bytes(): number {
    return this.#bytes
  }

  /** A key's entries, newest first, filtered. */
  list(tenant: string, filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = []
    const key = this.#keys.get(tenant)
    const count = key?.count ?? 0
    const limit = filter.limit ?? 100
    // the filter reads what the ring keeps: only the entries it passes are written again
    for (let back = 0; back < count && out.length < limit; back++)
      if (key!.matches(back, filter)) out.push(readable(key!.fromNewest(back)))
    return out
  }

  #dropOldest(key: KeyJournal): void {
    const size = key.dropOldest()
    this.#bytes -= size
    if (key.claimed) this.#claimedBytes -= size
  }

  /**
   * Drops the oldest entries of the keys written least recently (claimed ones only with `claimedOnly`) while `over()`,
   * up to `current`, the key just written; a key left empty is forgotten.
   */
  #trim(current: KeyJournal, over: () => boolean, claimedOnly: boolean): void {
    for (const [name, oldest] of this.#keys) {
      if (!over() || oldest === current) break
      if (claimedOnly && !oldest.claimed) continue
      while (oldest.count && over()) this.#dropOldest(oldest)
      if (!oldest.count) {
        // what is left is the key's own cost
        this.#bytes -= oldest.bytes
        if (oldest.claimed) this.#claimedBytes -= oldest.bytes
        this.#keys.delete(name)
        if (this.#lastTenant === name) this.#lastTenant = undefined
      }
    }
  }

  /** Forgets a key's journal (POST /__sandbox/reset). */
  clear(tenant: string): void {
    const key = this.#keys.get(tenant)
    if (!key) return
    this.#changes++
    this.#bytes -= key.bytes
    if (key.claimed) this.#claimedBytes -= key.bytes
    this.#keys.delete(tenant)
    if (this.#lastTenant === tenant) this.#lastTenant = undefined
  }
}
