// Exact decimal arithmetic for prices and rates: values are bigints scaled by 10^18 ("wad"), so no
// floating-point rounding creeps into amounts that end up on chain.

/** 10^18: the scale of a wad. */
export const WAD = 10n ** 18n

/** Parses a non-negative decimal string ("2500", "0.0067") into a wad; digits past 18 decimals are dropped. */
export function toWad(value: string): bigint {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new RangeError(`not a decimal number: ${value}`)
  const [whole = '0', fraction = ''] = value.split('.')
  return BigInt(whole) * WAD + BigInt((fraction + '0'.repeat(18)).slice(0, 18))
}

/** a / b as a wad (floored); b must not be zero. */
export function divWad(a: bigint, b: bigint): bigint {
  return (a * WAD) / b
}

/** a × b for two wads (floored). */
export function mulWad(a: bigint, b: bigint): bigint {
  return (a * b) / WAD
}

/** Writes a wad as a decimal string with at most `maxDecimals` decimals, trailing zeros removed. */
export function formatWad(value: bigint, maxDecimals = 18): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const cut = 10n ** BigInt(18 - Math.min(18, maxDecimals))
  const rounded = (abs + cut / 2n) / cut
  const scale = 10n ** BigInt(Math.min(18, maxDecimals))
  const whole = rounded / scale
  const fraction =
    maxDecimals > 0 ? (rounded % scale).toString().padStart(Math.min(18, maxDecimals), '0') : ''
  const trimmed = fraction.replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${trimmed ? `.${trimmed}` : ''}`
}

/** Writes a wad with exactly `decimals` decimals (e.g. USD amounts as "100.00"). */
export function formatWadFixed(value: bigint, decimals: number): string {
  const plain = formatWad(value, decimals)
  const [whole, fraction = ''] = plain.split('.')
  return decimals > 0 ? `${whole}.${fraction.padEnd(decimals, '0')}` : whole!
}

/** Base units of a currency with `decimals` decimals, as a wad of whole units. */
export function unitsToWad(units: bigint, decimals: number): bigint {
  return decimals <= 18 ? units * 10n ** BigInt(18 - decimals) : units / 10n ** BigInt(decimals - 18)
}

/** A wad of whole units as base units of a currency with `decimals` decimals (floored). */
export function wadToUnits(value: bigint, decimals: number): bigint {
  return decimals <= 18 ? value / 10n ** BigInt(18 - decimals) : value * 10n ** BigInt(decimals - 18)
}
