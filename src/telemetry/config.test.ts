import { describe, expect, it } from 'vitest'
import { telemetryConfig } from './config.ts'
import { startTelemetry } from './start.ts'

describe('telemetryConfig: the standard OpenTelemetry variables', () => {
  it('is off without an endpoint, with OTEL_SDK_DISABLED=true and with OTEL_TRACES_EXPORTER=none', async () => {
    expect(telemetryConfig({})).toBeNull()
    expect(await startTelemetry({})).toBeUndefined()
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }
    expect(telemetryConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull()
    expect(telemetryConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeNull()
    expect(telemetryConfig({ OTEL_TRACES_EXPORTER: 'otlp' })).toBeNull()
  })

  it('takes the endpoint, the protocol (http/protobuf by default) and the service name', () => {
    expect(telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toEqual({
      exporters: ['otlp'],
      protocol: 'http/protobuf',
      serviceName: 'request-sandbox',
    })
    expect(
      telemetryConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'team-sandbox',
        OTEL_TRACES_EXPORTER: 'otlp,console',
      }),
    ).toEqual({ exporters: ['otlp', 'console'], protocol: 'http/json', serviceName: 'team-sandbox' })
    expect(telemetryConfig({ OTEL_TRACES_EXPORTER: 'console' })?.exporters).toEqual(['console'])
    expect(
      telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      })?.protocol,
    ).toBe('http/json')
  })

  it('refuses a protocol or an exporter it cannot use, naming the variable', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }
    expect(() => telemetryConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL=thrift is not supported: http/protobuf or http/json',
    )
    expect(() => telemetryConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      "grpc is not supported: http/protobuf or http/json (a collector's OTLP/HTTP port, 4318, takes http/protobuf)",
    )
    expect(() => telemetryConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      'OTEL_TRACES_EXPORTER=zipkin is not supported',
    )
  })
})
