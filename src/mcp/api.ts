// How the MCP tools reach a sandbox: as an API client with one key, never around the API. Over HTTP (`request-sandbox
// mcp --base`, or the command's own server) or in the process (`/mcp` of a server: the same dispatcher every call
// goes through, so authentication, strict mode, bounds, journal and --state-dir's durability apply to each tool call).
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'

/** An API answer: its status and its body (parsed JSON, or the text when it is not JSON). */
export interface ApiAnswer {
  status: number
  body: unknown
}

/** One API call as the key the MCP session belongs to. */
export type ApiCall = (
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string>,
) => Promise<ApiAnswer>

/** The sandbox's dispatcher, as a server's `/mcp` hands it to a session. */
export interface Dispatching {
  dispatch(request: NeutralRequest): Promise<NeutralResponse>
}

/** Calls over HTTP: `base` (http://host:port), the key in x-api-key. */
export function fetchApi(base: string, key: string): ApiCall {
  const root = base.replace(/\/+$/, '')
  return async (method, path, body, query) => {
    const url = new URL(`${root}${path}`)
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value)
    const response = await fetch(url, {
      method,
      headers: {
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: parsed(text) }
  }
}

/**
 * Calls through a sandbox's dispatcher as the request that opened the MCP session: its key, and the headers that
 * decide the links the sandbox hands out (Host, X-Forwarded-*) and the client's address (rate limits per address).
 */
export function dispatchApi(
  target: Dispatching,
  key: string,
  from: { headers: Record<string, string>; remoteAddress?: string },
): ApiCall {
  const forwarded: Record<string, string> = {}
  for (const name of [
    'host',
    'x-forwarded-host',
    'x-forwarded-proto',
    'x-forwarded-prefix',
    'x-forwarded-for',
  ])
    if (from.headers[name] !== undefined) forwarded[name] = from.headers[name]!
  return async (method, path, body, query) => {
    const request: NeutralRequest = {
      method,
      path,
      query: query ?? {},
      headers: {
        ...forwarded,
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      rawBody: body === undefined ? undefined : JSON.stringify(body),
      ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
    }
    const response = await target.dispatch(request)
    const text = typeof response.text === 'string' ? response.text : undefined
    return { status: response.status, body: text === undefined ? response.body : parsed(text) }
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The message of an API error body (`message` of the service's error shape, a list joined), else the body as text. */
export function errorMessage(answer: ApiAnswer): string {
  const body = answer.body as { message?: unknown } | string | null
  const message =
    typeof body === 'object' && body !== null && body.message !== undefined
      ? Array.isArray(body.message)
        ? body.message.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join('; ')
        : String(body.message)
      : typeof body === 'string'
        ? body
        : JSON.stringify(body)
  return `${answer.status}: ${message}`
}
