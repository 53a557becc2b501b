// Spans go to a collector the operator reads: no span carries a secret of a path or URL. A call to a secure payment
// link's token (a route's parameter), an onboarding page's `?token=`, a session token's path, a path no route names
// and a webhook receiver's URL with a key in its query and a token in its path: the spans name the
// route's pattern (`{token}`), and no token, key or password appears in any span's name or attributes.
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { startTelemetry, type Telemetry } from '../../src/telemetry/index.ts'
import { freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { dispatchAs } from '../support/dispatch.ts'
import { waitFor } from '../support/wait.ts'

const exporter = new InMemorySpanExporter()
let telemetry: Telemetry
let sandbox: Sandbox

beforeAll(async () => {
  telemetry = (await startTelemetry({}, { exporter }))!
  sandbox = await createSandbox({ chain: false, telemetry, log: () => {} })
})
afterAll(async () => {
  await sandbox?.close()
  await telemetry?.shutdown()
})

const call = dispatchAs(() => sandbox)

/** Every string a span says: its name, status, attributes, its events' and links' attributes. */
function said(span: ReadableSpan): string {
  return JSON.stringify([
    span.name,
    span.status.message,
    span.attributes,
    span.events.map((e) => [e.name, e.attributes]),
    span.links.map((l) => l.attributes),
  ])
}

it('names the route pattern and never a token or key in a span', async () => {
  const apiKey = newApiKey()
  const link = await call('POST', '/v2/secure-payments', apiKey, {
    requests: [
      { payee: freshAddress(), amount: '3', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' },
    ],
  })
  expect(link.status).toBe(201)
  const token = link.body.token as string
  expect(token.length).toBeGreaterThan(8)
  expect((await call('GET', `/v2/secure-payments/${token}`, apiKey)).status).toBe(200)
  await call('GET', `/__sandbox/secure-payments/${token}`, null)
  // a path no route names, with the token in it
  expect((await call('GET', `/v2/secure-payments/${token}/no-such-thing`, apiKey)).status).toBe(404)
  const session = await call('POST', '/__sandbox/sessions', apiKey, {})
  expect(session.status).toBeLessThan(300)
  const sessionToken = (session.body.token ?? session.body.accessToken) as string
  expect(typeof sessionToken).toBe('string')
  await call('DELETE', `/__sandbox/sessions/${sessionToken}`, apiKey)
  const onboarding = 'onboardingsecret0123456789'
  await call('GET', '/__sandbox/orchestrator-onboarding', null, undefined, { token: onboarding })

  const receiverSecrets = ['T0SLACKPATHSECRET99', 'querysecret42']
  const hook = await call('POST', '/v2/webhook', apiKey, {
    url: 'http://127.0.0.1:9/services/T0SLACKPATHSECRET99?api_key=querysecret42&mode=test',
  })
  expect(hook.status).toBe(201)
  expect((await call('POST', '/v2/webhook/test', apiKey, { eventType: 'payment.confirmed' })).status).toBe(
    201,
  )
  await waitFor(() => exporter.getFinishedSpans().some((s) => s.name === 'webhook.delivery') || undefined, {
    timeoutMs: 10_000,
    what: 'a delivery attempt',
  })
  await telemetry.flush()
  const spans = exporter.getFinishedSpans()

  const linkCall = spans.find((s) => s.name === 'GET /v2/secure-payments/:token')!
  expect(linkCall, 'the link call is a span named by its pattern').toBeDefined()
  expect(linkCall.attributes['url.path']).toBe('/v2/secure-payments/{token}')
  expect(linkCall.attributes['http.route']).toBe('/v2/secure-payments/:token')
  const delivery = spans.find((s) => s.name === 'webhook.delivery')!
  expect(delivery.attributes['url.full']).toBe(
    'http://127.0.0.1:9/services/{masked}?api_key=REDACTED&mode=REDACTED',
  )
  for (const span of spans) {
    const text = said(span)
    for (const secret of [token, sessionToken, onboarding, apiKey, ...receiverSecrets])
      expect(text, `${span.name} names a secret`).not.toContain(secret)
  }
})
