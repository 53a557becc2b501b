import { describe, expect, it } from 'vitest'
import { createIdGenerator } from '../store/ids.ts'
import { Journal, journalBody, RawBody } from './journal.ts'

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

  it('stays exact through thousands of drops: order, count, bytes and the export', () => {
    const journal = new Journal(createIdGenerator(1), 100)
    for (let i = 0; i < 5000; i++) journal.record('a', call(`/p${i}`, new Date(1000 * i).toISOString()))
    const paths = journal.list('a', { limit: 1000 }).map((e) => (e.type === 'call' ? e.path : ''))
    expect(paths).toHaveLength(100)
    expect(paths[0]).toBe('/p4999')
    expect(paths[99]).toBe('/p4900')
    expect(journal.bytes).toBe(100 * 300)
    const [[tenant, saved]] = journal.export() as unknown as [[string, { path: string }[]]]
    expect(tenant).toBe('a')
    expect(saved.map((e) => e.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/p${4900 + i}`))
  })

  it('bounds the bytes of each key and of all keys, the keys written least recently losing entries first', () => {
    const journal = new Journal(createIdGenerator(1), { perKeyBytes: 10_000, totalBytes: 25_000 })
    const big = (path: string) => ({
      ...call(path, new Date(0).toISOString()),
      responseBody: new RawBody('x'.repeat(3000)),
    })
    for (let i = 0; i < 10; i++) journal.record('a', big(`/a${i}`))
    // 3,300 bytes an entry: three fit in 10,000
    expect(journal.list('a').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/a9', '/a8', '/a7'])
    for (let i = 0; i < 3; i++) journal.record('b', big(`/b${i}`))
    journal.record('c', big('/c0'))
    journal.record('c', big('/c1'))
    // 8 entries do not fit in 25,000: a (written least recently) gives up its oldest first
    expect(journal.bytes).toBeLessThanOrEqual(25_000)
    expect(journal.list('a').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/a9', '/a8'])
    expect(journal.list('b')).toHaveLength(3)
    expect(journal.list('c')).toHaveLength(2)
    journal.clear('b')
    expect(journal.bytes).toBe(4 * 3300)
  })

  it('counts a key written again as the most recent one, and starts a cleared key afresh', () => {
    const journal = new Journal(createIdGenerator(1), { perKeyBytes: 100_000, totalBytes: 25_000 })
    const big = (path: string) => ({
      ...call(path, new Date(0).toISOString()),
      responseBody: new RawBody('x'.repeat(3000)),
    })
    journal.record('a', big('/a0'))
    journal.record('a', big('/a1'))
    journal.record('b', big('/b0'))
    journal.record('a', big('/a2'))
    journal.record('a', big('/a3'))
    // 3,300 bytes an entry: 7 fit in 25,000; the eighth pushes out the oldest entry of b, written least recently
    for (let i = 0; i < 3; i++) journal.record('c', big(`/c${i}`))
    expect(journal.list('b')).toEqual([])
    expect(journal.list('a')).toHaveLength(4)
    journal.clear('c')
    journal.record('c', big('/c-again'))
    expect(journal.list('c').map((e) => (e.type === 'call' ? e.path : ''))).toEqual(['/c-again'])
    expect(journal.bytes).toBe(5 * 3300)
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
