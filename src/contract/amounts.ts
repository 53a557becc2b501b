/** Converts a human decimal string to base units; extra decimals beyond `decimals` are dropped (floor). */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.')
  const padded = (fraction + '0'.repeat(decimals)).slice(0, decimals)
  return BigInt(whole) * 10n ** BigInt(decimals) + (padded ? BigInt(padded) : 0n)
}

/** Number of decimals written in a human amount. */
export function decimalsOf(amount: string): number {
  return amount.split('.')[1]?.length ?? 0
}

/** Formats base units as the service writes human amounts ("10", "25.5", "0.000001"). */
export function fromBaseUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** `amount * percentage / 100`, floored, with the percentage a decimal string such as "2.5". */
export function percentageOf(amount: bigint, percentage: string): bigint {
  const scale = decimalsOf(percentage)
  const scaled = toBaseUnits(percentage, scale)
  return (amount * scaled) / (100n * 10n ** BigInt(scale))
}

/** The fee a percentage (`"1.5"`, or none) takes of `amount` base units, floored; 0 without a percentage. */
export function feeUnits(amount: bigint, percentage: string | undefined | null): bigint {
  return percentage ? percentageOf(amount, percentage) : 0n
}

/** ethers v5 BigNumber JSON (`{type: "BigNumber", hex}`), as the service writes native `value`s. */
export function bigNumberJson(value: bigint): { type: 'BigNumber'; hex: string } {
  let hex = value.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  return { type: 'BigNumber', hex: `0x${hex}` }
}
