import type { z } from 'zod'
import { type AuthOptions, apiKeyCaller, authenticate, bothCredentialsHint } from '../auth/authenticate.ts'
import { bodyIssue, MAX_BODY_DEPTH } from '../contract/body-limits.ts'
import type { Caller } from '../contract/caller.ts'
import type { CallInfo, Middleware } from '../contract/middleware.ts'
import { MAX_BODY_BYTES, type NeutralRequest, type NeutralResponse } from '../contract/neutral.ts'
import { isAuthenticated, type TableRoute, usesCookies } from '../contract/route.ts'
import type { CallScope } from '../contract/route-context.ts'
import {
  FieldListError,
  ForbiddenError,
  HINT_HEADER,
  OneFieldError,
  ROUTE_NOT_FOUND_HEADER,
  RouteNotFoundError,
  SandboxError,
} from '../contract/sandbox-error.ts'
import { pageSecurityHeaders, trustedOrigin } from '../contract/security.ts'
import type { SandboxState } from '../control/sandbox-state.ts'
import { renderError } from '../errors/render-error.ts'
import type { IdGenerator } from '../store/ids.ts'

/** Request headers a browser app may send; preflights allow all of them. */
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'x-api-key',
  'x-client-id',
  'x-orchestrator-key',
  'x-request-id',
  'x-sandbox-scenario',
  'x-sandbox-delay',
  'x-sandbox-status',
  'x-sandbox-admin-key',
  'x-sandbox-webhook-chaos',
]

const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
  'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(','),
  'access-control-expose-headers': `retry-after,x-request-network-delivery,x-sandbox-fault,x-sandbox-hint,${ROUTE_NOT_FOUND_HEADER}`,
  'access-control-max-age': '600',
}

/** A route of the table as the dispatcher holds it (its services are the sandbox's). */
type AnyRoute = TableRoute<SandboxState>

interface CompiledRoute {
  route: AnyRoute
  pattern: RegExp
  names: string[]
}

const scenarioOf = Symbol('scenario')
const routePath = Symbol('route path')

/** The context object of one call (what handlers get as `ctx`). */
type CallContext = SandboxState & { -readonly [K in keyof CallScope]: CallScope[K] } & {
  [scenarioOf]: string
  [routePath]: string
}

/** Options of the dispatcher that come from the sandbox's configuration. */
export interface DispatchOptions extends AuthOptions {
  /** run around every matched call, outermost first */
  middleware?: Middleware[]
  /** with --seed: the id generator of each key (handlers of a key's calls draw from it instead of the shared one) */
  idsFor?: (tenant: string) => IdGenerator
  /**
   * With --state-dir: what an answer waits for before it leaves (the commit of the changes made so far; undefined
   * when nothing is pending, and always without a state dir).
   */
  durable?: (method: string) => Promise<void> | undefined
}

function compile(route: AnyRoute): CompiledRoute {
  const names: string[] = []
  const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
    names.push(name)
    return '([^/]+)'
  })
  return { route, pattern: new RegExp(`^${source}/?$`), names }
}

/** The default rendering of a validation failure: `Validation failed` with the failing fields (and statusCode). */
function defaultInvalid(issues: z.core.$ZodIssue[], part: string): SandboxError {
  return new FieldListError(
    issues.map((i) => ({ field: i.path.map(String).join('.') || part, message: i.message })),
    { withStatusCode: true },
  )
}

/** The media type of a content-type header, lower case, without its parameters. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return ''
  const semicolon = header.indexOf(';')
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * The JSON body of a route that takes one (undefined when there is none), checked in one walk
 * (`contract/body-limits.ts`): nested deeper than MAX_BODY_DEPTH, a 400 naming the field before any handler
 * (nothing stored can then fail to serialise); a string, array or object past its bound, the route's 400.
 */
