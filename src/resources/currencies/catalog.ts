import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { type Currency, type CurrencyCatalog, CurrencyFixture } from '../../contract/currencies.ts'

/** Strips fixture-only fields so a token reads exactly as the service returns it. */
export function publicCurrency(currency: CurrencyFixture): Currency {
  const { permit: _permit, ...rest } = currency
  return rest
}

/** Loads the catalog from fixture files (default: the repository's fixtures/ folder). */
export function loadCurrencyCatalog(
  fixturesDir = new URL('../../../fixtures/', import.meta.url),
): CurrencyCatalog {
  const all = z
    .array(CurrencyFixture)
    .parse(JSON.parse(readFileSync(new URL('currencies.json', fixturesDir), 'utf8')))
  const routes = z
    .record(z.string(), z.array(z.string()))
    .parse(JSON.parse(readFileSync(new URL('conversion-routes.json', fixturesDir), 'utf8')))
  const exact = new Map(all.map((c) => [c.id, c]))
  const publicByFixture = new Map(all.map((c) => [c, Object.freeze(publicCurrency(c))]))
  const answers = new Map<string, { value: unknown; text: string; utf8: Uint8Array }>()
  const folded = new Map(all.map((c) => [c.id.toLowerCase(), c]))
  for (const [from, targets] of Object.entries(routes)) {
    for (const id of [from, ...targets])
      if (!exact.has(id)) throw new Error(`conversion route names unknown currency ${id}`)
  }
  return {
    all,
    byId: (id) => exact.get(id) ?? folded.get(id.toLowerCase()),
    publicOf: (currency) => publicByFixture.get(currency) ?? publicCurrency(currency),
    memo<T>(key: string, compute: () => T) {
      let answer = answers.get(key)
      if (!answer) {
        const value = compute()
        const text = JSON.stringify(value)
        answer = { value, text, utf8: new TextEncoder().encode(text) }
        if (answers.size >= 256) answers.delete(answers.keys().next().value!)
        answers.set(key, answer)
      }
      return answer as { value: T; text: string; utf8: Uint8Array }
    },
    conversionTargets: (id) => routes[exact.get(id)?.id ?? folded.get(id.toLowerCase())?.id ?? ''] ?? [],
  }
}
