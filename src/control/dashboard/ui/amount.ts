// Token amounts as people read them: a log's base units (`50000000000000000000`) in the token's own units with its
// symbol (`50 FAU`), decimals from the currency list; the raw value stays on the element's title.

/** The token a log's amounts are counted in (GET /__sandbox/transactions/{hash}: a log's `units`). */
export interface Units {
  currency: string
  symbol: string
  decimals: number
}

/** The arguments of a decoded log that are amounts of its token. */
export const AMOUNT_ARGS: ReadonlySet<string> = new Set(['value', 'amount', 'feeAmount'])

/** `raw` base units as a decimal number of whole tokens (`formatUnits('1500000', 6)` is `1.5`); undefined if not an integer. */
export function formatUnits(raw: string, decimals: number): string | undefined {
  if (!/^-?\d+$/.test(raw)) return undefined
  const negative = raw.startsWith('-')
  const value = BigInt(negative ? raw.slice(1) : raw)
  const base = 10n ** BigInt(decimals)
  const fraction = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${value / base}${fraction ? `.${fraction}` : ''}`
}

/** `50 FAU` for `50000000000000000000` in FAU's units, with the raw value for a title; undefined if not an amount. */
export function tokenAmount(raw: string, units: Units): { text: string; title: string } | undefined {
  const whole = formatUnits(raw, units.decimals)
  return whole === undefined
    ? undefined
    : {
        text: `${whole} ${units.symbol}`,
        title: `${raw} (base units of ${units.currency}, ${units.decimals} decimals)`,
      }
}
