import sha3 from 'js-sha3'

// a CommonJS module: its exports are properties of the default import under Node's ESM loader
const { keccak256 } = sha3

// js-sha3 rather than @noble/hashes (which viem uses): on the 126-byte input of a payment reference it hashes in
// about 2.2 µs against 10 µs, and every created request hashes once (Node's OpenSSL has no keccak-256). A hand-written
// keccak measured the same 2.2 µs (it only left less garbage), so the maintained library stays.

/**
 * keccak256 of a UTF-8 string as lower-case hex without 0x. Straight on the bytes: viem's
 * `keccak256(toHex(s))` goes through a hex string and back, which costs as much as the hash on short inputs. The
 * string is encoded first: js-sha3's own UTF-8 reading gets a character across a block boundary wrong.
 */
export function keccakUtf8(text: string): string {
  return keccak256(Buffer.from(text, 'utf8'))
}

/** keccak256 of the bytes a `0x` hex string holds, as `0x` hex. */
export function keccakHex(hex: string): `0x${string}` {
  return `0x${keccak256(Buffer.from(hex.slice(2), 'hex'))}`
}
