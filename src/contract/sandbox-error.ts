/** Reason phrases Nest puts in the `error` field of its exception bodies. */
const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
}

/** The reason phrase of an HTTP status, as Nest writes it. */
export function reasonPhrase(status: number): string {
  return reasonPhrases[status] ?? 'Error'
}

/** A zod-style issue, as the service returns inside `message` arrays (E2 bodies). */
export interface ServiceIssue {
  code: string
  message: string
  path: (string | number)[]
  [key: string]: unknown
}

/** A field error, as the service returns in `{message: "Validation failed", errors}` bodies (E3). */
export interface FieldError {
  field: string
  message: string
}

/**
 * Base of every error a model throws. `body` is exactly what the service answers; by default the Nest
 * exception body `{statusCode, message, error}` (E1).
 */
export class SandboxError extends Error {
  override name = 'SandboxError'
  readonly status: number
  readonly body: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor(
    status: number,
    message: string,
    options: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.status = status
    this.body = options.body ?? { statusCode: status, message, error: reasonPhrase(status) }
    this.headers = options.headers ?? {}
  }
}

/** 400 with a plain message (E1). */
export class BadRequestError extends SandboxError {
  override name = 'BadRequestError'
  constructor(message: string) {
    super(400, message)
  }
}

/** 404 with a plain message (E1). */
export class NotFoundError extends SandboxError {
  override name = 'NotFoundError'
  constructor(message: string) {
    super(404, message)
  }
}

/** The header that marks a route-not-found 404 (no operation at this method and path), unlike a resource's 404. */
export const ROUTE_NOT_FOUND_HEADER = 'x-sandbox-route-not-found'

/** 404 `Cannot METHOD path`, Nest's answer when no route matches; marked with ROUTE_NOT_FOUND_HEADER. */
export class RouteNotFoundError extends SandboxError {
  override name = 'RouteNotFoundError'
  constructor(method: string, path: string) {
    super(404, `Cannot ${method} ${path}`, { headers: { [ROUTE_NOT_FOUND_HEADER]: 'true' } })
  }
}

/** The header a sandbox error adds to say what a newcomer should do (the body stays the service's). */
export const HINT_HEADER = 'x-sandbox-hint'

/** 401 `Unauthorized` (the body `/v2/payments` documents); `hint` goes in the `x-sandbox-hint` header. */
export class UnauthorizedError extends SandboxError {
  override name = 'UnauthorizedError'
  constructor(message = 'Unauthorized', hint?: string) {
    super(401, message, hint ? { headers: { [HINT_HEADER]: hint } } : {})
  }
}

/** 403 for valid credentials that may not do this. */
export class ForbiddenError extends SandboxError {
  override name = 'ForbiddenError'
  constructor(message = 'Forbidden') {
    super(403, message)
  }
}

/** 400 whose message is a zod issue list (E2), as the currencies and webhook-test endpoints answer. */
export class IssueListError extends SandboxError {
  override name = 'IssueListError'
  constructor(all: ServiceIssue[]) {
    const seen = new Set<string>()
    const issues = all.filter((i) => {
      const id = `${i.path.join('.')}\u0000${i.message}`
      if (seen.has(id)) return false
      seen.add(id)
      return true
    })
    super(400, issues[0]?.message ?? 'Bad Request', {
      body: { statusCode: 400, message: issues, error: 'Bad Request' },
    })
  }
}

/** 400 `Validation failed` with a field list (E3), as the pay endpoints answer query errors. */
export class FieldListError extends SandboxError {
  override name = 'FieldListError'
  constructor(all: FieldError[], options: { withStatusCode?: boolean } = {}) {
    // zod runs every check of a field, so two checks with one message (format, then range) would list it twice
    const seen = new Set<string>()
    const errors = all.filter((e) => {
      const id = `${e.field}\u0000${e.message}`
      if (seen.has(id)) return false
      seen.add(id)
      return true
    })
    super(400, 'Validation failed', {
      body: options.withStatusCode
        ? { statusCode: 400, message: 'Validation failed', errors }
        : { message: 'Validation failed', errors },
    })
  }
}

/**
 * 400 `Validation failed` naming one field, for rules zod alone cannot check (a currency that does not exist, a
 * fee setting, a date). With `statusCode` in the body (E3), except where the service leaves it out (pay queries).
 */
export class OneFieldError extends FieldListError {
  override name = 'OneFieldError'
  constructor(
    field: string,
    message: string,
    options: { withStatusCode?: boolean } = { withStatusCode: true },
  ) {
    super([{ field, message }], options)
  }
}
