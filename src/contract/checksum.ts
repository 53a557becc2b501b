import { getAddress } from 'viem'

/**
 * EIP-55 checksum with a bounded cache: checksumming is a keccak in JavaScript, and the same payees and wallets
 * come back on most calls. One cache per process is safe here: it holds pure function results, not state.
 */
const cache = new Map<string, `0x${string}`>()
const LIMIT = 10_000

/** The checksummed form of an address (throws on an invalid address, as viem's getAddress). */
export function checksum(address: string): `0x${string}` {
  const key = address.toLowerCase()
  let value = cache.get(key)
  if (!value) {
    value = getAddress(key)
    if (cache.size >= LIMIT) cache.delete(cache.keys().next().value!)
    cache.set(key, value)
  }
  return value
}
