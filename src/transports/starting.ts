import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { reasonPhrase } from '../contract/sandbox-error.ts'

/** Seconds a caller is told to wait (Retry-After) before it calls a sandbox that is still starting again. */
const RETRY_AFTER_S = 5

/** Options of startingGate. */
export interface StartingGateOptions {
  /** how long a call waits for the start before it answers 503 "still starting" (ms) */
  waitMs: number
  /** a shared host: a failed start's cause stays in the operator's terminal, not in the answer */
  exposed: boolean
}

/**
 * The request listener of a server that listens before its sandbox is ready: a call that arrives during the start
 * waits for it (up to `waitMs`), then is served by the listener `ready` resolves to. A start still running past
 * `waitMs`, or one that failed, answers 503 in the service's error shape (`{statusCode, message, error}`), the
 * message saying which and what to do (a failed start's cause too, unless the host is shared).
 */
export function startingGate(ready: Promise<RequestListener>, options: StartingGateOptions): RequestListener {
  let listener: RequestListener | undefined
  let failure: unknown
  let failed = false
  ready.then(
    (value) => {
      listener = value
    },
    (error: unknown) => {
      failed = true
      failure = error
    },
  )
  const refuse = (response: ServerResponse) =>
    unavailable(
      response,
      `The sandbox could not start${options.exposed ? '' : `: ${causeOf(failure)}`}; its operator must restart it (the cause is in its terminal)`,
    )
  return (request: IncomingMessage, response: ServerResponse) => {
    if (listener) return listener(request, response)
    if (failed) return refuse(response)
    const timer = setTimeout(
      () =>
        unavailable(response, 'The sandbox is still starting: call again in a few seconds', {
          'retry-after': String(RETRY_AFTER_S),
        }),
      options.waitMs,
    )
    ready.then(
      (serve) => {
        clearTimeout(timer)
        if (!response.headersSent && !response.destroyed) serve(request, response)
      },
      () => {
        clearTimeout(timer)
        refuse(response)
      },
    )
  }
}

/** The first line of a start failure's message. */
function causeOf(error: unknown): string {
  return ((error as Error | undefined)?.message ?? String(error)).split('\n')[0]!
}

/** 503 in the service's error shape, closing the connection (the server may be about to stop). */
function unavailable(response: ServerResponse, message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return
  const body = JSON.stringify({ statusCode: 503, message, error: reasonPhrase(503) })
  response.writeHead(503, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  })
  response.end(body)
}
