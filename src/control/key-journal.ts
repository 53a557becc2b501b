// One key's journal entries, oldest first, in a ring. An API call (nearly every entry) is kept as numbers and the
// strings it names, not as an object: under load each entry lived until 2,000 later calls of its key pushed it out,
// long enough for V8 to promote it, its id and its two bodies to the old generation and to mark them again at every
// full collection. Record: docs/decisions/2026-12-06-journal-entries-without-objects.md.
import { isoOf } from '../store/clock.ts'
import {
  type CallEntry,
  entryMatches,
  type JournalEntry,
  type JournalFilter,
  RawBody,
} from './journal-entry.ts'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const CROCKFORD_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 32; i++) CROCKFORD_VALUE[CROCKFORD.charCodeAt(i)] = i

/** `length` Crockford base32 characters of `id` from `start` as a number; -1 when one is not Crockford's. */
function crockfordValue(id: string, start: number, length: number): number {
  let value = 0
  for (let i = start; i < start + length; i++) {
    const code = id.charCodeAt(i)
    const digit = code < 128 ? CROCKFORD_VALUE[code]! : -1
    if (digit < 0) return -1
    value = value * 32 + digit
  }
  return value
}

/** `value` (an integer below 32^length) as `length` Crockford base32 characters. */
function crockfordText(value: number, length: number): string {
  let text = ''
  for (let i = 0; i < length; i++) {
    text = CROCKFORD[value % 32]! + text
    value = Math.floor(value / 32)
  }
  return text
}

/** The id a call kept as numbers had: the ULID of its time and its random part's two halves. */
export function ulidOf(atMs: number, high: number, low: number): string {
  // one flat string: the pieces joined by `+` would stay a chain V8 keeps as it is
  return Buffer.from(
    `${crockfordText(atMs, 10)}${crockfordText(high, 8)}${crockfordText(low, 8)}`,
    'latin1',
  ).toString('latin1')
}

// an entry's numbers, then its references (per slot of the ring)
const N_AT = 0
const N_HIGH = 1
const N_LOW = 2
const N_STATUS = 3
const N_DURATION = 4
const N_REQUEST_BYTES = 5
const N_RESPONSE_BYTES = 6
const N_SIZE = 7
const NUMBERS = 8
const R_OBJECT = 0
const R_SCENARIO = 1
const R_METHOD = 2
const R_PATH = 3
const R_QUERY = 4
const R_REQUEST = 5
const R_RESPONSE = 6
const R_FAULT = 7
const R_HINT = 8
const REFERENCES = 9

// a key's first entry makes room for one: keys are cheap to make (any `x-api-key` in open mode), their room is not
const FIRST_CAPACITY = 1

// a call's fields in the order the journal middleware writes them (`fault` and `hint` only when set); the ring
// writes a call again in this order, so a call given in another shape (a saved journal put back) keeps its object
const CALL_FIELDS = [
  'id',
  'type',
  'at',
  'scenario',
  'method',
  'path',
  'query',
  'status',
  'durationMs',
  'requestBody',
  'responseBody',
] as const satisfies readonly (keyof (JournalEntry & CallEntry))[]

/** Whether a call has exactly the fields the ring keeps, in their order, each of its type. */
function hasCallShape(call: JournalEntry & CallEntry): boolean {
  const keys = Object.keys(call)
  let at = CALL_FIELDS.length
  if (keys.length < at || keys.length > at + 2) return false
  for (let i = 0; i < at; i++) if (keys[i] !== CALL_FIELDS[i]) return false
  if (keys[at] === 'fault') at++
  if (keys[at] === 'hint') at++
  if (at !== keys.length) return false
  const optional = (value: unknown) => value === undefined || typeof value === 'string'
  return (
    typeof call.scenario === 'string' &&
    typeof call.method === 'string' &&
    typeof call.path === 'string' &&
    typeof call.query === 'object' &&
    call.query !== null &&
    optional(call.fault) &&
    optional(call.hint)
  )
}

