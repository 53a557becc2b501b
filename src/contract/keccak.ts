import sha3 from 'js-sha3'

// a CommonJS module: its exports are properties of the default import under Node's ESM loader
const { keccak256 } = sha3

// keccak-256 (the original Keccak padding, as Ethereum uses; Node's OpenSSL has only SHA3-256) written for the
// create path: every created request hashes its payment reference once. js-sha3 took about 3 µs and 4 KB of
// garbage per hash (a state object, block arrays, a hex string built a character at a time); this one permutes a
// state it reuses, reads an ASCII string without encoding it, and writes its digest through one reused buffer.
// Lanes are 64-bit, held as two 32-bit halves: lane i (x + 5y) is words 2i (low) and 2i + 1 (high).

// ρ rotates lane x + 5y by 0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14
// bits (in index order): written out in `permute` below, as the halves of a rotation of 32 or more swap
// π moves lane x + 5y to y + 5((2x + 3y) mod 5): written out in `permute` below
/** The 24 round constants (ι), low and high halves. */
const ROUND_CONSTANTS = new Int32Array([
  0x00000001, 0x00000000, 0x00008082, 0x00000000, 0x0000808a, 0x80000000, 0x80008000, 0x80000000, 0x0000808b,
  0x00000000, 0x80000001, 0x00000000, 0x80008081, 0x80000000, 0x00008009, 0x80000000, 0x0000008a, 0x00000000,
  0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a, 0x00000000, 0x8000808b, 0x00000000, 0x0000008b,
  0x80000000, 0x00008089, 0x80000000, 0x00008003, 0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x80000000,
  0x0000800a, 0x00000000, 0x8000000a, 0x80000000, 0x80008081, 0x80000000, 0x00008080, 0x80000000, 0x80000001,
  0x00000000, 0x80008008, 0x80000000,
])
/** Bytes absorbed per block: 1600 bits less twice the 256-bit output. */
const RATE = 136

// scratch of one hash at a time: the functions below run synchronously from start to end
const state = new Int32Array(50)
const block = Buffer.alloc(RATE)
const ascii = Buffer.alloc(RATE)
const digest = Buffer.alloc(32)

