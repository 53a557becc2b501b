/** One call and its answer, as verify sends it and as a recording (HAR) keeps it. Header names are lower case. */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string }
  response: { status: number; headers: Record<string, string>; body: string }
}

/** Something verify can call: a live base URL over fetch, a sandbox in-process, or a recording. */
export type Target = (request: Exchange['request']) => Promise<Exchange['response']>
