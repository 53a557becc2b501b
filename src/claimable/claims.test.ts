import { describe, expect, it } from 'vitest'
import { ClaimBook } from './claims.ts'

describe('ClaimBook tombstones', () => {
  it('never forgets an expired claim whose state is not deleted yet: the next sweep or start still deletes it', () => {
    const book = new ClaimBook(undefined)
    const now = Date.parse('2026-12-06T12:00:00Z')
    const first = book.create(now, 1000)
    book.expired(first.key, now + 1000)
    // 10,000 more claims expire and are deleted: the oldest tombstones are forgotten past the bound
    for (let i = 0; i < 10_000; i++) {
      const claim = book.create(now, 1000)
      book.expired(claim.key, now + 1000)
      book.wiped(claim.key)
    }
    expect(book.get(first.key)?.expiredAt).toBeDefined()
    expect(book.unwiped().map((c) => c.key)).toEqual([first.key])
    book.wiped(first.key)
    // once deleted, it is a tombstone like the others and goes first
    const last = book.create(now, 1000)
    book.expired(last.key, now + 1000)
    expect(book.get(first.key)).toBeUndefined()
  }, 60_000)
})
