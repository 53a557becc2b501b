// A Target over HTTP: a base URL (the real service, or a sandbox started in-process or elsewhere) called with fetch.
import type { Exchange, Target } from './types.ts'

/** The largest answer body verify reads from a target (a larger one is cut, and the comparison says so). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024

/** The body's text up to `max` bytes: the rest is not read (the connection is cancelled), so no answer fills memory. */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value.subarray(0, max - size))
    size += Math.min(value.byteLength, max - size)
    if (size >= max) {
      await reader.cancel()
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Calls `base` + the request's path; a network failure throws an error naming the URL. */
export function httpTarget(base: string, options: { timeoutMs?: number } = {}): Target {
  const root = base.replace(/\/+$/, '')
  return async (request: Exchange['request']) => {
    const url = root + request.url
    let response: Response
    try {
      response = await fetch(url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      })
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
      throw new Error(`${request.method} ${url} could not be sent: ${cause}`)
    }
    const body = await readCapped(response, MAX_BODY_BYTES)
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value
    })
    return { status: response.status, headers, body }
  }
}

/**
 * At most `perSecond` calls a second through `target` (the real service's documented default limit is 5 a second
 * per client: verify stays under it).
 */
export function paced(target: Target, perSecond: number): Target {
  const gap = 1000 / perSecond
  // each call starts at least `gap` after the previous one actually started: a timer that fires late pushes the
  // next start back instead of letting two calls through together. The start is taken as the target is called
  // (the next turn's wait runs after it), on the monotonic clock: Date.now() counts whole milliseconds, so a gap
  // measured with it could be up to 1 ms short
  let last = Number.NEGATIVE_INFINITY
  let turns: Promise<void> = Promise.resolve()
  return (request) => {
    const turn = turns.then(async () => {
      for (let wait = last + gap - performance.now(); wait > 0; wait = last + gap - performance.now())
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)))
    })
    turns = turn
    return turn.then(() => {
      last = performance.now()
      return target(request)
    })
  }
}