/** keccak-f[1600]: the 24 rounds over `state`, unrolled within a round (lanes in local variables). */
function permute(): void {
  const s = state
  for (let round = 0; round < 48; round += 2) {
    // θ: column parities, then each lane takes the parity of the column on its left and of the one on its right rotated by one
    const c0 = s[0]! ^ s[10]! ^ s[20]! ^ s[30]! ^ s[40]!
    const c1 = s[1]! ^ s[11]! ^ s[21]! ^ s[31]! ^ s[41]!
    const c2 = s[2]! ^ s[12]! ^ s[22]! ^ s[32]! ^ s[42]!
    const c3 = s[3]! ^ s[13]! ^ s[23]! ^ s[33]! ^ s[43]!
    const c4 = s[4]! ^ s[14]! ^ s[24]! ^ s[34]! ^ s[44]!
    const c5 = s[5]! ^ s[15]! ^ s[25]! ^ s[35]! ^ s[45]!
    const c6 = s[6]! ^ s[16]! ^ s[26]! ^ s[36]! ^ s[46]!
    const c7 = s[7]! ^ s[17]! ^ s[27]! ^ s[37]! ^ s[47]!
    const c8 = s[8]! ^ s[18]! ^ s[28]! ^ s[38]! ^ s[48]!
    const c9 = s[9]! ^ s[19]! ^ s[29]! ^ s[39]! ^ s[49]!
    const d0 = c8 ^ ((c2 << 1) | (c3 >>> 31))
    const d1 = c9 ^ ((c3 << 1) | (c2 >>> 31))
    const d2 = c0 ^ ((c4 << 1) | (c5 >>> 31))
    const d3 = c1 ^ ((c5 << 1) | (c4 >>> 31))
    const d4 = c2 ^ ((c6 << 1) | (c7 >>> 31))
    const d5 = c3 ^ ((c7 << 1) | (c6 >>> 31))
    const d6 = c4 ^ ((c8 << 1) | (c9 >>> 31))
    const d7 = c5 ^ ((c9 << 1) | (c8 >>> 31))
    const d8 = c6 ^ ((c0 << 1) | (c1 >>> 31))
    const d9 = c7 ^ ((c1 << 1) | (c0 >>> 31))
    // ρ and π: each lane rotated, then moved
    const b0 = s[0]! ^ d0
    const b1 = s[1]! ^ d1
    const l1 = s[2]! ^ d2
    const h1 = s[3]! ^ d3
    const b20 = (l1 << 1) | (h1 >>> 31)
    const b21 = (h1 << 1) | (l1 >>> 31)
    const l2 = s[4]! ^ d4
    const h2 = s[5]! ^ d5
    const b40 = (h2 << 30) | (l2 >>> 2)
    const b41 = (l2 << 30) | (h2 >>> 2)
    const l3 = s[6]! ^ d6
    const h3 = s[7]! ^ d7
    const b10 = (l3 << 28) | (h3 >>> 4)
    const b11 = (h3 << 28) | (l3 >>> 4)
    const l4 = s[8]! ^ d8
    const h4 = s[9]! ^ d9
    const b30 = (l4 << 27) | (h4 >>> 5)
    const b31 = (h4 << 27) | (l4 >>> 5)
    const l5 = s[10]! ^ d0
    const h5 = s[11]! ^ d1
    const b32 = (h5 << 4) | (l5 >>> 28)
    const b33 = (l5 << 4) | (h5 >>> 28)
    const l6 = s[12]! ^ d2
    const h6 = s[13]! ^ d3
    const b2 = (h6 << 12) | (l6 >>> 20)
    const b3 = (l6 << 12) | (h6 >>> 20)
    const l7 = s[14]! ^ d4
    const h7 = s[15]! ^ d5
    const b22 = (l7 << 6) | (h7 >>> 26)
    const b23 = (h7 << 6) | (l7 >>> 26)
    const l8 = s[16]! ^ d6
    const h8 = s[17]! ^ d7
    const b42 = (h8 << 23) | (l8 >>> 9)
    const b43 = (l8 << 23) | (h8 >>> 9)
    const l9 = s[18]! ^ d8
    const h9 = s[19]! ^ d9
    const b12 = (l9 << 20) | (h9 >>> 12)
    const b13 = (h9 << 20) | (l9 >>> 12)
    const l10 = s[20]! ^ d0
    const h10 = s[21]! ^ d1
    const b14 = (l10 << 3) | (h10 >>> 29)
    const b15 = (h10 << 3) | (l10 >>> 29)
    const l11 = s[22]! ^ d2
    const h11 = s[23]! ^ d3
    const b34 = (l11 << 10) | (h11 >>> 22)
    const b35 = (h11 << 10) | (l11 >>> 22)
    const l12 = s[24]! ^ d4
    const h12 = s[25]! ^ d5
    const b4 = (h12 << 11) | (l12 >>> 21)
    const b5 = (l12 << 11) | (h12 >>> 21)
    const l13 = s[26]! ^ d6
    const h13 = s[27]! ^ d7
    const b24 = (l13 << 25) | (h13 >>> 7)
    const b25 = (h13 << 25) | (l13 >>> 7)
    const l14 = s[28]! ^ d8
    const h14 = s[29]! ^ d9
    const b44 = (h14 << 7) | (l14 >>> 25)
    const b45 = (l14 << 7) | (h14 >>> 25)
    const l15 = s[30]! ^ d0
    const h15 = s[31]! ^ d1
    const b46 = (h15 << 9) | (l15 >>> 23)
    const b47 = (l15 << 9) | (h15 >>> 23)
    const l16 = s[32]! ^ d2
    const h16 = s[33]! ^ d3
    const b16 = (h16 << 13) | (l16 >>> 19)
    const b17 = (l16 << 13) | (h16 >>> 19)
    const l17 = s[34]! ^ d4
    const h17 = s[35]! ^ d5
    const b36 = (l17 << 15) | (h17 >>> 17)
    const b37 = (h17 << 15) | (l17 >>> 17)
    const l18 = s[36]! ^ d6
    const h18 = s[37]! ^ d7
    const b6 = (l18 << 21) | (h18 >>> 11)
    const b7 = (h18 << 21) | (l18 >>> 11)
    const l19 = s[38]! ^ d8
    const h19 = s[39]! ^ d9
    const b26 = (l19 << 8) | (h19 >>> 24)
    const b27 = (h19 << 8) | (l19 >>> 24)
    const l20 = s[40]! ^ d0
    const h20 = s[41]! ^ d1
    const b28 = (l20 << 18) | (h20 >>> 14)
    const b29 = (h20 << 18) | (l20 >>> 14)
    const l21 = s[42]! ^ d2
    const h21 = s[43]! ^ d3
    const b48 = (l21 << 2) | (h21 >>> 30)
    const b49 = (h21 << 2) | (l21 >>> 30)
    const l22 = s[44]! ^ d4
    const h22 = s[45]! ^ d5
    const b18 = (h22 << 29) | (l22 >>> 3)
    const b19 = (l22 << 29) | (h22 >>> 3)
    const l23 = s[46]! ^ d6
    const h23 = s[47]! ^ d7
    const b38 = (h23 << 24) | (l23 >>> 8)
    const b39 = (l23 << 24) | (h23 >>> 8)
    const l24 = s[48]! ^ d8
    const h24 = s[49]! ^ d9
    const b8 = (l24 << 14) | (h24 >>> 18)
    const b9 = (h24 << 14) | (l24 >>> 18)
    // χ: each lane mixed with the next two of its row; ι on the first
    s[0] = b0 ^ (~b2 & b4) ^ ROUND_CONSTANTS[round]!
    s[1] = b1 ^ (~b3 & b5) ^ ROUND_CONSTANTS[round + 1]!
    s[2] = b2 ^ (~b4 & b6)
    s[3] = b3 ^ (~b5 & b7)
    s[4] = b4 ^ (~b6 & b8)
    s[5] = b5 ^ (~b7 & b9)
    s[6] = b6 ^ (~b8 & b0)
    s[7] = b7 ^ (~b9 & b1)
    s[8] = b8 ^ (~b0 & b2)
    s[9] = b9 ^ (~b1 & b3)
    s[10] = b10 ^ (~b12 & b14)
    s[11] = b11 ^ (~b13 & b15)
    s[12] = b12 ^ (~b14 & b16)
    s[13] = b13 ^ (~b15 & b17)
    s[14] = b14 ^ (~b16 & b18)
    s[15] = b15 ^ (~b17 & b19)
    s[16] = b16 ^ (~b18 & b10)
    s[17] = b17 ^ (~b19 & b11)
    s[18] = b18 ^ (~b10 & b12)
    s[19] = b19 ^ (~b11 & b13)
    s[20] = b20 ^ (~b22 & b24)
    s[21] = b21 ^ (~b23 & b25)
    s[22] = b22 ^ (~b24 & b26)
    s[23] = b23 ^ (~b25 & b27)
    s[24] = b24 ^ (~b26 & b28)
    s[25] = b25 ^ (~b27 & b29)
    s[26] = b26 ^ (~b28 & b20)
    s[27] = b27 ^ (~b29 & b21)
    s[28] = b28 ^ (~b20 & b22)
    s[29] = b29 ^ (~b21 & b23)
    s[30] = b30 ^ (~b32 & b34)
    s[31] = b31 ^ (~b33 & b35)
    s[32] = b32 ^ (~b34 & b36)
    s[33] = b33 ^ (~b35 & b37)
    s[34] = b34 ^ (~b36 & b38)
    s[35] = b35 ^ (~b37 & b39)
    s[36] = b36 ^ (~b38 & b30)
    s[37] = b37 ^ (~b39 & b31)
    s[38] = b38 ^ (~b30 & b32)
    s[39] = b39 ^ (~b31 & b33)
    s[40] = b40 ^ (~b42 & b44)
    s[41] = b41 ^ (~b43 & b45)
    s[42] = b42 ^ (~b44 & b46)
    s[43] = b43 ^ (~b45 & b47)
    s[44] = b44 ^ (~b46 & b48)
    s[45] = b45 ^ (~b47 & b49)
    s[46] = b46 ^ (~b48 & b40)
    s[47] = b47 ^ (~b49 & b41)
    s[48] = b48 ^ (~b40 & b42)
    s[49] = b49 ^ (~b41 & b43)
  }
}

