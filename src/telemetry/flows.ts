// Flows: which call started the work a key names (a request's id, a transaction's hash), so that what happens later
// outside any call (the payment detected, its webhook deliveries) joins that call's trace. At most MAX_FLOWS keys,
// the oldest forgotten first; a flow keeps at most MAX_LINKS later calls.
import {
  context,
  type Link,
  ROOT_CONTEXT,
  type SpanContext,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import type { FlowTracing, TraceAttributes } from '../contract/tracing.ts'

export const MAX_FLOWS = 10_000
export const MAX_LINKS = 8

interface Flow {
  origin: SpanContext
  /** when the call that started it began (ms since the epoch) */
  at: number
  links: SpanContext[]
}

export class Flows implements FlowTracing {
  readonly #flows = new Map<string, Flow>()
  readonly #tracer: Tracer

  constructor(tracer: Tracer) {
    this.#tracer = tracer
  }

  /** Notes that the call `span` names `key`: the first call starts the flow, later ones are linked to its spans. */
  note(key: string, span: SpanContext, at = Date.now()): void {
    const flow = this.#flows.get(key)
    if (flow) {
      if (flow.links.length < MAX_LINKS && flow.origin.spanId !== span.spanId) flow.links.push(span)
      return
    }
    if (this.#flows.size >= MAX_FLOWS) this.#flows.delete(this.#flows.keys().next().value as string)
    this.#flows.set(key, { origin: span, at, links: [] })
  }

  /** The flow `key` names, if it is still known. */
  get(key: string): Readonly<Flow> | undefined {
    return this.#flows.get(key)
  }

  get size(): number {
    return this.#flows.size
  }

  inFlow<T>(
    key: string,
    name: string,
    attributes: TraceAttributes,
    fn: () => Promise<T>,
    linkKeys: readonly string[] = [],
  ): Promise<T> {
    const flow = this.#flows.get(key)
    const parent = flow ? trace.setSpanContext(ROOT_CONTEXT, flow.origin) : context.active()
    const links: Link[] = (flow?.links ?? []).map((c) => ({ context: c }))
    for (const k of linkKeys) {
      const sent = this.#flows.get(k)
      if (sent) links.push({ context: sent.origin, attributes: { 'sandbox.link': k } })
    }
    return this.#tracer.startActiveSpan(name, { attributes, links }, parent, async (span) => {
      try {
        return await fn()
      } catch (error) {
        span.recordException(error as Error)
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message })
        throw error
      } finally {
        span.end()
      }
    })
  }

  transaction(key: string, hash: string, attributes: TraceAttributes): void {
    const flow = this.#flows.get(key)
    const sent = this.#flows.get(hash)
    const parent = flow ? trace.setSpanContext(ROOT_CONTEXT, flow.origin) : context.active()
    const span = this.#tracer.startSpan(
      'chain.transaction',
      {
        startTime: sent?.at ?? Date.now(),
        attributes: { 'sandbox.tx.hash': hash, ...attributes },
        links: sent ? [{ context: sent.origin, attributes: { 'sandbox.link': 'sent the transaction' } }] : [],
      },
      parent,
    )
    span.end()
  }
}
