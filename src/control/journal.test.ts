import { describe, expect, it } from 'vitest'
import { createIdGenerator } from '../store/ids.ts'
import { Journal, journalBody } from './journal.ts'

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

  it('keeps small bodies and summarises large ones', () => {
    expect(journalBody('{"a":1}')).toEqual({ a: 1 })
    expect(journalBody('not json')).toBe('not json')
    expect(journalBody(undefined)).toBeNull()
    expect(journalBody('x'.repeat(5000))).toMatchObject({ truncated: true, bytes: 5000 })
  })
})
