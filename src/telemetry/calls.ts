// Each API call as a span: named by its method and route pattern (`POST /v2/request`), a child of the caller's
// `traceparent` when it sends one, active while the call runs (what the call does in the sandbox's code nests under
// it). Its path is the route's pattern with a secret-named parameter left as `{token}` (a path no route names: every
// segment but words masked), and no query: a span never carries a link's, session's or page's token. What the answer
// names starts or joins a flow (flows.ts): a request's id (in the path or a created request's answer) and a
// transaction's hash sent through /rpc.
import {
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api'
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import { maskedPath, tracedPath } from '../contract/trace-redaction.ts'
import type { Flows } from './flows.ts'
import type { RouteOf } from './types.ts'

type Dispatch = (request: NeutralRequest) => Promise<NeutralResponse>

const headerGetter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()],
}

const SENDS = new Set(['eth_sendTransaction', 'eth_sendRawTransaction'])
const TX_HASH = /^0x[0-9a-fA-F]{64}$/

/** `dispatch` with a span around each call. */
export function traceCalls(dispatch: Dispatch, tracer: Tracer, flows: Flows, routeOf: RouteOf): Dispatch {
  return (request) => {
    const method = request.method.toUpperCase()
    const route = routeOf(method, request.path)
    const parent = request.headers.traceparent
      ? propagation.extract(ROOT_CONTEXT, request.headers, headerGetter)
      : ROOT_CONTEXT
    const started = Date.now()
    return tracer.startActiveSpan(
      `${method} ${route?.pattern ?? 'unmatched'}`,
      {
        kind: SpanKind.SERVER,
        startTime: started,
        attributes: {
          'http.request.method': method,
          'url.path': route ? tracedPath(route.pattern, route.params) : maskedPath(request.path),
          ...(route ? { 'http.route': route.pattern } : {}),
        },
      },
      parent,
      async (span) => {
        try {
          const response = await dispatch(request)
          span.setAttribute('http.response.status_code', response.status)
          if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
          if (response.status < 400) noteFlows(flows, span, started, request, response, route?.params)
          return response
        } catch (error) {
          span.recordException(error as Error)
          span.setStatus({ code: SpanStatusCode.ERROR })
          throw error
        } finally {
          span.end()
        }
      },
    )
  }
}

/** The request ids and transaction hashes this call names, noted as flows of its span. */
function noteFlows(
  flows: Flows,
  span: Span,
  started: number,
  request: NeutralRequest,
  response: NeutralResponse,
  params: Record<string, string> | undefined,
): void {
  const self = span.spanContext()
  const requestId = params?.requestId ?? params?.id
  if (requestId) {
    span.setAttribute('sandbox.request.id', requestId)
    flows.note(requestId, self, started)
  }
  const body = response.body as { requestId?: unknown } | null
  if (!requestId && body && typeof body === 'object' && typeof body.requestId === 'string') {
    span.setAttribute('sandbox.request.id', body.requestId)
    flows.note(body.requestId, self, started)
  }
  if (request.path === '/rpc' && request.rawBody?.includes('eth_send'))
    noteSends(flows, self, started, request, response)
}

/** Transactions sent through /rpc: each hash answered to an eth_send* call starts a flow of this call. */
function noteSends(
  flows: Flows,
  self: ReturnType<Span['spanContext']>,
  started: number,
  request: NeutralRequest,
  response: NeutralResponse,
): void {
  try {
    const calls = [JSON.parse(request.rawBody ?? 'null')].flat() as { id?: unknown; method?: unknown }[]
    const answers = [parsed(response)].flat() as {
      id?: unknown
      result?: unknown
    }[]
    for (const call of calls) {
      if (!call || !SENDS.has(String(call.method))) continue
      const answer = answers.find((a) => a && a.id === call.id)
      if (typeof answer?.result === 'string' && TX_HASH.test(answer.result))
        flows.note(answer.result.toLowerCase(), self, started)
    }
  } catch {
    // a body that is not JSON-RPC sent nothing
  }
}

/** The answer's JSON, whichever form the body has. */
function parsed(response: NeutralResponse): unknown {
  if (response.text !== undefined) return JSON.parse(response.text)
  const { body } = response
  if (typeof body === 'string') return JSON.parse(body)
  if (body instanceof Uint8Array) return JSON.parse(Buffer.from(body).toString('utf8'))
  return body
}
