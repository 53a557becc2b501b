import { TRON_NETWORK } from '../../tron/index.ts'
import type { Uses } from '../services.ts'
import { FirstOnlyError, TokenNotFoundError } from './errors.ts'
import type { Currency } from './schema.ts'

type Ctx = Uses<'chains' | 'conversion' | 'currencies'>

const same = (a: string | undefined, b: string) => a === undefined || a.toLowerCase() === b.toLowerCase()

/** `GET /v1|v2/currencies`: an array, or one token for `id` or `firstOnly=true`; 404 `Token not found`. */
export function listCurrencies(
  ctx: Ctx,
  query: { network?: string; symbol?: string; id?: string; firstOnly?: string },
): Currency | Currency[] {
  const { currencies } = ctx
  if (query.firstOnly !== undefined) {
    if (query.firstOnly !== 'true' && query.firstOnly !== 'false') {
      throw new FirstOnlyError("firstOnly must be 'true' or 'false' if provided")
    }
    if (query.network === undefined || query.symbol === undefined) {
      throw new FirstOnlyError('firstOnly can only be used when both network and symbol are provided')
    }
  }
  if (query.id !== undefined) {
    const found = currencies.byId(query.id)
    if (!found || !same(query.network, found.network ?? '') || !same(query.symbol, found.symbol)) {
      throw new TokenNotFoundError()
    }
    return currencies.publicOf(found)
  }
  const matches = currencies.all.filter(
    (c) =>
      (query.network === undefined || same(query.network, c.network ?? '')) && same(query.symbol, c.symbol),
  )
  if (query.firstOnly === 'true') {
    const first = matches[0]
    if (!first) throw new TokenNotFoundError()
    return currencies.publicOf(first)
  }
  return matches.map((c) => currencies.publicOf(c))
}

/** `GET /v2/currencies/{currencyId}/conversion-routes`: tokens `currencyId` converts to, by network(s). */
export function conversionRoutes(
  ctx: Ctx,
  currencyId: string,
  query: { network?: string; networks?: string },
) {
  const { currencies } = ctx
  const source = currencies.byId(currencyId)
  if (!source) throw new TokenNotFoundError()
  const targets = currencies
    .conversionTargets(source.id)
    .map((id) => currencies.byId(id)!)
    // On a live chain, only the routes its conversion contracts can execute; Tron's are priced off chain.
    .filter(
      (c) =>
        !ctx.chains.has(c.network) || c.network === TRON_NETWORK || ctx.conversion.route(source.id, c.id),
    )
    // hex hashes in lower case; a Tron token's hash is its base58 `T…` address, kept as it is
    .map((c) => ({
      ...ctx.currencies.publicOf(c),
      hash: c.network === TRON_NETWORK ? c.hash : c.hash.toLowerCase(),
    }))
  if (query.networks !== undefined) {
    const networks = query.networks
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
    const wanted = new Set(networks.map((n) => n.toLowerCase()))
    return {
      currencyId: source.id,
      networks,
      conversionRoutes: targets.filter((c) => wanted.has((c.network ?? '').toLowerCase())),
    }
  }
  return {
    currencyId: source.id,
    network: query.network ?? null,
    conversionRoutes: targets.filter((c) => same(query.network, c.network ?? '')),
  }
}
