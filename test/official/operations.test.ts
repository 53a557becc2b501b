// Every operation of both official OpenAPI documents (read from test/fixtures/official/), plus GET /v2/request
// (the production document's list), is served: each gets an answer other than a route-not-found 404. Operations
// not built yet are listed as pending with the issue that builds them, and the test fails when one of them
// starts answering, so the pending list stays exact and only shrinks.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROUTE_NOT_FOUND_HEADER } from '../../src/contract/sandbox-error.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

type Json = Record<string, unknown>
const official = new URL('../fixtures/official/', import.meta.url)
const documents: Json[] = [
  parse(readFileSync(new URL('openapi-v1-v2.yaml', official), 'utf8')),
  JSON.parse(readFileSync(new URL('openapi-v2.json', official), 'utf8')),
]
const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** Every `METHOD /path` of both documents, plus the list the production document adds. */
const operations = [
  ...new Set([
    ...documents.flatMap((doc) =>
      Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      ),
    ),
    'GET /v2/request',
  ]),
].sort()

/** Operations not served yet, each with the issue (and item) that builds it: none left (issue 15 served secure payments). */
const PENDING: Record<string, string> = {}

/** A concrete path for a documented one: placeholders for its parameters. */
function concrete(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'requestId') return `01${'0'.repeat(64)}`
    if (name === 'paymentReference') return '0x0123456789abcdef'
    if (name === 'currencyId') return 'USD'
    if (name === 'clientUserId') return 'nobody%40example.com'
    return `test-${name}`
  })
}

const t = useTransports(newApiKey, { chain: false })

describe('the official surface', () => {
  it('lists the operations of both documents (88) plus GET /v2/request, each served or pending with its issue', () => {
    expect(operations.length).toBe(89)
    expect(operations).toContain('POST /v1/pay')
    expect(operations).toContain('PATCH /v1/request/{paymentReference}/stop-recurrence')
    expect(Object.keys(PENDING).every((op) => operations.includes(op))).toBe(true)
    expect(Object.keys(PENDING)).toEqual([])
    // issue 15's twelve secure-payments operations are among the served ones now
    expect(operations.filter((op) => op.split(' ')[1]!.startsWith('/v2/secure-payments'))).toHaveLength(12)
  })
})

describeTransports(
  'every operation through %s',
  () => t,
  (client) => {
    const send = (op: string) => {
      const [method, path] = op.split(' ') as [string, string]
      return client().call(method, concrete(path), {
        apiKey: newApiKey(),
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      })
    }

    it('marks a route-not-found 404 (and only it) with its header, distinct from a resource 404', async () => {
      const missing = await client().call('GET', '/v2/nothing-here')
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({
        statusCode: 404,
        message: 'Cannot GET /v2/nothing-here',
        error: 'Not Found',
      })
      expect(missing.headers.get(ROUTE_NOT_FOUND_HEADER)).toBe('true')
      const wrongMethod = await client().call('PUT', '/v2/currencies')
      expect([wrongMethod.status, wrongMethod.headers.get(ROUTE_NOT_FOUND_HEADER)]).toEqual([404, 'true'])
      const resource = await client().call('GET', `/v2/request/01${'0'.repeat(64)}`)
      expect(resource.body).toEqual({ statusCode: 404, message: 'Request not found', error: 'Not Found' })
      expect(resource.headers.get(ROUTE_NOT_FOUND_HEADER)).toBeNull()
    })

    it.each(operations.filter((op) => !(op in PENDING)))('serves %s', async (op) => {
      const res = await send(op)
      expect(res.headers.get(ROUTE_NOT_FOUND_HEADER), `${op}: ${res.text}`).toBeNull()
      // an answer of the operation itself: its own error for placeholder input, never a crash
      expect(res.status, `${op}: ${res.text}`).toBeLessThan(500)
    })

    const pending = Object.entries(PENDING)
    // (nothing is pending now; an operation added to PENDING must still be a route-not-found 404)
    if (pending.length > 0)
      it.each(pending)('%s is pending (%s): still a route-not-found 404', async (op) => {
        const res = await send(op)
        expect(
          [res.status, res.headers.get(ROUTE_NOT_FOUND_HEADER)],
          `${op} is served now: drop it from PENDING`,
        ).toEqual([404, 'true'])
      })
  },
)

