// Differences from the real service: the real API reads Chainlink (and other) feeds and offers no way to
// set a rate; this is the sandbox's own control surface. Rates are USD prices; "1 from = rate to" sets the
// USD price of `from` (of `to` when `from` is USD) and every route through that currency follows.

import { divWad, formatWad, mulWad, toWad, WAD } from '../../contract/decimal.ts'
import type { Uses } from '../services.ts'
import { RateEntryError } from './errors.ts'
import type { SetRatesBody } from './schema.ts'
import { rateState } from './tables.ts'

type Ctx = Uses<'chains' | 'conversion' | 'currencies'>

/** The largest USD price a currency may be given (10^15 USD). */
const MAX_USD_PRICE = toWad('1000000000000000')

/** The caller's rates: USD prices in force, which of them it set, and each executable route's rate. */
export function listRates(ctx: Ctx) {
  const { world } = ctx
  const prices = ctx.conversion.prices(world)
  const networks = [...ctx.chains.keys()]
  return {
    source: ctx.conversion.fixture.source,
    usd: Object.fromEntries([...prices].map(([id, wad]) => [id, formatWad(wad, 12)])),
    overridden: rateState(world)
      .rates.all()
      .map((r) => r.currency),
    routes: networks.flatMap((network) => {
      const stack = ctx.conversion.stackFor(world, network)
      return ctx.conversion.routes(network).map((r) => ({
        from: r.from.id,
        to: r.to.id,
        network,
        rate: formatWad(ctx.conversion.rate(world, r.from.id, r.to.id)!, 12),
        path: r.path,
        proxy: (r.to.type === 'ETH' ? stack?.ethProxy : stack?.erc20Proxy) ?? null,
      }))
    }),
  }
}

/** Currencies that share a token with `id` (same network and address) move together: one feed serves them. */
function aliasesOf(ctx: Ctx, id: string): string[] {
  const currency = ctx.currencies.byId(id)!
  if (currency.type !== 'ERC20') return [currency.id]
  return ctx.currencies.all
    .filter(
      (c) => c.network === currency.network && c.address.toLowerCase() === currency.address.toLowerCase(),
    )
    .map((c) => c.id)
}

/** Applies "1 from = rate to" entries in order, then puts the caller's prices on every live chain. */
export async function setRates(ctx: Ctx, body: SetRatesBody) {
  const { world } = ctx
  const prices = ctx.conversion.prices(world)
  const changed = new Map<string, bigint>()
  body.rates.forEach((entry, i) => {
    const from = ctx.currencies.byId(entry.from)
    if (!from) throw new RateEntryError(i, 'from', `Currency ${entry.from} not found`)
    const to = ctx.currencies.byId(entry.to)
    if (!to) throw new RateEntryError(i, 'to', `Currency ${entry.to} not found`)
    if (from.id === to.id) throw new RateEntryError(i, 'to', 'from and to must differ')
    const rate = toWad(entry.rate)
    if (rate === 0n) throw new RateEntryError(i, 'rate', 'rate must be greater than 0')
    const [target, price] =
      from.id === 'USD'
        ? [to.id, divWad(WAD, rate)]
        : [from.id, prices.has(to.id) ? mulWad(rate, prices.get(to.id)!) : null]
    if (price === null) throw new RateEntryError(i, 'to', `No USD price is known for ${to.id}`)
    if (price === 0n) throw new RateEntryError(i, 'rate', 'rate is too small')
    // Feeds answer int256 with 8 decimals: keep prices where every derived rate stays representable.
    if (price > MAX_USD_PRICE) throw new RateEntryError(i, 'rate', 'rate is too large')
    for (const id of aliasesOf(ctx, target)) {
      prices.set(id, price)
      changed.set(id, price)
    }
  })
  const setAt = world.clock.now().toISOString()
  for (const [currency, price] of changed) {
    rateState(world).rates.delete(currency)
    await rateState(world).rates.insert({ currency, usd: formatWad(price), setAt })
  }
  if (ctx.chains.size > 0) await ctx.conversion.applyWorldRates(world)
  return listRates(ctx)
}

/** Forgets the caller's overrides: the fixture's rates (and the shared conversion contracts) apply again. */
export function resetRates(ctx: Ctx) {
  for (const r of rateState(ctx.world).rates.all()) rateState(ctx.world).rates.delete(r.currency)
  return listRates(ctx)
}

/**
 * Puts a restored world's own prices back on chain (--state-dir): the key's conversion stack (its addresses follow
 * from the key, the contracts are installed again in case the saved chain predates them) is registered before the
 * detector's first scan, so payments through it are read and its quotes are the key's. Nothing without overrides.
 */
export async function restoreWorldRates(ctx: Uses<'chains' | 'conversion'>): Promise<void> {
  if (rateState(ctx.world).rates.size === 0 || ctx.chains.size === 0) return
  await ctx.conversion.applyWorldRates(ctx.world)
}
