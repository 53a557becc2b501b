import type { z } from 'zod'
import type { NeutralRequest, ResponseStream } from './neutral.ts'
import type { RouteContext } from './route-context.ts'
import type { SandboxError } from './sandbox-error.ts'

/** HTTP methods the route table uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * A credential a route accepts (the service's documents say which, per endpoint):
 * - `api-key`: `x-api-key`, the tenant's key;
 * - `client-id`: `x-client-id` + `Origin`, runs as the tenant that created the client ID;
 * - `session`: `Authorization: Bearer` from `POST /__sandbox/sessions`;
 * - `portal-session`: the portal's `session_token` cookie (FULL's dashboard endpoints);
 * - `orchestrator-key`: `x-orchestrator-key` (`orc_…`): alone, the orchestrator is its own tenant; on a route that
 *   also takes `client-id`, it must come paired with an `x-client-id` it linked (the call runs as that client ID);
 * - `public`: no credential (health, the JSON-RPC proxy, the pages behind agreement and KYC links).
 */
export type Credential =
  | 'api-key'
  | 'client-id'
  | 'session'
  | 'portal-session'
  | 'orchestrator-key'
  | 'public'

/**
 * Which surface a route belongs to: `api` (the service's own endpoints: journaled, faulted, rate-limited by
 * scenarios) or `control` (the sandbox's own `/__sandbox/*`, `/rpc`, health: never delayed nor faulted).
 */
export type Surface = 'api' | 'control'

/** A version prefix of the service's API. */
export type ApiVersion = 'v1' | 'v2'

/** What a handler returns; transports write it as-is. */
export interface RouteResult {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** a non-JSON body (HTML page, raw JSON-RPC text) is sent as a string with this content type */
  contentType?: string
  /** `body` already serialised (an immutable answer kept with its JSON): sent as-is */
  text?: string
  /** `text`'s UTF-8 bytes, kept with it (the Node transport sends them as they are, no encoding per call) */
  utf8?: Uint8Array
  /** a body that keeps sending (server-sent events), written by the transport as it comes */
  stream?: ResponseStream
}

/** Turns zod issues of one request part into the error the service answers for that endpoint. */
export type InvalidHandler = (issues: z.core.$ZodIssue[], part: 'params' | 'query' | 'body') => SandboxError

/** The input a handler gets, validated. */
export interface RouteInput<P, Q, B> {
  params: P
  query: Q
  body: B
  request: NeutralRequest
}

/** One operation, declared once: both transports and the tests are generated from these. */
export interface RouteDefinition<P = unknown, Q = unknown, B = unknown, S = unknown> {
  method: HttpMethod
  /** Express-style path: `/v2/request/:requestId/pay` */
  path: string
  /** the credentials accepted, in the order they are tried; `['public']` for routes without one */
  credentials: readonly Credential[]
  surface: Surface
  summary: string
  /**
   * The statuses the handler answers, success first (`[201, 404]`). The OpenAPI document adds the ones every route
   * of its kind answers from the dispatcher and middlewares (400 validation or unknown scenario, 401/403
   * credentials, 413/415 bodies, 429 a scenario's rate limit).
   */
  statuses?: readonly number[]
  params?: z.ZodType<P>
  query?: z.ZodType<Q>
  body?: z.ZodType<B>
  /** the route takes the raw body text itself (JSON-RPC proxy) */
  rawBody?: boolean
  /** how validation failures render; default: 400 `Validation failed` with a field list and statusCode */
  onInvalid?: InvalidHandler
  /** response schemas by status, checked in tests */
  responses?: Record<number, z.ZodType>
  /**
   * Browsers may send and receive cookies here: CORS answers name the Origin and allow credentials. Implied by a
   * `portal-session` credential; routes that set the cookie without reading it (register, login) declare it.
   */
  cookies?: boolean
  handler: (ctx: RouteContext<S>, input: RouteInput<P, Q, B>) => Promise<RouteResult> | RouteResult
}

/** Whether browsers may send and receive cookies on a route (credentialed CORS). */
export function usesCookies(route: Pick<RouteDefinition, 'credentials' | 'cookies'>): boolean {
  return route.cookies === true || route.credentials.includes('portal-session')
}

/** Whether a route needs a credential (anything but `public`). */
export function isAuthenticated(route: Pick<RouteDefinition, 'credentials'>): boolean {
  return !route.credentials.includes('public')
}

/** Declares a route whose handler uses no service, with its types inferred from its schemas. */
export function defineRoute<P = Record<string, string>, Q = Record<string, string>, B = undefined>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition<P, Q, B> {
  return route
}

/**
 * A route of the table whatever its params, query and body: the table holds routes of every input type, each
 * validating its own input with its zod schemas before its handler sees it, so the input types are erased here.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous table; inputs are checked by each route's own schemas
export type TableRoute<S = unknown> = RouteDefinition<any, any, any, S>

/**
 * The route declarer of a resource whose handlers use the services `S` (e.g. `Pick<ResourceServices,
 * 'currencies' | 'ids'>`): `const defineRoute = routesUsing<MyServices>()`.
 */
export function routesUsing<S>(): <P = Record<string, string>, Q = Record<string, string>, B = undefined>(
  route: RouteDefinition<P, Q, B, S>,
) => RouteDefinition<P, Q, B, S> {
  return (route) => route
}

/** The two versions of the service's API, for twins served under both prefixes. */
export const BOTH_VERSIONS: readonly ApiVersion[] = ['v1', 'v2']

/**
 * Declares a v1/v2 twin once: `declare` gets each version (paths are written `/${version}/...`) and returns its
 * route(s); what differs between the twins (a path parameter, a response mapping, credentials) is read off `version`.
 */
export function versioned<R>(
  versions: readonly ApiVersion[],
  declare: (version: ApiVersion) => R | R[],
): R[] {
  return versions.flatMap((version) => declare(version))
}

/**
 * The credentials of an API route by version: v1 takes the API key only; v2 adds what its document allows
 * (`x-client-id` + `Origin` on the checkout endpoints, a session on client-ids).
 */
export function credentialsFor(version: ApiVersion, v2: readonly Credential[]): readonly Credential[] {
  return version === 'v2' ? v2 : ['api-key']
}