function parseJsonBody(request: NeutralRequest, route: CompiledRoute['route']): unknown {
  const raw = request.rawBody
  if (raw === undefined) return undefined
  // past the limit before anything else: a body of blanks is no smaller (the transports cut it one byte past it)
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new SandboxError(413, 'request entity too large')
  if (raw.trim() === '') return undefined
  const type = mediaType(request.headers['content-type'])
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new SandboxError(
      415,
      `Unsupported Media Type: send the body as application/json (got ${type || 'none'})`,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw new SandboxError(400, `Malformed JSON body: ${(error as Error).message}`)
  }
  const issue = bodyIssue(value)
  if (issue === null) return value
  if ('tooDeep' in issue)
    throw new OneFieldError(
      issue.tooDeep,
      `nested deeper than ${MAX_BODY_DEPTH} levels: a body's objects and arrays may nest ${MAX_BODY_DEPTH} levels at most`,
    )
  throw (route.onInvalid ?? defaultInvalid)([issue.tooBig], 'body')
}

/** The raw body of a route that takes it as text, refused with 413 past the limit (never cut). */
function rawBodyWithinLimit(request: NeutralRequest): string | undefined {
  const raw = request.rawBody
  if (raw !== undefined && Buffer.byteLength(raw) > MAX_BODY_BYTES) {
    throw new SandboxError(413, 'request entity too large')
  }
  return raw
}

function validate<T>(
  schema: z.ZodType<T> | undefined,
  value: unknown,
  part: 'params' | 'query' | 'body',
  route: CompiledRoute['route'],
): T {
  if (!schema) return value as T
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw (route.onInvalid ?? defaultInvalid)(result.error.issues, part)
}

