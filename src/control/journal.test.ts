import { describe, expect, it } from 'vitest'
import { EventBus } from '../events/event-bus.ts'
import { createIdGenerator } from '../store/ids.ts'
import {
  Journal,
  type JournalEntry,
  type JournalTopics,
  journalBody,
  journalText,
  KEY_OVERHEAD,
  RawBody,
  readable,
  readJournalText,
} from './journal.ts'

const call = (path: string, at: string) =>
  ({
    type: 'call',
    at,
    scenario: 'default',
    method: 'GET',
    path,
    query: {},
    status: 200,
    durationMs: 1,
    requestBody: null,
    responseBody: null,
  }) as const

describe('the journal', () => {
  it('keeps the newest entries of each key up to its capacity, newest first', () => {
    const journal = new Journal(createIdGenerator(1), 3)
    for (let i = 0; i < 5; i++) journal.record('a', call(`/p${i}`, new Date(1000 * i).toISOString()))
    journal.record('b', call('/other', new Date(0).toISOString()))
    expect(journal.list('a').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/p4', '/p3', '/p2'])
    expect(journal.list('a', { since: new Date(3000) })).toHaveLength(1)
    expect(journal.list('b')).toHaveLength(1)
    for (let i = 5; i < 20; i++) journal.record('a', call(`/p${i}`, new Date(1000 * i).toISOString()))
    expect(journal.list('a', { limit: 10 }).map((e) => (e.type === 'call' ? e.path : ''))).toEqual([
      '/p19',
      '/p18',
      '/p17',
    ])
    journal.clear('a')
    expect(journal.list('a')).toEqual([])
  })

  it("records an entry built with its id first (the middleware's) as `record` does: a ULID of its time, first, same ids under a seed", () => {
    const built = new Journal(createIdGenerator(7), 10)
    const copied = new Journal(createIdGenerator(7), 10)
    const at = '2026-12-06T19:00:00.000Z'
    const entry = built.recordBuilt('a', { id: '', ...call('/built', at) } as JournalEntry, Date.parse(at))
    const other = copied.record('a', call('/built', at), Date.parse(at))
    expect(Object.keys(entry)[0]).toBe('id')
    expect(entry.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(entry.id).toBe(other.id)
    expect(JSON.stringify(built.list('a'))).toBe(JSON.stringify(copied.list('a')))
    // ids of one millisecond share their time's characters, and each is its own
    const ids = new Set(Array.from({ length: 50 }, () => built.record('a', call('/p', at)).id))
    expect(ids.size).toBe(50)
    expect([...ids].every((id) => id.startsWith(entry.id.slice(0, 10)))).toBe(true)
  })

  it('stays exact through thousands of drops: order, count, bytes and the export', () => {
    const journal = new Journal(createIdGenerator(1), 100)
    for (let i = 0; i < 5000; i++) journal.record('a', call(`/p${i}`, new Date(1000 * i).toISOString()))
    const paths = journal.list('a', { limit: 1000 }).map((e) => (e.type === 'call' ? e.path : ''))
    expect(paths).toHaveLength(100)
    expect(paths[0]).toBe('/p4999')
    expect(paths[99]).toBe('/p4900')
    // 300 bytes an entry and its path's characters ('/p4900': 6), and the key's own cost with its name's
    expect(journal.bytes).toBe(100 * 306 + KEY_OVERHEAD + 1)
    const [[tenant, saved]] = journal.export() as unknown as [[string, { path: string }[]]]
    expect(tenant).toBe('a')
    expect(saved.map((e) => e.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/p${4900 + i}`))
  })

  it('bounds the bytes of each key and of all keys, the keys written least recently losing entries first', () => {
    const journal = new Journal(createIdGenerator(1), { perKeyBytes: 10_700, totalBytes: 27_000 })
    const big = (path: string) => ({
      ...call(path, new Date(0).toISOString()),
      responseBody: new RawBody('x'.repeat(3000)),
    })
    for (let i = 0; i < 10; i++) journal.record('a', big(`/a${i}`))
    // 3,303 bytes an entry, and the key's own 601: three fit in 10,700
    expect(journal.list('a').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/a9', '/a8', '/a7'])
    for (let i = 0; i < 3; i++) journal.record('b', big(`/b${i}`))
    journal.record('c', big('/c0'))
    journal.record('c', big('/c1'))
    // 8 entries of 3 keys do not fit in 27,000: a (written least recently) gives up its oldest first
    expect(journal.bytes).toBeLessThanOrEqual(27_000)
    expect(journal.list('a').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/a9', '/a8'])
    expect(journal.list('b')).toHaveLength(3)
    expect(journal.list('c')).toHaveLength(2)
    journal.clear('b')
    // 3,300 bytes an entry and its path's 3 characters, and the two keys' own costs
    expect(journal.bytes).toBe(4 * 3303 + 2 * (KEY_OVERHEAD + 1))
  })

  it("keeps claimed keys' journals to half the total, theirs losing entries before the operator's", () => {
    const claimed = (key: string) => key.startsWith('sk_sandbox_')
    const journal = new Journal(
      createIdGenerator(1),
      { perKeyBytes: 10_700, totalBytes: 35_600 },
      null,
      claimed,
    )
    const big = (path: string) => ({
      ...call(path, new Date(0).toISOString()),
      responseBody: new RawBody('x'.repeat(3000)),
    })
    // the operator's key, written first (least recently): 3 entries of 3,300 bytes and their paths' characters
    for (let i = 0; i < 3; i++) journal.record('sk_operator', big(`/op${i}`))
    // eight claimed keys, each within its own bound (3 entries), write their most
    for (let k = 0; k < 8; k++)
      for (let i = 0; i < 3; i++) journal.record(`sk_sandbox_${k}`, big(`/k${k}-${i}`))
    expect(journal.list('sk_operator')).toHaveLength(3)
    // the claimed keys keep at most half of 35,600: 5 entries (3,305 bytes each) of two keys (612 each), the newest
    const kept = Array.from({ length: 8 }, (_, k) => journal.list(`sk_sandbox_${k}`).length)
    expect(kept.reduce((a, b) => a + b, 0)).toBe(5)
    expect(journal.list('sk_sandbox_7')).toHaveLength(3)
    // another key of the operator's past the total: the claimed keys make room, not the operator's first key
    for (let i = 0; i < 3; i++) journal.record('sk_team', big(`/team${i}`))
    expect(journal.bytes).toBeLessThanOrEqual(35_600)
    expect(journal.list('sk_operator')).toHaveLength(3)
    expect(journal.list('sk_team')).toHaveLength(3)
  })

  it('counts a key written again as the most recent one, and starts a cleared key afresh', () => {
    const journal = new Journal(createIdGenerator(1), { perKeyBytes: 100_000, totalBytes: 26_000 })
    const big = (path: string) => ({
      ...call(path, new Date(0).toISOString()),
      responseBody: new RawBody('x'.repeat(3000)),
    })
    journal.record('a', big('/a0'))
    journal.record('a', big('/a1'))
    journal.record('b', big('/b0'))
    journal.record('a', big('/a2'))
    journal.record('a', big('/a3'))
    // 3,303 bytes an entry (with its path) and 601 a key: 7 entries of 3 keys fit in 26,000; the eighth pushes out
    // the entry of b, written least recently, and b with it
    for (let i = 0; i < 3; i++) journal.record('c', big(`/c${i}`))
    expect(journal.list('b')).toEqual([])
    expect(journal.list('a')).toHaveLength(4)
    journal.clear('c')
    journal.record('c', big('/c-again'))
    expect(journal.list('c').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/c-again'])
    expect(journal.bytes).toBe(4 * 3303 + 3308 + 2 * (KEY_OVERHEAD + 1))
  })

  it("counts each key's own cost and name: many keys of one call each fill the total, not the heap", () => {
    const journal = new Journal(createIdGenerator(1), { totalBytes: 20_000 })
    const keys = Array.from({ length: 100 }, (_, i) => `${'k'.repeat(1000)}${i}`)
    for (const key of keys) journal.record(key, call('/p', new Date(0).toISOString()))
    expect(journal.bytes).toBeLessThanOrEqual(20_000)
    // 302 an entry, 600 a key and its 1,002 characters: 10 keys, the newest (counting entries alone, 66 stayed)
    const kept = keys.filter((key) => journal.list(key).length > 0)
    expect(kept).toEqual(keys.slice(-10))
    journal.clear(keys[99]!)
    expect(journal.bytes).toBe(9 * 302 + 9 * (KEY_OVERHEAD + 1002))
  })

  it("counts a call's path, query and hint in its bytes: long URLs fill a key's bound as bodies do", () => {
    const journal = new Journal(createIdGenerator(1), { perKeyBytes: 50_000 })
    const long = 'x'.repeat(10_000)
    for (let i = 0; i < 5; i++)
      journal.record('a', { ...call(`/p/${long}`, new Date(0).toISOString()), query: { q: long } })
    // 300 + 10,003 + 10,001 bytes an entry: two fit in 50,000
    expect(journal.list('a')).toHaveLength(2)
    expect(journal.bytes).toBe(2 * 20_304 + KEY_OVERHEAD + 1)
    const hinted = new Journal(createIdGenerator(1), { perKeyBytes: 50_000 })
    for (let i = 0; i < 5; i++)
      hinted.record('a', { ...call('/p', new Date(0).toISOString()), hint: long.repeat(2) })
    expect(hinted.list('a')).toHaveLength(2)
    // a journal edited by hand: values that are not strings count nothing, and the count stays a number
    const edited = new Journal(createIdGenerator(1))
    edited.import([
      [
        'a',
        [
          {
            ...call('/p', new Date(0).toISOString()),
            id: 'x',
            hint: { length: '5' },
            query: { q: 7 },
          } as never,
        ],
      ],
    ])
    expect(edited.bytes).toBe(300 + 2 + 1 + KEY_OVERHEAD + 1)
    // a path that is not a string passes no path filter (it threw, a 500 from GET /__sandbox/journal?path=)
    edited.import([['b', [{ ...call('/p', new Date(0).toISOString()), id: 'y', path: 5 } as never]]])
    expect(edited.list('b', { path: '/p' })).toEqual([])
    expect(edited.list('b')).toHaveLength(1)
  })

  it('keeps small bodies and summarises large ones', () => {
    expect(journalBody('{"a":1}')).toEqual({ a: 1 })
    expect(journalBody('not json')).toBe('not json')
    expect(journalBody(undefined)).toBeNull()
    expect(journalBody('x'.repeat(5000))).toMatchObject({ truncated: true, bytes: 5000 })
    const raw = new RawBody(`{"pad":"${'y'.repeat(10_000)}"}`)
    expect(raw.text).toHaveLength(256)
    expect(raw.view()).toMatchObject({ truncated: true, bytes: 10_010 })
    // the size of a large body is its UTF-8 bytes, as journalBody counts them (é is 2 bytes)
    expect(new RawBody(`"${'é'.repeat(5000)}"`).view()).toMatchObject({ truncated: true, bytes: 10_002 })
    expect(journalBody('é'.repeat(5000))).toMatchObject({ truncated: true, bytes: 10_000 })
  })
})

describe("the journal's rows in state.db", () => {
  it('write call bodies as their text (any character, cut or absent) and read them back, beside JSON entries', () => {
    const source = new Journal(createIdGenerator(1))
    const at = new Date(0).toISOString()
    const bodies: [string | undefined, string | undefined][] = [
      ['{"a":"b\\"c"}', '{"ok":true}'],
      // separators, a character outside the BMP, and text that is no JSON
      ['\u001e\u0001;,{"x":1}\u001e', 'not json 😀\u001f'],
      [undefined, 'x'.repeat(5000)],
      [`"${'é'.repeat(5000)}"`, undefined],
    ]
    for (const [request, response] of bodies)
      source.record('a', {
        ...call('/v2/request', at),
        requestBody: new RawBody(request),
        responseBody: new RawBody(response),
      })
    source.record('a', {
      type: 'event',
      at,
      scenario: 'default',
      eventId: 'e1',
      event: 'payment.confirmed',
      payload: { n: 1 },
    })
    // a call whose bodies are not kept text (written as JSON, as every entry was before)
    source.record('a', { ...call('/plain', at), responseBody: { kept: 'as JSON' } })
    const entries = source.export()[0]![1]
    const texts = entries.map(journalText)
    expect(texts.slice(0, 4).every((t) => t.startsWith('\u0001'))).toBe(true)
    expect(texts.slice(4).every((t) => t.startsWith('{'))).toBe(true)
    // entries of a row and rows are split by U+001E, as group_concat gives them; a row as format 4 wrote it too
    const old = JSON.stringify({ ...entries[0], requestBody: { $raw: 'old', bytes: 3 } })
    const read = readJournalText(
      [texts.slice(0, 3).join('\u001e'), texts.slice(3).join('\u001e'), old].join('\u001e'),
    )
    const restored = new Journal(createIdGenerator(2))
    restored.import([['a', read]])
    expect(restored.list('a', { limit: 100 }).reverse()).toEqual([
      ...source.list('a', { limit: 100 }).reverse(),
      { ...source.list('a', { limit: 100 }).at(-1), requestBody: 'old' },
    ])
  })

  it('write a call whose body holds a NUL as JSON (SQLite reads a text only up to a NUL), read back the same', () => {
    const source = new Journal(createIdGenerator(1))
    const at = new Date(0).toISOString()
    source.record('a', {
      ...call('/v2/request', at),
      requestBody: new RawBody('{"a":"x\u0000y"'),
      responseBody: new RawBody('{"ok":true}'),
    })
    const [entry] = source.export()[0]![1]
    const text = journalText(entry!)
    expect(text.startsWith('{')).toBe(true)
    expect(text).not.toContain('\u0000')
    const restored = new Journal(createIdGenerator(2))
    restored.import([['a', readJournalText(text)]])
    expect(restored.list('a', { limit: 10 })).toEqual(source.list('a', { limit: 10 }))
  })

  it('leave out an entry that cannot be read (a row edited by hand) and read the rest', () => {
    const good = journalText({
      ...call('/good', new Date(0).toISOString()),
      id: 'g',
      requestBody: new RawBody('{"a":1}'),
      responseBody: new RawBody('{"b":2}'),
    })
    const text = [
      good,
      '\u00019,9,9;short',
      '\u0001x,1,1,1,1;{}ab',
      `${good.slice(0, -3)}XYZW`,
      'not json',
      good,
    ].join('\u001e')
    const read = readJournalText(text)
    expect(read.map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/good', '/good'])
    expect(read[1]).toMatchObject({
      requestBody: { $raw: '{"a":1}', bytes: 7 },
      responseBody: { $raw: '{"b":2}' },
    })
  })
})

describe('the journal on the event bus', () => {
  it("publishes each new entry as recorded on the bus's journal topic, history (an import) not", () => {
    const ids = createIdGenerator(1)
    const bus = new EventBus<JournalTopics>(ids, () => {})
    const journal = new Journal(ids, {}, bus)
    const all: [string, JournalEntry][] = []
    const ofA: JournalEntry[] = []
    bus.on('journal', (tenant, entry) => all.push([tenant, entry]))
    bus.on('journal', (_tenant, entry) => ofA.push(readable(entry)), 'a')
    const at = new Date(0).toISOString()
    const first = journal.record('a', {
      ...call('/v2/request', at),
      responseBody: new RawBody('{"ok":true}'),
    })
    const second = journal.record('b', call('/v1/currencies', at))
    // recorded as is (bodies unread) for every key's listeners; a key's listener reads it as `list` shows it
    expect(all).toEqual([
      ['a', first],
      ['b', second],
    ])
    expect(all[0]![1].type === 'call' && all[0]![1].responseBody).toBeInstanceOf(RawBody)
    expect(ofA).toEqual(journal.list('a'))
    journal.import([['c', [{ ...call('/old', at), id: 'old' }]]])
    expect(all).toHaveLength(2)
  })
})
