// flatHex writes a prefix and the hex of a byte range as one string (the request id and payment reference).
import { describe, expect, it } from 'vitest'
import { flatHex, flatId } from './flat-id.ts'

describe('flatHex', () => {
  it('writes a prefix and the hex of a byte range as one string', () => {
    const bytes = Uint8Array.from([0, 1, 0x7f, 0x80, 0xab, 0xff])
    expect(flatHex('0x', bytes)).toBe('0x00017f80abff')
    expect(flatHex('01', bytes, 2, 5)).toBe('017f80ab')
    expect(flatHex('', bytes, 6)).toBe('')
  })

  it('gives what flatId of the same text gives', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7)
    expect(flatHex('01', bytes)).toBe(flatId(`01${Buffer.from(bytes).toString('hex')}`))
  })
})
