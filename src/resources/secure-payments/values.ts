// The transaction `value` of the token routes, in the shapes the secure-payments reference prints
// (api-reference/secure-payments.mdx, RequestNetwork/mintlify-docs, read 2026-11-26): a same-chain or batch answer
// writes the integer `0` (`"value": 0`), a cross-chain answer and a refreshed step the hex string `"0x0"`. A native
// amount (no example in the pages) is the hex string of its wei, which `BigInt()`, viem and ethers all read.
// The pay builder's answers carry ethers' BigNumber JSON (`{type: "BigNumber", hex}`, what /v2/request/{id}/pay
// documents); these helpers rewrite it for the token routes, whose real clients refuse an object.

/** A value as the pay builders return it. */
type AnyValue = { hex: string } | string | number

/** How a route's page writes its values: `number` (0, or a hex string when not zero) or `hex` (always a hex string). */
export type ValueStyle = 'number' | 'hex'

function wei(value: AnyValue): bigint {
  return BigInt(typeof value === 'object' ? value.hex : value)
}

/** One value in the route's documented shape. */
export function plainValue(value: AnyValue, style: ValueStyle): number | `0x${string}` {
  const amount = wei(value)
  if (amount === 0n && style === 'number') return 0
  return `0x${amount.toString(16)}`
}

function isTransaction(v: unknown): v is { to: string; data: string; value: AnyValue } {
  return typeof v === 'object' && v !== null && 'to' in v && 'data' in v && 'value' in v
}

/**
 * The answer with every transaction's `value` (in `transactions`, `ERC20ApprovalTransactions`,
 * `batchPaymentTransaction`, `approvalCalldata`, a step's `transactionRequest`) in the documented shape.
 */
export function withPlainValues<T extends object>(answer: T, style: ValueStyle): T {
  const out: Record<string, unknown> = { ...(answer as Record<string, unknown>) }
  for (const [key, v] of Object.entries(out)) {
    if (Array.isArray(v) && v.every(isTransaction))
      out[key] = v.map((tx) => ({ ...tx, value: plainValue(tx.value, style) }))
    else if (isTransaction(v)) out[key] = { ...v, value: plainValue(v.value, style) }
    else if (key === 'step' && typeof v === 'object' && v !== null) out[key] = withPlainValues(v, style)
  }
  return out as T
}
