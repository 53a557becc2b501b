import { createKeccak, type IHasher } from 'hash-wasm'
import sha3 from 'js-sha3'

// a CommonJS module: its exports are properties of the default import under Node's ESM loader
const { keccak256: keccakJs } = sha3

// hash-wasm (keccak compiled to WebAssembly) hashes the 126-byte input of a payment reference in about 0.95 µs,
// js-sha3 in 2.5 µs and @noble/hashes (which viem uses) in 10 µs; every created request hashes once, and Node's
// OpenSSL has no keccak-256. A WebAssembly module compiles asynchronously: until it is ready (the first
// milliseconds of a process), or where it cannot be (a page whose CSP forbids WebAssembly), js-sha3 answers, on the
// UTF-8 bytes (its own reading of a string gets a character across a block boundary wrong).
let wasm: IHasher | undefined
const ready: Promise<void> = createKeccak(256).then(
  (hasher) => {
    wasm = hasher
  },
  () => {
    // no WebAssembly here: js-sha3 answers every call
  },
)

/** Resolves once the WebAssembly hasher is ready (or known to be unavailable); the hashes are the same either way. */
export function keccakReady(): Promise<void> {
  return ready
}

/** Which hasher answers now: `wasm` once hash-wasm's module is ready, `js-sha3` before (or without WebAssembly). */
export function keccakEngine(): 'wasm' | 'js-sha3' {
  return wasm ? 'wasm' : 'js-sha3'
}

/** keccak256 of a UTF-8 string as lower-case hex without 0x. Straight on the bytes, not through a hex string. */
export function keccakUtf8(text: string): string {
  if (wasm) {
    wasm.init()
    wasm.update(text)
    return wasm.digest('hex')
  }
  return keccakUtf8Portable(text)
}

/** `keccakUtf8` through js-sha3 alone: what answers before the WebAssembly hasher is ready, or without it. */
export function keccakUtf8Portable(text: string): string {
  return keccakJs(Buffer.from(text, 'utf8'))
}

/** keccak256 of a UTF-8 string as its 32 bytes. */
export function keccakUtf8Bytes(text: string): Uint8Array {
  if (wasm) {
    wasm.init()
    wasm.update(text)
    return wasm.digest('binary')
  }
  return new Uint8Array(keccakJs.arrayBuffer(Buffer.from(text, 'utf8')))
}

/** keccak256 of the bytes a `0x` hex string holds, as `0x` hex. */
export function keccakHex(hex: string): `0x${string}` {
  const bytes = Buffer.from(hex.slice(2), 'hex')
  if (wasm) {
    wasm.init()
    wasm.update(bytes)
    return `0x${wasm.digest('hex')}`
  }
  return `0x${keccakJs(bytes)}`
}
