// The token list's shapes: a token as the service returns it, a fixture entry, and the catalog every tenant shares
// (loaded by src/resources/currencies/catalog.ts, a service of src/resources/services.ts, read by rates and the sandbox).
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

/** The token list every tenant shares (read once from fixtures/), indexed for the lookups the API makes. */
export interface CurrencyCatalog {
  all: readonly CurrencyFixture[]
  /** exact id, then case-insensitive id */
  byId(id: string): CurrencyFixture | undefined
  /** invoice currency id -> payment currency ids it converts to (fixtures/conversion-routes.json) */
  conversionTargets(id: string): readonly string[]
  /** the token as the service returns it (built once: the list never changes) */
  publicOf(currency: CurrencyFixture): Currency
  /**
   * The answer for one list query, computed once and kept with its JSON text (the list is immutable, so the
   * same query always answers the same bytes) and its UTF-8 bytes (encoded once, sent as they are); at most 256
   * distinct queries are kept.
   */
  memo<T>(key: string, compute: () => T): { value: T; text: string; utf8: Uint8Array }
}
