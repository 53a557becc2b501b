// OpenTelemetry traces (on with OTEL_EXPORTER_OTLP_ENDPOINT; docs/telemetry.md): the door. Importing it loads no
// OpenTelemetry package; `startTelemetry` loads the SDK only when the variables turn tracing on.
export { startTelemetry } from './start.ts'
export type { Telemetry } from './types.ts'
