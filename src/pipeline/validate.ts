// The validate stage: a call's path parameters decoded, its JSON body parsed within the body bounds, then params,
// query and body checked against the route's zod schemas. Failures render as the route asks (`onInvalid`).
import type { z } from 'zod'
import { bodyIssue, MAX_BODY_DEPTH } from '../contract/body-limits.ts'
import { hasKeys, MAX_BODY_BYTES, type NeutralRequest } from '../contract/neutral.ts'
import { FieldListError, OneFieldError, SandboxError } from '../contract/sandbox-error.ts'
import type { AnyRoute, CallInput, MatchedRoute } from './stages.ts'

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
function parseJsonBody(request: NeutralRequest, route: AnyRoute): unknown {
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

function check<T>(
  schema: z.ZodType<T> | undefined,
  value: unknown,
  part: 'params' | 'query' | 'body',
  route: AnyRoute,
): T {
  if (!schema) return value as T
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw (route.onInvalid ?? defaultInvalid)(result.error.issues, part)
}

/**
 * Query schemas an empty query passes as an empty object, learned from the first empty query each one checks: the
 * next empty queries (nearly every call) get a fresh `{}` without the parse (zod's schemas give the same answer to
 * the same input).
 */
const passesEmpty = new WeakSet<object>()

function checkQuery(route: AnyRoute, query: Record<string, string>): unknown {
  const schema = route.query
  if (!schema) return query
  const empty = !hasKeys(query)
  if (empty && passesEmpty.has(schema)) return {}
  const checked = check(schema, query, 'query', route)
  if (
    empty &&
    typeof checked === 'object' &&
    checked !== null &&
    Object.getPrototypeOf(checked) === Object.prototype &&
    !hasKeys(checked as Record<string, unknown>)
  )
    passesEmpty.add(schema)
  return checked
}

/** The validate stage: a matched call's input as its handler gets it, or the error its route renders. */
export function validateInput(match: MatchedRoute, request: NeutralRequest): CallInput {
  const { route, names, values } = match
  const rawParams: Record<string, string> = {}
  for (let i = 0; i < names.length; i++) {
    try {
      rawParams[names[i]!] = decodeURIComponent(values[i]!)
    } catch {
      throw new SandboxError(400, `Malformed path parameter ${names[i]}`)
    }
  }
  const params = check(route.params, rawParams, 'params', route)
  const query = checkQuery(route, request.query)
  const body = route.body
    ? check(route.body, parseJsonBody(request, route) ?? {}, 'body', route)
    : route.rawBody
      ? rawBodyWithinLimit(request)
      : undefined
  return { params, query, body, request }
}