/**
 * Whether a call can be kept as numbers, and its time: its id the ULID of its time (to the millisecond), its `at`
 * that time as `toISOString` writes it, its bodies `RawBody`s, its status and duration numbers. `atMs`: the time
 * the id was made from (the journal middleware's entries, built in `CALL_FIELDS`' shape), else read from `at` and
 * the shape checked. NaN: kept as its object.
 */
function compactTime(call: JournalEntry & CallEntry, atMs: number | undefined): number {
  if (!(call.requestBody instanceof RawBody && call.responseBody instanceof RawBody)) return Number.NaN
  if (typeof call.status !== 'number' || typeof call.durationMs !== 'number') return Number.NaN
  if (typeof call.id !== 'string' || call.id.length !== 26) return Number.NaN
  if (atMs === undefined && !hasCallShape(call)) return Number.NaN
  const ms = atMs ?? Date.parse(call.at)
  if (!Number.isSafeInteger(ms) || ms < 0 || ms >= 2 ** 48) return Number.NaN
  // the middleware's `at` is isoOf's string of that millisecond (usually the very string, found equal at once)
  if (call.at !== isoOf(ms)) return Number.NaN
  // the id's first 10 characters are its time (48 bits: 8 characters, then 2); an id the journal made from `atMs`
  // holds it by construction
  if (
    atMs === undefined &&
    (crockfordValue(call.id, 0, 8) !== Math.floor(ms / 1024) || crockfordValue(call.id, 8, 2) !== ms % 1024)
  )
    return Number.NaN
  return ms
}

/**
 * One key's entries, oldest first, in a ring that doubles when full and halves when a quarter full. A call is kept
 * as numbers (its time, its id's random part, status, duration, body sizes) and references to the strings it names
 * (scenario, method, path, query, bodies' texts, fault, hint); its id, `at` and bodies are written again when it is
 * read. Any other entry (events, deliveries, a call that does not fit: see `compactTime`) is kept as its object.
 */
export class KeyJournal {
  #numbers = new Float64Array(FIRST_CAPACITY * NUMBERS)
  #references: unknown[] = new Array(FIRST_CAPACITY * REFERENCES).fill(undefined)
  #capacity = FIRST_CAPACITY
  #first = 0
  #count = 0
  bytes = 0
  /** a claimable sandbox's key: its bytes count in the claimed keys' share */
  claimed = false

  get count(): number {
    return this.#count
  }

  /** The slots the ring holds (at least `count`). */
  get capacity(): number {
    return this.#capacity
  }

