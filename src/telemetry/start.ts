// Starting telemetry: nothing is loaded unless the OpenTelemetry variables turn tracing on (config.ts); then the SDK
// (sdk.ts) is imported, once.
import { telemetryConfig } from './config.ts'
import type { Telemetry, TelemetryHooks } from './types.ts'

/**
 * Tracing as the environment asks (`undefined` when off: nothing loaded). With `hooks.exporter` it starts whatever
 * the environment says, spans going to that exporter.
 */
export async function startTelemetry(
  env: Record<string, string | undefined>,
  hooks: TelemetryHooks = {},
): Promise<Telemetry | undefined> {
  const config = hooks.exporter
    ? {
        exporters: [],
        protocol: 'http/protobuf' as const,
        serviceName: env.OTEL_SERVICE_NAME || 'request-sandbox',
      }
    : telemetryConfig(env)
  if (!config) return undefined
  const { loadTelemetry } = await import('./sdk.ts')
  return loadTelemetry(config, hooks)
}
