// Whether to trace, from the standard OpenTelemetry variables: on when an OTLP endpoint is set
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER names `console`;
// off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Reading them loads nothing.

/**
 * The OTLP protocols the exporters speak (OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL; the specification's default first).
 * Not grpc: its exporter needs @grpc/grpc-js, whose protobufjs runs an install script (docs/telemetry.md).
 */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number]

export interface TelemetryConfig {
  /** where spans go: OTLP (over `protocol`; the exporter reads the endpoint, headers and timeout variables itself) and/or the console */
  exporters: ('otlp' | 'console')[]
  protocol: OtlpProtocol
  /** OTEL_SERVICE_NAME, else `request-sandbox` */
  serviceName: string
}

/** The configuration the variables ask for, or null when tracing is off; throws naming a variable it cannot use. */
export function telemetryConfig(env: Record<string, string | undefined>): TelemetryConfig | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
  if (named.includes('none')) return null
  for (const name of named)
    if (name !== 'otlp' && name !== 'console')
      throw new Error(`OTEL_TRACES_EXPORTER=${name} is not supported: otlp, console or none`)
  const exporters = (named.length ? named : endpoint ? ['otlp'] : []) as TelemetryConfig['exporters']
  if (exporters.length === 0 || (exporters.includes('otlp') && !endpoint && !exporters.includes('console')))
    return null
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    'http/protobuf'
  ).trim()
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol))
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: ${OTLP_PROTOCOLS.join(' or ')}${protocol === 'grpc' ? " (a collector's OTLP/HTTP port, 4318, takes http/protobuf)" : ''}`,
    )
  return {
    exporters: [...new Set(exporters)],
    protocol: protocol as OtlpProtocol,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'request-sandbox',
  }
}
