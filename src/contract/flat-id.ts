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

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1')

/**
 * `prefix` + the lower-case hex of `bytes[start, end)`, as one flat string written in a single buffer (the same
 * result as `flatId(prefix + hex)` without the intermediate strings).
 */
export function flatHex(prefix: string, bytes: Uint8Array, start = 0, end = bytes.length): string {
  const out = Buffer.allocUnsafe(prefix.length + 2 * (end - start))
  let at = out.write(prefix, 0, 'latin1')
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!
    out[at++] = HEX_DIGITS[byte >> 4]!
    out[at++] = HEX_DIGITS[byte & 15]!
  }
  return out.toString('latin1', 0, at)
}
