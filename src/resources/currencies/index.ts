// The public module of the currencies resource: what other resources may use of it.
export type { CurrencyCatalog } from './catalog.ts'
export type { CurrencyFixture } from './schema.ts'
