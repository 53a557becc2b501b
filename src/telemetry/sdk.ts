// The OpenTelemetry SDK, loaded only when tracing is on (start.ts imports this file dynamically, and this file its
// packages): a tracer provider registered as the global one, AsyncLocalStorage as the context manager (a span is
// active across the awaits of its call), W3C trace context, and the exporters the configuration names.
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import type { TelemetryConfig } from './config.ts'
import type { Telemetry, TelemetryHooks } from './types.ts'

export const TRACER_NAME = 'request-sandbox'

export async function loadTelemetry(config: TelemetryConfig, hooks: TelemetryHooks): Promise<Telemetry> {
  const [api, sdk, resources, asyncHooks, core] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ])
  const { Flows } = await import('./flows.ts')
  const { traceCalls } = await import('./calls.ts')
  const processors = []
  if (hooks.exporter) processors.push(new sdk.SimpleSpanProcessor({ exporter: hooks.exporter as never }))
  else {
    if (config.exporters.includes('otlp'))
      processors.push(new sdk.BatchSpanProcessor({ exporter: await otlpExporter(config.protocol) }))
    if (config.exporters.includes('console'))
      processors.push(new sdk.SimpleSpanProcessor({ exporter: new sdk.ConsoleSpanExporter() }))
  }
  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(resources.resourceFromAttributes({ 'service.name': config.serviceName }))
  const provider = new sdk.TracerProvider({ resource, spanProcessors: processors })
  const contextManager = new asyncHooks.AsyncLocalStorageContextManager().enable()
  api.context.setGlobalContextManager(contextManager)
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator())
  api.trace.setGlobalTracerProvider(provider)
  const tracer = provider.getTracer(TRACER_NAME)
  const flows = new Flows(tracer)
  return {
    config,
    tracing: flows,
    traceCalls: (dispatch: (request: NeutralRequest) => Promise<NeutralResponse>, routeOf) =>
      traceCalls(dispatch, tracer, flows, routeOf),
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown()
      api.trace.disable()
      api.context.disable()
      api.propagation.disable()
    },
  }
}

async function otlpExporter(protocol: TelemetryConfig['protocol']) {
  // each exporter reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION itself
  if (protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter()
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter()
}