/** Builds the function both transports call: neutral request in, neutral response out, errors rendered once. */
export function createDispatcher(
  routes: readonly AnyRoute[],
  shared: SandboxState,
  options: DispatchOptions = {},
): (request: NeutralRequest) => Promise<NeutralResponse> {
  const compiled = routes.map(compile)
  const middleware = options.middleware ?? []
  // the paths whose CORS answers allow credentials, read off the routes' declarations (a preflight names no method)
  const cookiePatterns = compiled.filter((c) => usesCookies(c.route)).map((c) => c.pattern)
  const allowsCredentials = (path: string) => cookiePatterns.some((pattern) => pattern.test(path))
  // A handler's context: the sandbox's services through the prototype (built once), the call's scope on top.
  const contextBase = Object.create(shared, {
    world: {
      get(this: CallContext) {
        if (this.tenant === null) throw new Error(`route ${this[routePath]} is public and has no world`)
        return shared.worlds.get(this.tenant, this[scenarioOf])
      },
    },
  }) as SandboxState

  return async function dispatch(request) {
    const method = request.method.toUpperCase()
    if (method === 'OPTIONS') return { status: 204, headers: cors(request), body: undefined }
    let response: NeutralResponse
    try {
      response = await handle(method, request)
    } catch (error) {
      response = renderError(error, shared.log)
    }
    const durable = options.durable?.(method)
    if (durable) {
      try {
        await durable
      } catch {
        response = renderError(
          new SandboxError(
            503,
            'The sandbox could not save this change to its --state-dir yet: it is kept in memory and written with the next one; read it back before you send it again',
          ),
          shared.log,
        )
      }
    }
    // browsers send Origin on every cross-origin call: answer them with CORS headers, skip the bytes otherwise
    if (request.headers.origin !== undefined) response.headers = { ...cors(request), ...response.headers }
    // pages run only their own code (a route may loosen the frame policy); nothing is sniffed as another type
    if (response.contentType?.startsWith('text/html') && !response.headers['content-security-policy'])
      response.headers = { ...pageSecurityHeaders(), ...response.headers }
    // a copy in every case: a route may answer with a constant headers object, and the transports add theirs to
    // the answer's own (node-http's content type and length)
    else if (!response.headers['x-content-type-options'])
      response.headers = { ...response.headers, 'x-content-type-options': 'nosniff' }
    else response.headers = { ...response.headers }
    return response
  }

  /**
   * CORS headers; the portal's cookie routes name the Origin and allow credentials (browsers send the cookie) for the
   * sandbox's own origin and `--allowed-origins` only.
   */
  function cors(request: NeutralRequest): Record<string, string> {
    const origin = request.headers.origin
    if (
      !origin ||
      !allowsCredentials(request.path) ||
      !trustedOrigin(request, shared.security, 'credentials')
    )
      return { ...corsHeaders }
    return {
      ...corsHeaders,
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    }
  }

  async function handle(method: string, request: NeutralRequest): Promise<NeutralResponse> {
    let matched: CompiledRoute | undefined
    let values: RegExpExecArray | null = null
    for (const candidate of compiled) {
      if (candidate.route.method !== method) continue
      values = candidate.pattern.exec(request.path)
      if (values) {
        matched = candidate
        break
      }
    }
    if (!matched || !values) throw new RouteNotFoundError(method, request.path)
    const found = matched
    const captures = values
    const { route } = found
    // a page of another origin cannot change a key's state through the control API (the sandbox's own pages can;
    // /rpc is a chain node for any dapp: its guard refuses admin methods to browsers)
    if (
      route.surface === 'control' &&
      method !== 'GET' &&
      !route.path.startsWith('/rpc') &&
      !trustedOrigin(request, shared.security, 'control-write')
    )
      throw new ForbiddenError(
        `Cross-origin writes to the control API are refused (Origin ${request.headers.origin}); allow the origin with --allowed-origins`,
      )

    // an API key (nearly every call) is checked without a wait; the other credentials may look things up
    const caller: Caller | null = isAuthenticated(route)
      ? (apiKeyCaller(request, route, shared, options) ??
        (await authenticate(request, route, shared, options)))
      : null
    const call: CallInfo = { request, route, caller, scenario: 'default' }
    const run = (): Promise<NeutralResponse> => runRoute(found, captures, call)
    // one `next` for the whole chain (each middleware calls it at most once): middleware i runs, then i + 1, then the route
    let step = 0
    const next = (): Promise<NeutralResponse> =>
      step < middleware.length ? middleware[step++]!(call, next) : run()
    const hint = caller ? bothCredentialsHint(request, route, caller) : undefined
    if (hint === undefined) return next()
    call.hint = hint
    const response = await next()
    response.headers = { ...response.headers, [HINT_HEADER]: hint }
    return response
  }

  /** The route's answer, or its error rendered; a JSON body serialised once, here (the transports send this text and the journal keeps it). */
  async function runRoute(
    compiledRoute: CompiledRoute,
    /** the path pattern's match: parameter i is capture i + 1 */
    values: RegExpExecArray,
    call: CallInfo,
  ): Promise<NeutralResponse> {
    let response: NeutralResponse
    try {
      response = await answer(compiledRoute, values, call)
    } catch (error) {
      response = renderError(error, shared.log)
    }
    if (response.body !== undefined && !response.contentType && response.text === undefined) {
      response.text = JSON.stringify(response.body)
    }
    return response
  }

  async function answer(
    compiledRoute: CompiledRoute,
    values: RegExpExecArray,
    call: CallInfo,
  ): Promise<NeutralResponse> {
    const { route } = compiledRoute
    const { request } = call
    const rawParams: Record<string, string> = {}
    const { names } = compiledRoute
    for (let i = 0; i < names.length; i++) {
      try {
        rawParams[names[i]!] = decodeURIComponent(values[i + 1]!)
      } catch {
        throw new SandboxError(400, `Malformed path parameter ${names[i]}`)
      }
    }
    const params = validate(route.params, rawParams, 'params', route)
    const query = validate(route.query, request.query, 'query', route)
    const body = route.body
      ? validate(route.body, parseJsonBody(request, route) ?? {}, 'body', route)
      : route.rawBody
        ? rawBodyWithinLimit(request)
        : undefined

    const ctx = Object.create(contextBase) as CallContext
    ctx.tenant = call.caller?.tenant ?? null
    ctx.caller = call.caller
    ctx[scenarioOf] = call.scenario
    ctx[routePath] = route.path
    // with --seed, a key's handlers draw ids from its own sequence
    if (ctx.tenant !== null && options.idsFor) ctx.ids = options.idsFor(ctx.tenant)
    const result = await route.handler(ctx, { params, query, body, request })
    const response: NeutralResponse = {
      status: result.status,
      headers: result.headers ?? {},
      body: result.body,
    }
    if (result.contentType) response.contentType = result.contentType
    if (result.text !== undefined) response.text = result.text
    if (result.stream) response.stream = result.stream
    return response
  }
}
