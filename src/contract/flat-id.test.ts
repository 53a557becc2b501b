// flatHex writes what `prefix + Buffer.toString('hex')` would, for any byte and any sub-range, as one flat string.
import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { flatHex, flatId } from './flat-id.ts'

it('equals the prefix and the lower-case hex of the bytes, whole or a range of them', () => {
  const every = Uint8Array.from({ length: 256 }, (_, i) => i)
  expect(flatHex('0x', every)).toBe(`0x${Buffer.from(every).toString('hex')}`)
  for (let n = 0; n < 50; n++) {
    const bytes = randomBytes(32)
    expect(flatHex('01', bytes)).toBe(`01${bytes.toString('hex')}`)
    expect(flatHex('0x', bytes, 24, 32)).toBe(`0x${bytes.toString('hex', 24, 32)}`)
  }
  expect(flatHex('', new Uint8Array(0))).toBe('')
  expect(flatHex('ab', randomBytes(4), 2, 2)).toBe('ab')
})

it('flatId keeps the text as it is', () => {
  const long = `01${'ab'.repeat(32)}`
  expect(flatId(long.slice(2))).toBe(long.slice(2))
  expect(flatId('short')).toBe('short')
})
