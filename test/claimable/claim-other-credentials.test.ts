// A claimed key's other credentials end with it: a session token it made (Authorization: Bearer, POST
// /__sandbox/sessions) and its client IDs (x-client-id, public) name its tenant without its x-api-key. Once the key
// expired, a call carrying one is refused (401 naming the expiry) and brings back none of its deleted state.
import { afterAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

const DAY = 86_400_000
let clock = Date.parse('2026-12-06T12:00:00Z')
let server: RunningServer | undefined
afterAll(async () => {
  await server?.close()
})

const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the test reads it
  return { status: response.status, body: (await response.json().catch(() => null)) as any }
}

it("refuses an expired key's session tokens and client IDs, and keeps its state deleted", async () => {
  server = await startServer({
    port: 0,
    chain: false,
    apiKeys: ['sk_operator'],
    claimable: { now: () => clock },
  })
  const key = (await call('POST', '/__sandbox/sandboxes', {})).body.key as string
  const session = await call('POST', '/__sandbox/sessions', { 'x-api-key': key }, {})
  expect(session.status).toBe(201)
  const bearer = { authorization: `Bearer ${session.body.token}` }
  const clientId = await call('POST', '/v2/client-ids', bearer, {
    label: 'app',
    allowedDomains: ['https://a.example'],
  })
  expect(clientId.status).toBe(201)
  expect((await call('GET', '/v2/client-ids', bearer)).status).toBe(200)

  clock += 8 * DAY
  expect((await call('GET', '/v2/client-ids', { 'x-api-key': key })).status).toBe(401)
  const bySession = await call('GET', '/v2/client-ids', bearer)
  expect(bySession.status).toBe(401)
  expect(bySession.body.message).toMatch(/expired/)
  const made = await call('POST', '/v2/client-ids', bearer, {
    label: 'again',
    allowedDomains: ['https://a.example'],
  })
  expect(made.status).toBe(401)
  // its client ID was deleted with its state: the Auth API's webhook routes, which take it alone, refuse it
  expect((await call('GET', '/v1/webhook', { 'x-client-id': clientId.body.clientId })).status).toBe(401)
})
