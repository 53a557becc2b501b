// The door of the currencies resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { loadCurrencyCatalog } from './catalog.ts'
export { currencyRoutes } from './routes.ts'
export type { CurrencyFixture } from './schema.ts'
