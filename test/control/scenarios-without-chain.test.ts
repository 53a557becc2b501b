// A scenario whose seed needs a chain, on a sandbox without one: the caller's choice cannot be served here, and the
// answer says so with a 4xx in the error shape (never a 500), whether the scenario is picked per key or per call.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await createSandbox({ chain: false })
})
afterAll(() => sandbox.close())

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  sandbox.dispatch({
    method,
    path,
    query: {},
    headers: { 'x-api-key': 'no-chain-key', 'content-type': 'application/json', ...headers },
    rawBody: body === undefined ? undefined : JSON.stringify(body),
  })

it('PUT /__sandbox/scenario: 400 naming the missing network, and the key stays on its scenario', async () => {
  const res = await call('PUT', '/__sandbox/scenario', {}, { scenario: 'insufficient-funds' })
  expect(res.status).toBe(400)
  const body = JSON.parse(res.text ?? JSON.stringify(res.body))
  expect(body.statusCode).toBe(400)
  expect(body.message).toMatch(
    /^Scenario insufficient-funds cannot be seeded here: .*not a live network here/,
  )
  const now = await call('GET', '/__sandbox/scenario', {})
  expect(now.status).toBe(200)
  expect(JSON.parse(now.text ?? JSON.stringify(now.body)).scenario).toBe('default')
})

it('x-sandbox-scenario on an API call: the same 400, and the next call in the default scenario works', async () => {
  const res = await call('GET', '/v2/request', { 'x-sandbox-scenario': 'insufficient-funds' })
  expect(res.status).toBe(400)
  expect(JSON.parse(res.text ?? JSON.stringify(res.body)).message).toMatch(/cannot be seeded here/)
  const after = await call('GET', '/v1/currencies', {})
  expect(after.status).toBe(200)
})
