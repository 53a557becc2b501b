import { z } from 'zod'
import { Currency } from '../../contract/currencies.ts'

export { Currency, CurrencyFixture } from '../../contract/currencies.ts'

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
