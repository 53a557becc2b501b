import { keccak_256 } from '@noble/hashes/sha3'

/**
 * keccak256 of a UTF-8 string as lower-case hex without 0x. Straight on the bytes: viem's
 * `keccak256(toHex(s))` goes through a hex string and back, which costs as much as the hash on short inputs.
 */
export function keccakUtf8(text: string): string {
  return Buffer.from(keccak_256(Buffer.from(text, 'utf8'))).toString('hex')
}

/** keccak256 of the bytes a `0x` hex string holds, as `0x` hex. */
export function keccakHex(hex: string): `0x${string}` {
  return `0x${Buffer.from(keccak_256(Buffer.from(hex.slice(2), 'hex'))).toString('hex')}`
}
