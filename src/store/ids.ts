import { randomBytes } from 'node:crypto'

const CROCKFORD_CODES = Buffer.from('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 'latin1')
const HEX_CODES = Buffer.from('0123456789abcdef', 'latin1')

/** Generates the service's id formats from one byte source: seeded (deterministic runs) or crypto-random. */
export interface IdGenerator {
  bytes(count: number): Uint8Array
  /** `count` random bytes as lower-case hex, no 0x */
  hex(count: number): string
  /** a ULID (26 Crockford base32 chars) for the given time */
  ulid(time?: number): string
  /** a version-4 UUID */
  uuid(): string
}

/** sfc32: a small, fast PRNG that is plenty for reproducible fake ids (not for secrets). */
function seededByteSource(seed: number): (count: number) => Uint8Array {
  let a = 0x9e3779b9 ^ seed
  let b = 0x243f6a88 ^ (seed >>> 1)
  let c = 0xb7e15162 ^ Math.imul(seed, 0x85ebca6b)
  let d = 1
  const next = (): number => {
    a |= 0
    b |= 0
    c |= 0
    d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 16; i++) next()
  return (count) => {
    const out = new Uint8Array(count)
    for (let i = 0; i < count; i += 4) {
      const word = next()
      for (let j = 0; j < 4 && i + j < count; j++) out[i + j] = (word >>> (8 * j)) & 0xff
    }
    return out
  }
}

/**
 * Crypto-random bytes drawn from a 4 KB pool: one randomBytes call per few hundred ids, not per id. `hex` reads
 * its bytes as hex straight from the pool (no copies).
 */
function pooledRandomSource(): {
  bytes: (count: number) => Uint8Array
  hex: (count: number) => string
  /** the offset of `count` bytes drawn (read them from `pool()` after the call: the draw may refill it) */
  take: (count: number) => number
  pool: () => Buffer
} {
  let pool = Buffer.alloc(0)
  let offset = 0
  const take = (count: number) => {
    if (offset + count > pool.length) {
      pool = randomBytes(Math.max(4096, count))
      offset = 0
    }
    offset += count
    return offset - count
  }
  return {
    bytes: (count) => {
      const at = take(count)
      return new Uint8Array(pool.subarray(at, at + count))
    },
    hex: (count) => {
      const at = take(count)
      return pool.toString('hex', at, at + count)
    },
    take,
    pool: () => pool,
  }
}

/** Creates an id generator; with a seed every id sequence is the same run after run. */
export function createIdGenerator(seed?: number): IdGenerator {
  const pooled = seed === undefined ? pooledRandomSource() : undefined
  const source = pooled ? pooled.bytes : seededByteSource(seed!)
  const hex = pooled ? pooled.hex : (count: number) => Buffer.from(source(count)).toString('hex')
  // the time's ten characters, computed once per millisecond (ids of one millisecond share them)
  let lastTime = Number.NaN
  const timeCodes: number[] = new Array(10).fill(0)
  const code = (byte: number) => CROCKFORD_CODES[byte % 32]!
  return {
    bytes: source,
    hex,
    ulid(time = Date.now()) {
      const ms = Math.floor(time)
      if (ms !== lastTime) {
        lastTime = ms
        let t = ms
        for (let i = 9; i >= 0; i--) {
          timeCodes[i] = CROCKFORD_CODES[t % 32]!
          t = Math.floor(t / 32)
        }
      }
      let r: Uint8Array
      let a = 0
      if (pooled) {
        a = pooled.take(16)
        r = pooled.pool()
      } else r = source(16)
      const c = timeCodes
      // one flat string from its 26 character codes in one call, with no crossing into C++ (a Buffer's toString);
      // a string built a character at a time would be a chain of pieces V8 keeps for as long as the id lives (see
      // contract/flat-id.ts)
      return String.fromCharCode(
        c[0]!,
        c[1]!,
        c[2]!,
        c[3]!,
        c[4]!,
        c[5]!,
        c[6]!,
        c[7]!,
        c[8]!,
        c[9]!,
        code(r[a]!),
        code(r[a + 1]!),
        code(r[a + 2]!),
        code(r[a + 3]!),
        code(r[a + 4]!),
        code(r[a + 5]!),
        code(r[a + 6]!),
        code(r[a + 7]!),
        code(r[a + 8]!),
        code(r[a + 9]!),
        code(r[a + 10]!),
        code(r[a + 11]!),
        code(r[a + 12]!),
        code(r[a + 13]!),
        code(r[a + 14]!),
        code(r[a + 15]!),
      )
    },
    uuid() {
      const b = source(16)
      b[6] = (b[6]! & 0x0f) | 0x40
      b[8] = (b[8]! & 0x3f) | 0x80
      const out = Buffer.allocUnsafe(36)
      let at = 0
      for (let i = 0; i < 16; i++) {
        if (i === 4 || i === 6 || i === 8 || i === 10) out[at++] = 0x2d // '-'
        out[at++] = HEX_CODES[b[i]! >> 4]!
        out[at++] = HEX_CODES[b[i]! & 15]!
      }
      return out.toString('latin1')
    },
  }
}
