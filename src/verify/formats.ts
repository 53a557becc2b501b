// What a string value is, for comparing two answers: volatile values (ids, hashes, timestamps, amounts) are compared
// by their format, never by value; short identifier-like words (statuses, types, chains) are enum candidates whose
// values are compared as sets.

/** The format of a string, or `token` for an enum candidate (compared by value), or `text` (free text). */
export type StringFormat =
  | 'request-id'
  | 'payment-reference'
  | 'hash-32'
  | 'address-checksummed'
  | 'address-lowercase'
  | 'hex-data'
  | 'hex'
  | 'ulid'
  | 'uuid'
  | 'date-time'
  | 'date'
  | 'url'
  | 'email'
  | 'decimal'
  | 'prefixed-id'
  | 'token'
  | 'text'
  | 'empty'

const formats: [StringFormat, RegExp][] = [
  ['empty', /^$/],
  ['request-id', /^01[0-9a-f]{64}$/],
  ['payment-reference', /^0x[0-9a-f]{16}$/],
  ['hash-32', /^0x[0-9a-fA-F]{64}$/],
  ['address-lowercase', /^0x[0-9a-f]{40}$/],
  ['address-checksummed', /^0x[0-9a-fA-F]{40}$/],
  ['hex-data', /^0x[0-9a-fA-F]*$/],
  ['ulid', /^[0-9A-HJKMNP-TV-Z]{26}$/],
  ['uuid', /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/],
  ['date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['url', /^[a-z][a-z0-9+.-]*:\/\/\S+$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
  ['decimal', /^-?\d+(\.\d+)?$/],
  ['hex', /^[0-9a-f]{16,}$/],
  // cli_abc123, rn_v1_xyz, orc_..., pd_...: a lower-case prefix and an opaque tail with a digit
  ['prefixed-id', /^[a-z]{2,8}(_[a-z0-9]{1,4})?_(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{6,}$/],
  // a word a client may switch on: pending, ERC20, REQUEST_NETWORK_PAYMENT, eip155, ETH-sepolia-sepolia
  ['token', /^[A-Za-z][A-Za-z0-9_.:-]{0,47}$/],
]

/** The format of `value` (the first that matches, most specific first). */
export function formatOf(value: string): StringFormat {
  for (const [name, pattern] of formats) if (pattern.test(value)) return name
  return 'text'
}

/** Formats whose values are the same on both sides only by chance: compared by format. */
export function isVolatile(format: StringFormat): boolean {
  return format !== 'token' && format !== 'text' && format !== 'empty'
}

/** The format of a hex string with its length, so that a 32-character nonce and a 64-character secret differ. */
export function formatWithLength(value: string): string {
  const format = formatOf(value)
  return format === 'hex' ? `hex(${value.length})` : format
}
