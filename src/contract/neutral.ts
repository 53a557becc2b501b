import type { MaybePromise } from './maybe-promise.ts'

/** A request as both transports hand it to the core: no Express, no Fetch. */
export interface NeutralRequest {
  method: string
  /** path without query string, not decoded */
  path: string
  query: Record<string, string>
  /** lower-cased header names */
  headers: Record<string, string>
  /** raw body bytes as text, or undefined when there is none */
  rawBody: string | undefined
  /** the peer's address (the Node transport; absent in MSW) */
  remoteAddress?: string
}

/** Whether a record (a request's query, a parsed one) has any own key: no array of its keys made to ask. */
export function hasKeys(record: Readonly<Record<string, unknown>>): boolean {
  for (const _ in record) return true
  return false
}

/** A response as the core returns it; `body` is JSON unless `contentType` says otherwise (then a string, or bytes). */
export interface NeutralResponse {
  status: number
  headers: Record<string, string>
  body: unknown
  contentType?: string
  /** `body` already serialised as JSON (the dispatcher does it once; transports and the journal reuse it) */
  text?: string
  /**
   * `text`'s UTF-8 bytes when the answer was kept whole with them (a memoised list): the Node transport sends them
   * as they are. Whatever sets another `text` leaves this out.
   */
  utf8?: Uint8Array
  /** a response that keeps sending (server-sent events); `body` is then unused by the Node transport */
  stream?: ResponseStream
}

/**
 * A response with every field present, in one order: the answers of the handle stage (every route's) and of
 * `renderError` share one hidden class in V8, so the stages and transports that read them stay monomorphic.
 * Answers built field by field (`{ status, headers, body }`, then `text` added) took several, and a process serving
 * both reads and creates read them through polymorphic sites: docs/decisions/2026-12-06-one-response-shape.md.
 */
export function neutralResponse(
  status: number,
  headers: Record<string, string>,
  body: unknown,
  more?: Pick<NeutralResponse, 'contentType' | 'text' | 'utf8' | 'stream'>,
): NeutralResponse {
  return {
    status,
    headers,
    body,
    // an empty content type is none, as the handle stage always read it
    contentType: more?.contentType || undefined,
    text: more?.text,
    utf8: more?.text === undefined ? undefined : more.utf8,
    stream: more?.stream,
  }
}

/**
 * A never-ending body: `open` starts sending chunks through `write` and returns the function that stops it (called
 * when the client goes away). `end` ends the response from the sandbox's side (its key expired): the transport ends
 * the body, then calls the stop function as when the client goes away; nothing written after it is sent.
 */
export interface ResponseStream {
  open(write: (chunk: string) => void, end: () => void): () => void
}

/** Largest accepted request body, as the service's body parser (1 MB). */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * Handles one neutral request. The sandbox's own carries `now`: the same call, answered at once when nothing in it
 * waited (a promise otherwise), which the Node listener prefers. A wrapper (claimable sandboxes' door) is a new
 * function without `now`, so no transport goes around it.
 */
export interface Dispatch {
  (request: NeutralRequest): Promise<NeutralResponse>
  now?: (request: NeutralRequest) => MaybePromise<NeutralResponse>
}

/** What a transport needs of a sandbox: its dispatcher, where to report its own failures, the chain it passes through. */
export interface DispatchTarget {
  /** the answer's `headers` object is its own (never a route's constant): a transport may add to it */
  dispatch: Dispatch
  /** where unexpected transport failures are reported */
  log(message: string, error?: unknown): void
  /** the first live chain: MSW lets calls to its RPC URL through */
  chain: { rpcUrl: string } | null
}
