import { describe, expect, it } from 'vitest'
import { isoOf } from '../store/clock.ts'
import { createIdGenerator } from '../store/ids.ts'
import { Journal, journalText, readJournalText } from './journal.ts'
import { entryMatches, type JournalEntry, type JournalFilter, RawBody } from './journal-entry.ts'
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
    ['a field the journal does not write', { extra: 1 }],
    ['a field missing', { query: undefined }],
    ['a query that is not an object', { query: 'a=1' }],
  ])('keeps a call with %s as its own object', (_name, change) => {
    const journal = new KeyJournal()
    const atMs = Date.parse('2026-12-06T23:40:01.234Z')
    const entry = { ...call(atMs), ...change } as JournalEntry
    if ('query' in change && change.query === undefined) delete (entry as { query?: unknown }).query
    journal.push(entry, 10)
    expect(journal.fromNewest(0)).toBe(entry)
  })

  it('keeps a call as its object when the time its id was made from is not a whole millisecond', () => {
    const journal = new KeyJournal()
    const entry = call(1000)
    journal.push(entry, 10, 1000.5)
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

  it('gives back what a ring that grew and then shrank holds, in order', () => {
    const journal = new KeyJournal()
    const made: JournalEntry[] = []
    for (let i = 0; i < 40; i++) {
      made.push(call(1_700_000_000_000 + i))
      journal.push(made.at(-1)!, 1)
    }
    for (let i = 0; i < 35; i++) journal.dropOldest()
    for (let i = 40; i < 52; i++) {
      made.push(call(1_700_000_000_000 + i))
      journal.push(made.at(-1)!, 1)
    }
    expect(journal.count).toBe(17)
    expect(JSON.stringify(journal.all())).toBe(JSON.stringify(made.slice(35)))
  })

  it('makes room for one entry at first, doubles when full and halves when a quarter full', () => {
    const journal = new KeyJournal()
    const made: JournalEntry[] = []
    const sizes: number[] = []
    for (let i = 0; i < 40; i++) {
      made.push(call(1_700_000_000_000 + i))
      journal.push(made.at(-1)!, 1)
      sizes.push(journal.capacity)
    }
    expect(sizes.slice(0, 6)).toEqual([1, 2, 4, 4, 8, 8])
    expect(journal.capacity).toBe(64)
    while (journal.count > 16) journal.dropOldest()
    expect(journal.capacity).toBe(32)
    while (journal.count > 1) journal.dropOldest()
    expect(journal.capacity).toBe(2)
    expect(JSON.stringify(journal.all())).toBe(JSON.stringify(made.slice(39)))
  })

  it.each<[string, JournalFilter]>([
    ['types', { types: ['call'] }],
    ['types (events only)', { types: ['event'] }],
    ['scenario', { scenario: 'other' }],
    ['since', { since: new Date(1_700_000_000_005) }],
    ['event', { event: 'payment.confirmed' }],
    ['path', { path: '/v2/request/a' }],
  ])('answers the %s filter from what it keeps as the entries themselves would', (_name, filter) => {
    const journal = new KeyJournal()
    for (let i = 0; i < 12; i++) {
      const atMs = 1_700_000_000_000 + i
      const entry =
        i % 4 === 0
          ? event(atMs)
          : call(atMs, {
              scenario: i % 2 ? 'default' : 'other',
              path: i % 3 ? '/v2/request/a1' : '/v2/request',
            })
      journal.push(entry, 1)
    }
    const check = () => {
      const all = journal.all()
      const expected = all.map((entry) => entryMatches(entry, filter)).reverse()
      expect(all.map((_e, back) => journal.matches(back, filter))).toEqual(expected)
      return expected
    }
    expect(check().some(Boolean)).toBe(true)
    // wrapped (16 slots for 12 entries; 6 dropped, 8 more): the oldest slots reused by newer entries
    expect(journal.capacity).toBe(16)
    for (let i = 0; i < 6; i++) journal.dropOldest()
    for (let i = 12; i < 20; i++)
      journal.push(call(1_700_000_000_000 + i, { path: `/v2/request/a${i}`, scenario: 'other' }), 1)
    expect(journal.capacity).toBe(16)
    expect(check().some(Boolean)).toBe(true)
    // shrunk, then wrapped again
    while (journal.count > 3) journal.dropOldest()
    journal.push(event(1_700_000_000_020), 1)
    check()
  })

  it('puts back a saved journal as it was read before the ring (a fault or hint keeps its saved order)', () => {
    const journal = new Journal(createIdGenerator(5), 10)
    const atMs = Date.parse('2026-12-06T23:40:01.234Z')
    const middlewareEntry = (extra: Record<string, unknown>) =>
      ({ ...call(atMs), ...extra, id: '' }) as JournalEntry
    journal.recordBuilt('k', middlewareEntry({}), atMs)
    journal.recordBuilt('k', middlewareEntry({ fault: 'slow', hint: 'a hint' }), atMs)
    const saved = journal.export().map(([tenant, entries]) => {
      const text = entries.map(journalText).join('\u001e')
      return [tenant, readJournalText(text)] as [string, JournalEntry[]]
    })
    const back = new Journal(createIdGenerator(6), 10)
    back.import(saved)
    const before = journal.list('k')
    const after = back.list('k')
    expect(after).toEqual(before)
    // a call without fault or hint comes back field for field in order; one with them in the order it was saved in
    expect(JSON.stringify(after[1])).toBe(JSON.stringify(before[1]))
    expect(Object.keys(after[0]!).slice(-2)).toEqual(['requestBody', 'responseBody'])
  })

  it("keeps the journal middleware's calls as numbers: read back as new objects equal to them", () => {
    const journal = new Journal(createIdGenerator(5), 10)
    const atMs = Date.parse('2026-12-06T23:40:01.234Z')
    const recorded = journal.recordBuilt('k', { ...call(atMs), id: '' } as JournalEntry, atMs)
    const [[, [back]]] = journal.export() as [[string, JournalEntry[]]]
    expect(back).not.toBe(recorded)
    expect(JSON.stringify(back)).toBe(JSON.stringify(recorded))
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
