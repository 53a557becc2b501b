import { z } from 'zod'

/** A token of the service's token list, as `/v1/currencies` returns it. */
export const Currency = z.object({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  address: z.string(),
  network: z.string(),
  type: z.enum(['ERC20', 'ETH', 'ISO4217', 'TRC20']),
  hash: z.string(),
  chainId: z.number().int(),
})
export type Currency = z.infer<typeof Currency>

/** A fixture entry: a Currency plus what the chain needs to install it. */
export const CurrencyFixture = Currency.extend({ permit: z.string().nullable().optional() })
export type CurrencyFixture = z.infer<typeof CurrencyFixture>

/** Query of `GET /v1/currencies` and `GET /v2/currencies`. */
export const CurrencyQuery = z.object({
  network: z.string().optional(),
  symbol: z.string().optional(),
  id: z.string().optional(),
  firstOnly: z.string().optional(),
})

/** Query of `GET /v2/currencies/{currencyId}/conversion-routes`. */
export const ConversionRoutesQuery = z.object({
  network: z.string().optional(),
  networks: z.string().optional(),
})

/** Response of the conversion-routes endpoint (with `networks` instead of `network` when that filter is used). */
export const ConversionRoutesResponse = z.union([
  z.object({ currencyId: z.string(), network: z.string().nullable(), conversionRoutes: z.array(Currency) }),
  z.object({ currencyId: z.string(), networks: z.array(z.string()), conversionRoutes: z.array(Currency) }),
])
