// OpenTelemetry traces (on with OTEL_EXPORTER_OTLP_ENDPOINT; docs/telemetry.md): the door. Importing it loads no
// OpenTelemetry package; `startTelemetry` loads the SDK only when the variables turn tracing on.
export { OTLP_PROTOCOLS, type TelemetryConfig, telemetryConfig } from './config.ts'
export { startTelemetry } from './start.ts'
export type { RouteOf, Telemetry, TelemetryHooks } from './types.ts'
