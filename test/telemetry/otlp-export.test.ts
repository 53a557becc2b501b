// The OTLP exporter the variables choose sends the spans to a collector: here a local HTTP receiver standing in for
// the OpenTelemetry Collector's OTLP/HTTP port, with OTEL_EXPORTER_OTLP_PROTOCOL=http/json.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { startTelemetry } from '../../src/telemetry/index.ts'

const received: { path: string; body: string }[] = []
let collector: Server
let server: RunningServer | undefined
const saved = { ...process.env }

afterAll(async () => {
  await server?.close()
  await new Promise((resolve) => collector?.close(resolve))
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name]
  Object.assign(process.env, saved)
})

describe('OTLP export', () => {
  it('sends each call as a span to OTEL_EXPORTER_OTLP_ENDPOINT over http/json, with OTEL_SERVICE_NAME', async () => {
    collector = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => {
        body += chunk
      })
      request.on('end', () => {
        received.push({ path: request.url ?? '', body })
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'sandbox-under-test',
    }
    // the exporter reads the endpoint from the process's environment, as it does under the command
    Object.assign(process.env, env)
    const telemetry = (await startTelemetry(env))!
    expect(telemetry.config).toEqual({
      exporters: ['otlp'],
      protocol: 'http/json',
      serviceName: 'sandbox-under-test',
    })
    server = await startServer({ chain: false, telemetry })
    const res = await fetch(`${server.url}/v2/currencies`, { headers: { 'x-api-key': 'otlp-export' } })
    expect(res.status).toBeLessThan(500)
    await telemetry.shutdown()
    expect(received.map((r) => r.path)).toContain('/v1/traces')
    const exported = received.map((r) => r.body).join('\n')
    expect(exported).toContain('"sandbox-under-test"')
    expect(exported).toContain('"GET /v2/currencies"')
  })
})
