/**
 * One call and its answer, as verify sends it and as a recording (HAR) keeps it. `request.url` is the path and query
 * relative to the target's base URL (`/v2/request?x=1`); header names are lower case.
 */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string }
  response: { status: number; headers: Record<string, string>; body: string }
}

/** Something verify can call: a live base URL over fetch, a sandbox in-process, or a recording. */
export type Target = (request: Exchange['request']) => Promise<Exchange['response']>