/** XORs one block (RATE bytes, little-endian lanes) into the state, then permutes. */
function absorb(bytes: Uint8Array, offset: number): void {
  for (let word = 0; word < RATE / 4; word++) {
    const at = offset + 4 * word
    state[word] =
      state[word]! ^ (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24))
  }
  permute()
}

/** keccak-256 of bytes, into `digest`. */
function keccakBytes(bytes: Uint8Array): Buffer {
  state.fill(0)
  let offset = 0
  for (; bytes.length - offset >= RATE; offset += RATE) absorb(bytes, offset)
  // the last block: what is left, then the padding 0x01 … 0x80
  block.fill(0)
  block.set(bytes.subarray(offset))
  block[bytes.length - offset] = 0x01
  block[RATE - 1] = block[RATE - 1]! | 0x80
  absorb(block, 0)
  for (let word = 0; word < 8; word++) digest.writeInt32LE(state[word]!, 4 * word)
  return digest
}

/** The bytes of an ASCII string of one block or less, read without encoding it; null for any other string. */
function asciiBlock(text: string): Uint8Array | null {
  if (text.length >= RATE) return null
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return null
    ascii[i] = code
  }
  return ascii.subarray(0, text.length)
}

/**
 * keccak256 of a UTF-8 string as lower-case hex without 0x (one flat string). Straight on the bytes: viem's
 * `keccak256(toHex(s))` goes through a hex string and back, which costs as much as the hash on short inputs.
 */
export function keccakUtf8(text: string): string {
  return keccakBytes(asciiBlock(text) ?? Buffer.from(text, 'utf8')).toString('hex')
}

/** keccak256 of the bytes a `0x` hex string holds, as `0x` hex. */
export function keccakHex(hex: string): `0x${string}` {
  return `0x${keccak256(Buffer.from(hex.slice(2), 'hex'))}`
}
