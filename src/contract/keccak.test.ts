// keccakUtf8 (hash-wasm once its WebAssembly is ready, js-sha3 over the UTF-8 bytes before: the create path's payment
// references) must equal viem's (@noble/hashes) on every length around the block size (136 bytes), on ASCII and on
// UTF-8 beyond it, and on the empty string, through both hashers (js-sha3 reading a string itself gets a UTF-8
// character across a block boundary wrong: the bytes are hashed instead).
import { randomBytes } from 'node:crypto'
import { keccak256, stringToBytes } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  keccakEngine,
  keccakHex,
  keccakReady,
  keccakUtf8,
  keccakUtf8Bytes,
  keccakUtf8Portable,
} from './keccak.ts'

const reference = (text: string) => keccak256(stringToBytes(text)).slice(2)

describe.each([
  ['WebAssembly (hash-wasm)', keccakUtf8],
  ['js-sha3', keccakUtf8Portable],
] as const)('keccakUtf8 through %s', (_, hash) => {
  beforeAll(() => keccakReady())

  it('gives the known digest of the empty string and of a short text', () => {
    expect(hash('')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(hash('hello')).toBe('1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8')
  })

  it("equals viem's on every length from 0 to 300 characters, ASCII and not", () => {
    for (let length = 0; length <= 300; length++) {
      const ascii = randomBytes(length).toString('base64').slice(0, length)
      expect(hash(ascii), `ASCII of ${length}`).toBe(reference(ascii))
      const wide = `${ascii.slice(0, Math.max(0, length - 2))}é€`
      expect(hash(wide), `UTF-8 of ${length}`).toBe(reference(wide))
    }
  })
})

describe('keccakUtf8', () => {
  it('uses the WebAssembly hasher once ready, with the same digests as viem on bytes', async () => {
    await keccakReady()
    expect(keccakEngine()).toBe('wasm')
    const bytes = `0x${randomBytes(100).toString('hex')}` as const
    expect(keccakHex(bytes)).toBe(keccak256(bytes))
    expect(Buffer.from(keccakUtf8Bytes('hello é')).toString('hex')).toBe(reference('hello é'))
  })

  it('hashes a payment reference input as the request model does', () => {
    const input = `01${'ab'.repeat(32)}0123456789abcdef0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7`
    expect(keccakUtf8(input)).toBe(reference(input))
  })
})
