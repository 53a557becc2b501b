/**
 * An id (ASCII: hex, base32, UUID) as one flat string that owns its characters. V8 keeps `a + b` and template
 * results as a tree of pieces (a cons string) and `s.slice()` as a view that holds its whole parent: nothing for a
 * value that lives a moment, a waste for ids kept as long as their records (a ULID built a character at a time was
 * a dozen pieces, about 500 bytes instead of 40).
 */
export function flatId(value: string): string {
  // strings under 13 characters are always flat copies already
  return value.length < 13 ? value : Buffer.from(value, 'latin1').toString('latin1')
}

const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0))
const high = (byte: number) => HEX[byte >> 4]!
const low = (byte: number) => HEX[byte & 15]!

/**
 * `0x` + the lower-case hex of the 8 bytes from `bytes[start]` (a payment reference: 64 bits), as one flat string
 * made from its 18 character codes in one call: no buffer, no crossing into C++ (a Buffer's toString), no chain of
 * pieces kept as long as the record.
 */
export function flatHex64(bytes: Uint8Array, start: number): `0x${string}` {
  const b = (i: number) => bytes[start + i]!
  return String.fromCharCode(
    48,
    120,
    high(b(0)),
    low(b(0)),
    high(b(1)),
    low(b(1)),
    high(b(2)),
    low(b(2)),
    high(b(3)),
    low(b(3)),
    high(b(4)),
    low(b(4)),
    high(b(5)),
    low(b(5)),
    high(b(6)),
    low(b(6)),
    high(b(7)),
    low(b(7)),
  ) as `0x${string}`
}
