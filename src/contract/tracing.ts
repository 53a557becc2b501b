// The tracing port: how the sandbox's work after a call (a payment detected, its transaction) joins the trace of
// the call that started its flow. Implemented over OpenTelemetry by src/telemetry/ when OTEL_EXPORTER_OTLP_ENDPOINT
// is set; without it the services hold `undefined` and nothing is traced.

/** Attribute values a span carries. */
export type TraceAttributes = Record<string, string | number | boolean>

export interface FlowTracing {
  /**
   * Runs `fn` in a span that belongs to the flow `key` names (a request's id): a child of the call that started the
   * flow (so one trace holds them), linked to the later calls that named it and to the calls that sent the
   * transactions `linkKeys` name. Without a known flow, a child of the active span. Ends when `fn` settles.
   */
  inFlow<T>(
    key: string,
    name: string,
    attributes: TraceAttributes,
    fn: () => Promise<T>,
    linkKeys?: readonly string[],
  ): Promise<T>
  /**
   * Records a transaction of the flow `key` as a finished span: from when a call sent `hash` through /rpc (or now)
   * to now, a child of the flow's first call, linked to the call that sent it.
   */
  transaction(key: string, hash: string, attributes: TraceAttributes): void
}
