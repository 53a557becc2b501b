// Tron addresses: base58check of 0x41 followed by the 20 bytes of the EVM-style address (keccak256 of the public
// key, last 20 bytes), with the first 4 bytes of sha256(sha256(payload)) as checksum. So every `T…` address maps
// one to one onto an EVM address: the Tron chain of the sandbox is an EVM chain addressed in this form.
import { createHash } from 'node:crypto'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]))

/** The byte that starts every Tron mainnet address (what makes it begin with `T`). */
export const TRON_ADDRESS_PREFIX = 0x41

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest()
}

function base58Encode(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`)
  let out = ''
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out
    value /= 58n
  }
  for (const b of bytes) {
    if (b !== 0) break
    out = `1${out}`
  }
  return out
}

function base58Decode(text: string): Uint8Array | null {
  let value = 0n
  for (const c of text) {
    const digit = INDEX.get(c)
    if (digit === undefined) return null
    value = value * 58n + BigInt(digit)
  }
  let hex = value === 0n ? '' : value.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  const zeros = /^1*/.exec(text)![0].length
  return Uint8Array.from([...new Array(zeros).fill(0), ...Buffer.from(hex, 'hex')])
}

/** The 21 bytes (0x41 + 20) of a valid `T…` address, or null (wrong alphabet, length, prefix or checksum). */
function tronBytes(address: string): Buffer | null {
  if (typeof address !== 'string' || !/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return null
  const decoded = base58Decode(address)
  if (decoded?.length !== 25) return null
  const payload = decoded.subarray(0, 21)
  if (payload[0] !== TRON_ADDRESS_PREFIX) return null
  const check = sha256(sha256(payload)).subarray(0, 4)
  if (!Buffer.from(decoded.subarray(21)).equals(check)) return null
  return Buffer.from(payload)
}

/** The refusal of a `T…` address whose only fault is its base58check checksum (a mistyped or altered address). */
export const TRON_CHECKSUM_MESSAGE =
  'Invalid Tron address: its base58check checksum does not match (a mistyped or altered T… address)'

/**
 * True for a string that is a Tron address in every way but its checksum: `T` and 33 base58 characters decoding
 * to 0x41 + 20 bytes + 4 checksum bytes that are not the first 4 bytes of sha256(sha256(0x41 + 20 bytes)).
 */
export function tronChecksumFails(address: string): boolean {
  if (typeof address !== 'string' || !/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false
  const decoded = base58Decode(address)
  return decoded?.length === 25 && decoded[0] === TRON_ADDRESS_PREFIX && tronBytes(address) === null
}

/** True for a base58check Tron address (`T…`, checksum verified). */
export function isTronAddress(address: string): boolean {
  return tronBytes(address) !== null
}

/** The EVM address (`0x` + 40 lower-case hex) a `T…` address stands for; throws on an invalid address. */
export function tronToEvm(address: string): `0x${string}` {
  const bytes = tronBytes(address)
  if (!bytes) throw new Error(`invalid Tron address ${JSON.stringify(address)}`)
  return `0x${bytes.subarray(1).toString('hex')}`
}

/** The `T…` form of an EVM address (`0x…`), of a Tron hex address (`41…`, 42 hex digits) or of a `T…` address. */
export function toTronAddress(address: string): string {
  if (isTronAddress(address)) return address
  const hex = address.replace(/^0x/i, '')
  let body: string
  if (/^[0-9a-fA-F]{40}$/.test(hex)) body = hex
  else if (/^41[0-9a-fA-F]{40}$/.test(hex)) body = hex.slice(2)
  else throw new Error(`invalid address ${JSON.stringify(address)}`)
  const payload = Buffer.from(`41${body}`, 'hex')
  return base58Encode(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]))
}

/** Tron's hex form: `41` + the 20 bytes, lower case (what the full-node API answers without `visible`). */
export function tronHex(address: string): string {
  return `41${toEvmAddress(address).slice(2)}`
}

/**
 * The EVM address behind any address form the sandbox accepts: `0x…` (returned lower case), `41…` hex, or `T…`.
 * Throws on anything else.
 */
export function toEvmAddress(address: string): `0x${string}` {
  if (address.startsWith('T')) return tronToEvm(address)
  const hex = address.replace(/^0x/i, '')
  if (/^[0-9a-fA-F]{40}$/.test(hex)) return `0x${hex.toLowerCase()}`
  if (/^41[0-9a-fA-F]{40}$/.test(hex)) return `0x${hex.slice(2).toLowerCase()}`
  throw new Error(`invalid address ${JSON.stringify(address)}`)
}

/** The network id of Tron in the token list. */
export const TRON_NETWORK = 'tron'

/**
 * An address as `network` writes it: `T…` on Tron, EVM-checksummed elsewhere; null when the form does not fit the
 * network (an EVM address on Tron, a `T…` address on an EVM network).
 */
export function addressOnNetwork(
  address: string,
  network: string,
  checksum: (a: string) => string,
): string | null {
  // Tron and EVM wallets are not interchangeable (the documents): a Tron network takes `T…` addresses only
  if (network === TRON_NETWORK) return isTronAddress(address) ? address : null
  if (address.startsWith('T')) return null
  return checksum(address)
}
