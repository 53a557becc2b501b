// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): writing exchanges as a recording and reading one back.
// Credentials never land in a recording: the headers that carry them read [masked]; any value the recorder was told is
// secret (a key, a client ID) wherever it appears (URL, headers, bodies), and body fields named like secrets, are
// replaced by a value of the same shape (so verify still compares their formats).
import type { Exchange } from './types.ts'

/** What a masked credential reads as in a recording. */
export const MASKED = '[masked]'

/** Headers that carry credentials: their values are masked in every recording. */
export const CREDENTIAL_HEADERS = new Set([
  'x-api-key',
  'x-orchestrator-key',
  'x-client-id',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-request-network-signature',
  'x-webhook-signature',
])

/** JSON body fields whose values are secrets (a webhook's signing secret, a session, a key). */
const SECRET_FIELD_NAMES =
  'secret|signingSecret|webhookSecret|apiKey|api_key|password|privateKey|sessionToken'
const SECRET_FIELDS = new RegExp(`^(${SECRET_FIELD_NAMES})$`, 'i')
/** Such a field in JSON text that does not parse (a body cut at a bound): `"name": "value`, closed or cut off. */
const SECRET_FIELD_TEXT = new RegExp(`("(?:${SECRET_FIELD_NAMES})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)`, 'gi')

/** The largest body a recording keeps (larger ones are cut and the entry says so). */
export const MAX_RECORDED_BODY = 1024 * 1024
/** The most entries one recording holds. */
export const MAX_RECORDED_ENTRIES = 10_000

interface HarHeader {
  name: string
  value: string
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: unknown[]
    headers: HarHeader[]
    queryString: HarHeader[]
    postData?: { mimeType: string; text: string }
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: unknown[]
    headers: HarHeader[]
    content: { size: number; mimeType: string; text: string }
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  comment?: string
  /** the verify flow and step this call belongs to (absent in a proxy recording) */
  _flow?: string
  _step?: string
  /** paths of the answer whose values are placeholders (a corpus answer built from a schema): only their presence counts */
  _unspecified?: string[]
}

/** What a verify recording says about its run, so a replay makes the same calls. */
export interface RecordingMeta {
  /** which side of the comparison this file holds */
  side: 'real' | 'sandbox' | 'proxy'
  /** the base URL the calls went to */
  base: string
  /** how the calls authenticated (the values themselves are masked) */
  credentials?: 'api-key' | 'client-id'
  /** the Origin of client-ID calls (not a secret) */
  origin?: string
  /** the run's inputs: payee, run word, webhook URL */
  inputs?: Record<string, string>
}

export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    comment?: string
    entries: HarEntry[]
    _requestSandbox?: RecordingMeta
  }
}

/** A recorded exchange with where it came from. */
export interface RecordedExchange extends Exchange {
  flow?: string
  step?: string
  unspecified?: string[]
  startedDateTime?: string
  time?: number
}

function replaceAll(text: string, secrets: string[]): string {
  let out = text
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(sameShape(secret))
  return out
}

/**
 * A secret's value with every character replaced by one of its class (0, a, A, x, X): the
 * recording keeps its format and length (compared by verify), never its value.
 */
export function sameShape(secret: string): string {
  return secret
    .replace(/[0-9]/g, '0')
    .replace(/[a-f]/g, 'a')
    .replace(/[A-F]/g, 'A')
    .replace(/[g-z]/g, 'x')
    .replace(/[G-Z]/g, 'X')
}

function maskJsonFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJsonFields)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_FIELDS.test(k) && typeof v === 'string' ? sameShape(v) : maskJsonFields(v),
    ]),
  )
}

/** A body with its secret fields and the given secret values masked (in a body that is not JSON, found as text). */
export function maskBody(body: string, secrets: string[]): string {
  let text = replaceAll(body, secrets)
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed !== null && typeof parsed === 'object') text = JSON.stringify(maskJsonFields(parsed))
  } catch {
    // not JSON (or JSON cut at a bound): the secret values, and string values of secret-named fields
    text = text.replace(SECRET_FIELD_TEXT, (_, field: string, value: string) => field + sameShape(value))
  }
  return text
}

/** Headers with credential headers masked and the given secret values replaced in the others. */
export function maskHeaders(headers: Record<string, string>, secrets: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    out[lower] = CREDENTIAL_HEADERS.has(lower) ? MASKED : replaceAll(value, secrets)
  }
  return out
}

/** An exchange as a recording keeps it: credentials masked, bodies cut at MAX_RECORDED_BODY. */
export function maskExchange(exchange: Exchange, secrets: string[] = []): Exchange {
  const cut = (body: string) => (body.length > MAX_RECORDED_BODY ? body.slice(0, MAX_RECORDED_BODY) : body)
  const { request, response } = exchange
  return {
    request: {
      method: request.method.toUpperCase(),
      url: replaceAll(request.url, secrets),
      headers: maskHeaders(request.headers, secrets),
      ...(request.body !== undefined ? { body: cut(maskBody(request.body, secrets)) } : {}),
    },
    response: {
      status: response.status,
      headers: maskHeaders(response.headers, secrets),
      body: cut(maskBody(response.body, secrets)),
    },
  }
}

