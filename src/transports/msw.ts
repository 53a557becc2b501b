import { HttpResponse, http, passthrough, type RequestHandler } from 'msw'
import type { DispatchTarget, NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import { serializeResponse } from './neutral-response.ts'

/** Options of createHandlers. */
export interface CreateHandlersOptions {
  /** where the app under test sends its API calls; may carry a path prefix (default https://api.request.network) */
  baseUrl?: string
}

async function toNeutral(request: Request, prefix: string): Promise<NeutralRequest> {
  const url = new URL(request.url)
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams) if (!Object.hasOwn(query, key)) query[key] = value
  const headers: Record<string, string> = {}
  request.headers.forEach((value, key) => {
    headers[key.toLowerCase()] = value
  })
  // fetch hides Host: give the core the address the app used, as an HTTP request would carry it (links)
  headers.host ??= url.host
  headers['x-forwarded-proto'] ??= url.protocol.replace(/:$/, '')
  if (prefix) headers['x-forwarded-prefix'] ??= prefix
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname
  return { method: request.method, path, query, headers, rawBody: text === '' ? undefined : text }
}

/** A never-ending response (server-sent events) as a Fetch body stream; cancelling it stops the source. */
function streamed(response: NeutralResponse): HttpResponse<BodyInit> {
  const source = response.stream!
  const encoder = new TextEncoder()
  let stop: (() => void) | undefined
  let open = true
  const finish = () => {
    if (!open) return
    open = false
    stop?.()
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stop = source.open(
        (chunk) => {
          if (open) controller.enqueue(encoder.encode(chunk))
        },
        // the sandbox ends it (its key expired): the body ends, the source stops
        () => {
          if (open) controller.close()
          finish()
        },
      )
      // ended while it opened
      if (!open) stop()
    },
    cancel: finish,
  })
  const headers = new Headers(response.headers)
  headers.set('content-type', response.contentType ?? 'text/event-stream; charset=utf-8')
  return new HttpResponse(body, { status: response.status, headers })
}

/**
 * MSW request handlers that answer every call under `baseUrl` from the sandbox (the same route table the
 * server serves). The sandbox's own chain traffic is passed through, so `onUnhandledRequest: 'error'` is safe.
 */
export function createHandlers(
  sandbox: DispatchTarget,
  options: CreateHandlersOptions = {},
): RequestHandler[] {
  const base = new URL(options.baseUrl ?? 'https://api.request.network')
  const prefix = base.pathname.replace(/\/+$/, '')
  const origin = base.origin
  const handlers: RequestHandler[] = [
    http.all(`${origin}${prefix}/*`, async ({ request }) => {
      const response = await sandbox.dispatch(await toNeutral(request, prefix))
      if (response.stream) return streamed(response)
      const { text, contentType } = serializeResponse(response)
      const headers = new Headers(response.headers)
      if (contentType) headers.set('content-type', contentType)
      return new HttpResponse(text, { status: response.status, headers })
    }),
  ]
  if (sandbox.chain) handlers.unshift(http.post(sandbox.chain.rpcUrl, () => passthrough()))
  return handlers
}
