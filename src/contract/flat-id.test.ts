// flatHex64 writes what `0x` + Buffer.toString('hex') of 8 bytes would, for any byte and any offset.
import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { flatHex64, flatId } from './flat-id.ts'

it('equals 0x and the lower-case hex of the 8 bytes at the offset', () => {
  const every = Uint8Array.from({ length: 256 }, (_, i) => i)
  for (let start = 0; start <= 248; start += 8)
    expect(flatHex64(every, start)).toBe(`0x${Buffer.from(every).toString('hex', start, start + 8)}`)
  for (let n = 0; n < 50; n++) {
    const bytes = randomBytes(32)
    expect(flatHex64(bytes, 24)).toBe(`0x${bytes.toString('hex', 24, 32)}`)
    expect(flatHex64(bytes, 3)).toBe(`0x${bytes.toString('hex', 3, 11)}`)
  }
})

it('flatId keeps the text as it is', () => {
  const long = `01${'ab'.repeat(32)}`
  expect(flatId(long.slice(2))).toBe(long.slice(2))
  expect(flatId('short')).toBe('short')
})