const pairs = (headers: Record<string, string>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }))

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
}

/** One HAR entry of an exchange already masked; `base` makes its URL absolute. */
export function toEntry(base: string, exchange: RecordedExchange): HarEntry {
  // a path is appended to the base as is (`//v2/x` is a path, not another host)
  const root = base.replace(/\/+$/, '')
  const url = exchange.request.url.startsWith('/')
    ? new URL(root + exchange.request.url)
    : new URL(exchange.request.url, `${root}/`)
  const { request, response } = exchange
  const requestType = request.headers['content-type'] ?? 'application/json'
  const cut = response.body.length >= MAX_RECORDED_BODY
  return {
    startedDateTime: exchange.startedDateTime ?? new Date().toISOString(),
    time: exchange.time ?? 0,
    request: {
      method: request.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(request.body !== undefined ? { postData: { mimeType: requestType, text: request.body } } : {}),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
    },
    response: {
      status: response.status,
      statusText: STATUS_TEXT[response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response.headers),
      content: {
        size: Buffer.byteLength(response.body),
        mimeType: response.headers['content-type'] ?? '',
        text: response.body,
      },
      redirectURL: response.headers.location ?? '',
      headersSize: -1,
      bodySize: Buffer.byteLength(response.body),
    },
    cache: {},
    timings: { send: 0, wait: exchange.time ?? 0, receive: 0 },
    ...(cut ? { comment: `response body cut at ${MAX_RECORDED_BODY} bytes` } : {}),
    ...(exchange.flow !== undefined ? { _flow: exchange.flow } : {}),
    ...(exchange.step !== undefined ? { _step: exchange.step } : {}),
  }
}

/** A HAR document of entries (already masked). */
export function toHar(entries: HarEntry[], meta: RecordingMeta, comment?: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'request-sandbox', version: '0.1.0' },
      ...(comment ? { comment } : {}),
      entries,
      _requestSandbox: meta,
    },
  }
}

/** A recording refused as not HAR, naming what is wrong. */
export class HarError extends Error {}

const record = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

function headerMap(list: unknown, where: string): Record<string, string> {
  if (list === undefined) return {}
  if (!Array.isArray(list)) throw new HarError(`${where}: headers is not a list`)
  const out: Record<string, string> = {}
  for (const h of list) {
    if (!record(h) || typeof h.name !== 'string' || typeof h.value !== 'string')
      throw new HarError(`${where}: a header is not {name, value}`)
    out[h.name.toLowerCase()] = h.value
  }
  return out
}

/** Reads a HAR document (from a verify run, the proxy, or a browser's devtools): its exchanges and its meta. */
export function readHar(text: string): { meta?: RecordingMeta; exchanges: RecordedExchange[] } {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (error) {
    throw new HarError(`not JSON: ${(error as Error).message}`)
  }
  if (!record(doc) || !record(doc.log) || !Array.isArray(doc.log.entries))
    throw new HarError('not a HAR document: no log.entries')
  if (doc.log.entries.length > MAX_RECORDED_ENTRIES)
    throw new HarError(`more than ${MAX_RECORDED_ENTRIES} entries`)
  const exchanges = doc.log.entries.map((entry: unknown, i: number): RecordedExchange => {
    const where = `log.entries[${i}]`
    if (!record(entry) || !record(entry.request) || !record(entry.response))
      throw new HarError(`${where}: no request or response`)
    const { request, response } = entry
    if (typeof request.method !== 'string' || typeof request.url !== 'string' || !URL.canParse(request.url))
      throw new HarError(`${where}.request: no method or absolute url`)
    if (typeof response.status !== 'number') throw new HarError(`${where}.response: no status`)
    const url = new URL(request.url)
    const postData = record(request.postData) ? request.postData.text : undefined
    const content = record(response.content) ? response.content : {}
    let body = typeof content.text === 'string' ? content.text : ''
    if (content.encoding === 'base64') body = Buffer.from(body, 'base64').toString('utf8')
    return {
      request: {
        method: request.method.toUpperCase(),
        url: url.pathname + url.search,
        headers: headerMap(request.headers, `${where}.request`),
        ...(typeof postData === 'string' ? { body: postData } : {}),
      },
      response: { status: response.status, headers: headerMap(response.headers, `${where}.response`), body },
      ...(typeof entry._flow === 'string' ? { flow: entry._flow } : {}),
      ...(typeof entry._step === 'string' ? { step: entry._step } : {}),
      ...(Array.isArray(entry._unspecified)
        ? { unspecified: entry._unspecified.filter((p): p is string => typeof p === 'string') }
        : {}),
    }
  })
  const meta = record(doc.log._requestSandbox)
    ? (doc.log._requestSandbox as unknown as RecordingMeta)
    : undefined
  return { ...(meta ? { meta } : {}), exchanges }
}
