// The shapes of telemetry: what starting it answers, and how the sandbox names a call's route.
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import type { FlowTracing } from '../contract/tracing.ts'
import type { TelemetryConfig } from './config.ts'

/** A call's route pattern and path parameters, or undefined when no route matches. */
export type RouteOf = (
  method: string,
  path: string,
) => { pattern: string; params: Record<string, string> } | undefined

export type Dispatch = (request: NeutralRequest) => Promise<NeutralResponse>

/** Tracing, started: what the sandbox's assembly wires in. */
export interface Telemetry {
  config: TelemetryConfig
  /** the port the services get (`tracing`): detection and transactions join a call's trace */
  tracing: FlowTracing
  /** `dispatch` with a span around each call */
  traceCalls(dispatch: Dispatch, routeOf: RouteOf): Dispatch
  /** exports the spans ended so far */
  flush(): Promise<void>
  /** flushes, then unregisters the global tracer provider, context manager and propagator */
  shutdown(): Promise<void>
}

export interface TelemetryHooks {
  /** a SpanExporter (tests: an InMemorySpanExporter) instead of the ones the variables name, spans sent one by one */
  exporter?: unknown
}
