import type { z } from 'zod'
import type { SandboxError } from '../errors/sandbox-error.ts'
import type { NeutralRequest, ResponseStream } from './neutral.ts'
import type { RouteContext } from './route-context.ts'

/** HTTP methods the route table uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * Who may call a route:
 * - `api`: a tenant credential (`x-api-key`) is required, the handler gets that tenant's world;
 * - `public`: no credential (health, the JSON-RPC proxy, the pages behind agreement and KYC links).
 */
export type RouteAuth = 'api' | 'public'

/** What a handler returns; transports write it as-is. */
export interface RouteResult {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** a non-JSON body (HTML page, raw JSON-RPC text) is sent as a string with this content type */
  contentType?: string
  /** `body` already serialised (an immutable answer kept with its JSON): sent as-is */
  text?: string
  /** a body that keeps sending (server-sent events), written by the transport as it comes */
  stream?: ResponseStream
}

/** Turns zod issues of one request part into the error the service answers for that endpoint. */
export type InvalidHandler = (issues: z.core.$ZodIssue[], part: 'params' | 'query' | 'body') => SandboxError

/** One operation, declared once: both transports and the tests are generated from these. */
export interface RouteDefinition<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod
  /** Express-style path: `/v2/request/:requestId/pay` */
  path: string
  auth: RouteAuth
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
  handler: (
    ctx: RouteContext,
    input: { params: P; query: Q; body: B; request: NeutralRequest },
  ) => Promise<RouteResult> | RouteResult
}

/** Declares a route with its types inferred from its schemas. */
export function defineRoute<P = Record<string, string>, Q = Record<string, string>, B = undefined>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition<P, Q, B> {
  return route
}
