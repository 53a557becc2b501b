// ULIDs as the id generator writes them: the time's ten characters (kept per time value) and sixteen drawn ones,
// the same characters from the same bytes whatever the path, so a seeded run's ids stay what they were.
import { describe, expect, it } from 'vitest'
import { createIdGenerator } from './ids.ts'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A ULID from its time and its 16 bytes, written out plainly: each byte's value modulo 32, the time in base 32. */
function reference(time: number, bytes: Uint8Array): string {
  let t = Math.floor(time)
  let head = ''
  for (let i = 0; i < 10; i++) {
    // a time with no character there (negative, NaN) gets the zero code, as a Buffer's zeroed byte did before
    head = (CROCKFORD[t % 32] ?? '\0') + head
    t = Math.floor(t / 32)
  }
  let tail = ''
  for (const byte of bytes) tail += CROCKFORD[byte % 32]
  return head + tail
}

describe('ulid', () => {
  it('writes a seeded generator ids from its bytes as before, through repeated, changing, fractional and odd times', () => {
    const times = [
      0,
      1,
      31,
      32,
      1_765_000_000_000,
      1_765_000_000_000,
      1_765_000_000_001,
      2 ** 48 - 1,
      2 ** 48 - 1,
      1.2,
      1.9,
      -0,
      0,
      Number.NaN,
      Number.NaN,
      -1,
    ]
    for (const seed of [1, 7, 12345]) {
      const ids = createIdGenerator(seed)
      const bytes = createIdGenerator(seed)
      for (let i = 0; i < 200; i++) {
        const time = times[i % times.length]!
        expect(ids.ulid(time)).toBe(reference(time, bytes.bytes(16)))
      }
    }
  })

  it('draws crypto-random ids: 26 Crockford characters, the time first, two ids of one millisecond apart', () => {
    const ids = createIdGenerator()
    const time = 1_765_000_123_456
    const seen = new Set<string>()
    // past one pool of random bytes (4 KB: 256 ids), so a refill happens between two draws
    for (let i = 0; i < 600; i++) {
      const id = ids.ulid(time)
      expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      expect(id.slice(0, 10)).toBe(reference(time, new Uint8Array(0)))
      seen.add(id)
    }
    expect(seen.size).toBe(600)
    expect(ids.ulid(time + 1).slice(0, 10)).toBe(reference(time + 1, new Uint8Array(0)))
  })
})