  /** Appends an entry of `size` bytes; `atMs`: the time its id was made from, when the caller knows it. */
  push(entry: JournalEntry, size: number, atMs?: number): void {
    if (this.#count === this.#capacity) this.#resize(this.#capacity * 2)
    const slot = (this.#first + this.#count) % this.#capacity
    this.#count++
    this.bytes += size
    const n = slot * NUMBERS
    const r = slot * REFERENCES
    const numbers = this.#numbers
    const references = this.#references
    numbers[n + N_SIZE] = size
    const call = entry as JournalEntry & CallEntry
    const ms = entry.type === 'call' ? compactTime(call, atMs) : Number.NaN
    const high = !Number.isNaN(ms) ? crockfordValue(call.id, 10, 8) : -1
    const low = high >= 0 ? crockfordValue(call.id, 18, 8) : -1
    if (low < 0) {
      references[r + R_OBJECT] = entry
      return
    }
    const request = call.requestBody as RawBody
    const response = call.responseBody as RawBody
    numbers[n + N_AT] = ms
    numbers[n + N_HIGH] = high
    numbers[n + N_LOW] = low
    numbers[n + N_STATUS] = call.status
    numbers[n + N_DURATION] = call.durationMs
    numbers[n + N_REQUEST_BYTES] = request.bytes
    numbers[n + N_RESPONSE_BYTES] = response.bytes
    references[r + R_OBJECT] = undefined
    references[r + R_SCENARIO] = call.scenario
    references[r + R_METHOD] = call.method
    references[r + R_PATH] = call.path
    references[r + R_QUERY] = call.query
    references[r + R_REQUEST] = request.text
    references[r + R_RESPONSE] = response.text
    references[r + R_FAULT] = call.fault
    references[r + R_HINT] = call.hint
  }

  /** Drops the oldest entry; returns its size. */
  dropOldest(): number {
    const slot = this.#first
    const size = this.#numbers[slot * NUMBERS + N_SIZE]!
    const references = this.#references
    for (let r = slot * REFERENCES, end = r + REFERENCES; r < end; r++) references[r] = undefined
    this.#first = (slot + 1) % this.#capacity
    this.#count--
    this.bytes -= size
    // a key trimmed far below what it held (the byte bounds) gives its room back
    if (this.#capacity > FIRST_CAPACITY && this.#count <= this.#capacity / 4) this.#resize(this.#capacity / 2)
    return size
  }

  /** Whether the entry `back` places from the newest passes `filter`, read from what is kept (nothing rebuilt). */
  matches(back: number, filter: JournalFilter): boolean {
    const slot = (this.#first + this.#count - 1 - back) % this.#capacity
    const r = slot * REFERENCES
    const references = this.#references
    const kept = references[r + R_OBJECT] as JournalEntry | undefined
    if (kept !== undefined) return entryMatches(kept, filter)
    if (filter.types && !filter.types.includes('call')) return false
    if (filter.scenario && references[r + R_SCENARIO] !== filter.scenario) return false
    if (filter.since && this.#numbers[slot * NUMBERS + N_AT]! <= filter.since.getTime()) return false
    if (filter.event) return false
    if (filter.path && !(references[r + R_PATH] as string).startsWith(filter.path)) return false
    return true
  }

  /** The entry `back` places from the newest (0: the newest). */
  fromNewest(back: number): JournalEntry {
    return this.#read((this.#first + this.#count - 1 - back) % this.#capacity)
  }

  /** Every entry, oldest first. */
  all(): JournalEntry[] {
    const out: JournalEntry[] = []
    for (let i = 0; i < this.#count; i++) out.push(this.#read((this.#first + i) % this.#capacity))
    return out
  }

  /** Moves the entries, oldest first, to a ring of `capacity` slots (at least `count`). */
  #resize(capacity: number): void {
    const numbers = new Float64Array(capacity * NUMBERS)
    const references: unknown[] = new Array(capacity * REFERENCES).fill(undefined)
    for (let i = 0; i < this.#count; i++) {
      const from = (this.#first + i) % this.#capacity
      numbers.set(this.#numbers.subarray(from * NUMBERS, (from + 1) * NUMBERS), i * NUMBERS)
      for (let k = 0; k < REFERENCES; k++)
        references[i * REFERENCES + k] = this.#references[from * REFERENCES + k]
    }
    this.#numbers = numbers
    this.#references = references
    this.#capacity = capacity
    this.#first = 0
  }

  /** The entry of a slot: its object, or the call written again from its numbers (same fields, same order). */
  #read(slot: number): JournalEntry {
    const r = slot * REFERENCES
    const references = this.#references
    const kept = references[r + R_OBJECT] as JournalEntry | undefined
    if (kept !== undefined) return kept
    const n = slot * NUMBERS
    const numbers = this.#numbers
    const atMs = numbers[n + N_AT]!
    const entry: JournalEntry = {
      id: ulidOf(atMs, numbers[n + N_HIGH]!, numbers[n + N_LOW]!),
      type: 'call',
      at: new Date(atMs).toISOString(),
      scenario: references[r + R_SCENARIO] as string,
      method: references[r + R_METHOD] as string,
      path: references[r + R_PATH] as string,
      query: references[r + R_QUERY] as Record<string, string>,
      status: numbers[n + N_STATUS]!,
      durationMs: numbers[n + N_DURATION]!,
      requestBody: RawBody.restored(
        references[r + R_REQUEST] as string | undefined,
        numbers[n + N_REQUEST_BYTES]!,
      ),
      responseBody: RawBody.restored(
        references[r + R_RESPONSE] as string | undefined,
        numbers[n + N_RESPONSE_BYTES]!,
      ),
    }
    const fault = references[r + R_FAULT] as string | undefined
    const hint = references[r + R_HINT] as string | undefined
    if (fault !== undefined) (entry as CallEntry).fault = fault
    if (hint !== undefined) (entry as CallEntry).hint = hint
    return entry
  }
}
