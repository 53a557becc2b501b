import { describe, expect, it } from 'vitest'
import { isoOf } from '../store/clock.ts'
import { createIdGenerator } from '../store/ids.ts'
import { type JournalEntry, RawBody } from './journal-entry.ts'
import { KeyJournal, ulidOf } from './key-journal.ts'

const ids = createIdGenerator(3)

/** A call as the journal middleware builds it: its id the ULID of its time, `at` isoOf's string of that time. */
function call(atMs: number, extra: Partial<Record<string, unknown>> = {}): JournalEntry {
  return {
    id: ids.ulid(atMs),
    type: 'call',
    at: isoOf(atMs),
    scenario: 'default',
    method: 'POST',
    path: '/v2/request',
    query: { a: '1' },
    status: 201,
    durationMs: 3,
    requestBody: new RawBody('{"amount":"10"}'),
    responseBody: new RawBody(`{"long":"${'é'.repeat(5000)}"}`),
    ...extra,
  } as JournalEntry
}

const event = (n: number): JournalEntry =>
  ({
    id: `event-${n}`,
    type: 'event',
    at: new Date(n).toISOString(),
    scenario: 'default',
    eventId: `e${n}`,
    event: 'payment.confirmed',
    payload: { n },
  }) as JournalEntry

describe("a key's journal", () => {
  it('keeps a call as numbers and gives it back field for field, in the same order (bodies, fault, hint)', () => {
    const journal = new KeyJournal()
    const atMs = Date.parse('2026-12-06T23:40:01.234Z')
    const entry = call(atMs, { fault: 'slow', hint: 'a hint' })
    journal.push(entry, 100, atMs)
    const back = journal.fromNewest(0)
    // written again from its numbers: not the object it was given
    expect(back).not.toBe(entry)
    expect(JSON.stringify(back)).toBe(JSON.stringify(entry))
    expect(Object.keys(back)).toEqual(Object.keys(entry))
    const response = (back as { responseBody: RawBody }).responseBody
    expect(response.bytes).toBe((entry as { responseBody: RawBody }).responseBody.bytes)
    expect(response.view()).toEqual({ truncated: true, bytes: response.bytes, start: expect.any(String) })
  })

  it('reads the time from `at` when it is not given (a saved journal put back), and keeps the call as numbers', () => {
    const journal = new KeyJournal()
    const entry = call(Date.parse('2026-01-02T03:04:05.006Z'), { requestBody: new RawBody(undefined) })
    journal.push(entry, 10)
    expect(journal.fromNewest(0)).not.toBe(entry)
    expect(JSON.stringify(journal.fromNewest(0))).toBe(JSON.stringify(entry))
  })

  it.each([
    ['an id that is not a ULID', { id: 'not-an-id' }],
    ['an id of another time', { id: ulidOf(5, 1, 2) }],
    ['an id with a character Crockford does not use', { id: `${ulidOf(0, 0, 0).slice(0, 25)}U` }],
    ['an `at` that is not the id’s time', { at: '2026-12-06T00:00:00.000Z' }],
    ['bodies that are not RawBodies', { requestBody: null }],
    ['a status that is not a number', { status: '201' }],
  ])('keeps a call with %s as its own object', (_name, change) => {
    const journal = new KeyJournal()
    const atMs = Date.parse('2026-12-06T23:40:01.234Z')
    const entry = { ...call(atMs), ...change } as JournalEntry
    journal.push(entry, 10)
    expect(journal.fromNewest(0)).toBe(entry)
  })

  it('keeps events and deliveries as their objects', () => {
    const journal = new KeyJournal()
    const entry = event(1)
    journal.push(entry, 10)
    expect(journal.fromNewest(0)).toBe(entry)
  })

  it('keeps the order, the sizes and the count through drops, wraps and growth', () => {
    const journal = new KeyJournal()
    const made: JournalEntry[] = []
    let next = 0
    const add = () => {
      const n = next++
      const entry = n % 3 === 0 ? event(n) : call(1_700_000_000_000 + n)
      made.push(entry)
      journal.push(entry, n + 1)
    }
    for (let i = 0; i < 6; i++) add()
    // drop 4, add 10: the ring wraps, then grows past its first capacity while wrapped
    let dropped = 0
    for (let i = 0; i < 4; i++) dropped += journal.dropOldest()
    expect(dropped).toBe(1 + 2 + 3 + 4)
    for (let i = 0; i < 10; i++) add()
    const kept = made.slice(4)
    expect(journal.count).toBe(kept.length)
    expect(journal.bytes).toBe(kept.reduce((sum, _e, i) => sum + i + 5, 0))
    expect(JSON.stringify(journal.all())).toBe(JSON.stringify(kept))
    expect(JSON.stringify(journal.fromNewest(0))).toBe(JSON.stringify(kept.at(-1)))
    expect(JSON.stringify(journal.fromNewest(kept.length - 1))).toBe(JSON.stringify(kept[0]))
    while (journal.count) journal.dropOldest()
    expect(journal.bytes).toBe(0)
    expect(journal.all()).toEqual([])
  })

  it('writes an id back as the generator made it', () => {
    for (const atMs of [0, 1, 1_765_000_000_000, 2 ** 48 - 1]) {
      const id = ids.ulid(atMs)
      const journal = new KeyJournal()
      const entry = { ...call(1), id, at: isoOf(atMs) } as JournalEntry
      journal.push(entry, 1, atMs)
      expect(journal.fromNewest(0).id).toBe(id)
    }
  })
})