/** The 17 orchestrator operations of the newest documentation (mintlify-docs orchestrators/*.mdx, 2026-Q2). */
const ORCHESTRATOR_OPERATIONS = [
  'GET /v2/orchestrators/client-ids',
  'POST /v2/orchestrators/client-ids',
  'DELETE /v2/orchestrators/client-ids/{clientId}',
  'POST /v2/orchestrators/client-id-link-intents',
  'POST /v2/orchestrators/branding',
  'GET /v2/orchestrators/branding',
  'PATCH /v2/orchestrators/branding',
  'DELETE /v2/orchestrators/branding',
  'POST /v2/orchestrators/webhooks',
  'GET /v2/orchestrators/webhooks',
  'PATCH /v2/orchestrators/webhooks/{id}',
  'DELETE /v2/orchestrators/webhooks/{id}',
  'POST /v2/orchestrators/webhooks/test',
  'POST /v2/orchestrators/fee-configs',
  'GET /v2/orchestrators/fee-configs',
  'PATCH /v2/orchestrators/fee-configs/{id}',
  'DELETE /v2/orchestrators/fee-configs/{id}',
]

describe('the orchestrator operations', () => {
  it('are 17, each in the served OpenAPI document', async () => {
    expect(ORCHESTRATOR_OPERATIONS).toHaveLength(17)
    const served = await t.clients[0]!.call('GET', '/openapi.json', { apiKey: null })
    const paths = served.body.paths as Record<string, Record<string, unknown>>
    for (const op of ORCHESTRATOR_OPERATIONS) {
      const [method, path] = op.split(' ') as [string, string]
      expect(paths[path]?.[method.toLowerCase()], `${op} in /openapi.json`).toBeDefined()
    }
  })
})

describeTransports(
  'every orchestrator operation through %s',
  () => t,
  (client) => {
    it.each(ORCHESTRATOR_OPERATIONS)('serves %s', async (op) => {
      const [method, path] = op.split(' ') as [string, string]
      const res = await client().call(method, concrete(path), {
        apiKey: null,
        headers: { 'x-orchestrator-key': `orc_${newApiKey()}` },
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      })
      expect(res.headers.get(ROUTE_NOT_FOUND_HEADER), `${op}: ${res.text}`).toBeNull()
      expect(res.status, `${op}: ${res.text}`).toBeLessThan(500)
      // without the key, each answers 401
      const anonymous = await client().call(method, concrete(path), { apiKey: null })
      expect(anonymous.status).toBe(401)
    })
  },
)

/** Issue 22 (item 5): the seven operations of api-features/commerce-payments.mdx (in no official OpenAPI document). */
const COMMERCE_OPERATIONS = [
  'POST /v2/commerce-payments/authorize/calldata',
  'POST /v2/commerce-payments/{requestId}/authorize',
  'POST /v2/commerce-payments/{requestId}/capture/calldata',
  'POST /v2/commerce-payments/{requestId}/capture',
  'POST /v2/commerce-payments/{requestId}/void/calldata',
  'POST /v2/commerce-payments/{requestId}/void',
  'GET /v2/commerce-payments/{requestId}/status',
]

describeTransports(
  'the commerce-payments operations through %s',
  () => t,
  (client) => {
    it.each(COMMERCE_OPERATIONS)('serves %s', async (op) => {
      const [method, path] = op.split(' ') as [string, string]
      const res = await client().call(method, concrete(path), {
        apiKey: newApiKey(),
        ...(method === 'GET' ? {} : { body: {} }),
      })
      expect(res.headers.get(ROUTE_NOT_FOUND_HEADER), `${op}: ${res.text}`).toBeNull()
      expect(res.status, `${op}: ${res.text}`).toBeLessThan(500)
      // a placeholder request id is no commerce payment of the key; the create refuses an empty body
      expect(res.status, `${op}: ${res.text}`).toBe(path.includes('{requestId}') ? 404 : 400)
    })

    it('lists the seven in the served OpenAPI document', async () => {
      const doc = await client().call('GET', '/openapi.json', { apiKey: null })
      const served = Object.entries(doc.body.paths as Record<string, Json>).flatMap(([path, item]) =>
        Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
      )
      expect(served.filter((op) => COMMERCE_OPERATIONS.includes(op)).sort()).toEqual(
        [...COMMERCE_OPERATIONS].sort(),
      )
    })
  },
)
