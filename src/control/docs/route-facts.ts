// What the OpenAPI document says about one route beyond its schemas: the credentials it accepts, its surface (the
// service's API or the sandbox's own control API) and every status it can answer. Read from the route's
// declaration and from what the dispatcher and the middlewares do to every route of its kind, in one place.
import type { RouteDefinition } from '../../contract/route.ts'

/** A credential as the document's security schemes name it. */
export type DocumentedCredential = 'api-key' | 'client-id' | 'session' | 'cookie' | 'orchestrator-key'

/** A route of the table, whatever its schemas (the table's own element type). */
// biome-ignore lint/suspicious/noExplicitAny: the route table's element type
export type AnyRoute = RouteDefinition<any, any, any, any>

/** The credentials a route accepts, in the order they are tried; empty for a public route. */
export function routeCredentials(route: AnyRoute): DocumentedCredential[] {
  return route.credentials.flatMap((c) =>
    c === 'public' ? [] : c === 'portal-session' ? ['cookie' as const] : [c],
  )
}

/** `api`: the service's own endpoints (journaled, delayed, faulted, rate-limited); `control`: the sandbox's. */
export function routeSurface(route: AnyRoute): 'api' | 'control' {
  return route.surface
}

/**
 * Every status a route answers: its own (`statuses`, success first; Nest's default when undeclared) and the
 * ones the dispatcher and middlewares add: 400 for a malformed parameter, query or body (or an unknown
 * `x-sandbox-scenario`), 401 without a valid credential, 403 for a client ID refused, 413/415 for a JSON body too
 * large or of another type, 429 for a scenario's rate limit.
 */
export function routeStatuses(route: AnyRoute): number[] {
  const statuses = new Set<number>(route.statuses ?? [route.method === 'POST' ? 201 : 200])
  const credentials = routeCredentials(route)
  if (credentials.length || route.params || route.query || route.body) statuses.add(400)
  if (credentials.length) statuses.add(401)
  if (credentials.includes('client-id') || credentials.includes('orchestrator-key')) statuses.add(403)
  if (route.body) {
    statuses.add(413)
    statuses.add(415)
  }
  if (routeSurface(route) === 'api' && credentials.length) statuses.add(429)
  return [...statuses].sort((a, b) => a - b)
}

/** Express-style `:param` path to OpenAPI's `{param}` form. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

/** The names of a path's parameters, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
}

const tagNames: Record<string, string> = {
  currencies: 'Currencies',
  request: 'Requests',
  payouts: 'Payouts',
  payments: 'Payments',
  payer: 'Payers',
  'client-ids': 'Client IDs',
  webhook: 'Webhooks',
  'request-tech': 'Webhooks',
  pay: 'Payouts',
  'payee-destination': 'Payee destinations',
  auth: 'Portal',
  key: 'Portal',
  platforms: 'Portal',
  journey: 'Journeys',
  'secure-payments': 'Secure payments',
  clock: 'Sandbox: clock',
  rates: 'Sandbox: rates',
  scenario: 'Sandbox: scenarios',
  scenarios: 'Sandbox: scenarios',
  reset: 'Sandbox: scenarios',
  journal: 'Sandbox: journal, events and webhooks',
  events: 'Sandbox: journal, events and webhooks',
  webhooks: 'Sandbox: journal, events and webhooks',
  payers: 'Sandbox: payers',
  'payer-pages': 'Sandbox: payers',
  sessions: 'Sandbox: sessions',
  health: 'Sandbox: chain',
  chain: 'Sandbox: chain',
  faucet: 'Sandbox: chain',
  rpc: 'Sandbox: chain',
}

/** Control areas whose first segment is also an API resource's. */
const controlTagNames: Record<string, string> = {
  'secure-payment': 'Sandbox: secure payment page',
  'secure-payments': 'Sandbox: secure payment page',
}

/** The group a route is listed under: its resource for API routes, the control area for the sandbox's own. */
export function routeTag(route: AnyRoute): string {
  const segments = route.path.split('/').filter(Boolean)
  const api = routeSurface(route) === 'api'
  const first = api || segments[0] === '__sandbox' ? segments[1] : segments[0]
  const known = (api ? undefined : controlTagNames[first ?? '']) ?? tagNames[first ?? '']
  if (known && known.startsWith('Sandbox') !== api) return known
  return api ? (first ?? 'other').replace(/^./, (c) => c.toUpperCase()) : 'Sandbox: dashboard and docs'
}
