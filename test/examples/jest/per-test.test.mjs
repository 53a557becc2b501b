// A sandbox per test under jest (ESM): createTestSandbox in beforeEach, the same key in both tests, nothing shared.
// Run by test/examples/jest.test.ts as `jest` in a child process; it imports the compiled package like an app.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from '@jest/globals'
import { setupServer } from 'msw/node'
import { createTestSandbox } from 'request-sandbox/msw'

const api = 'https://api.request.network'
const headers = { 'x-api-key': 'rn_test_my_app', 'content-type': 'application/json' }
const server = setupServer()
let rn
let created
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(async () => {
  rn = await createTestSandbox({ baseUrl: api }) // milliseconds after the worker's first
  server.resetHandlers(...rn.handlers)
}, 60_000)
afterEach(() => rn.close())
afterAll(() => server.close())

it('creates a request', async () => {
  const response = await fetch(`${api}/v2/request`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    }),
  })
  expect(response.status).toBe(201)
  created = (await response.json()).requestId
})

it('starts from nothing with the same key', async () => {
  const response = await fetch(`${api}/v2/request/${created}`, { headers })
  expect(response.status).toBe(404)
})
