// Each delivery attempt as an OpenTelemetry span (a no-op until the SDK registers, docs/telemetry.md): every attempt
// of a delivery, retries included, is a child of the span that was active when its first attempt started (the
// payment's detection, or the call that triggered the event). The receiver's URL is named without its secrets.
import { type Context, context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { tracedUrl } from '../contract/trace-redaction.ts'
import type { DeliveryRecord } from './format.ts'

export class DeliverySpans {
  /** the span each delivery's attempts nest under */
  readonly #parents = new WeakMap<DeliveryRecord, Context>()

  /** Runs one attempt of `record` inside its span, and names its outcome on the span. */
  attempt(record: DeliveryRecord, retryCount: number, run: () => Promise<void>): Promise<void> {
    let parent = this.#parents.get(record)
    if (!parent) {
      parent = context.active()
      this.#parents.set(record, parent)
    }
    const attributes = {
      'sandbox.webhook.event': record.event,
      'sandbox.webhook.delivery_id': record.id,
      'sandbox.webhook.retry_count': retryCount,
      // the receiver's URL without its secrets (a key in its query, a token in its path)
      'url.full': tracedUrl(record.url),
    }
    return trace
      .getTracer('request-sandbox')
      .startActiveSpan('webhook.delivery', { kind: SpanKind.CLIENT, attributes }, parent, async (span) => {
        try {
          await run()
          const last = record.attempts.at(-1)
          if (last?.status != null) span.setAttribute('http.response.status_code', last.status)
          if (last?.error) span.setStatus({ code: SpanStatusCode.ERROR, message: last.error })
          span.setAttribute('sandbox.webhook.state', record.state)
        } finally {
          span.end()
        }
      })
  }
}
