// Every try-it of the docs page starts from a call the sandbox accepts: for each operation of the served
// /openapi.json that takes a body, the page's own start (tryItStart: the body, the path and required query
// parameters' placeholders) is sent as the page sends it, with a fresh API key where the operation takes one.
// No answer may be a validation refusal. The answers that are refusals all the same (a placeholder id, a
// credential the page does not hold, a business rule) are listed below with their reason, and the test fails
// when that list and the answers differ in either direction, so it cannot grow unread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillPath, tryItStart } from '../../src/control/docs/ui/try-start.ts'
import { type ApiClient, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const PLACEHOLDER = 'the path holds the page’s placeholder id, which names nothing in a fresh sandbox'
const SESSION =
  'needs a dashboard session cookie (POST /v1/auth/wallet/verify or /v2/auth/login), which the page does not hold'
const ORCHESTRATOR = 'needs an x-orchestrator-key (any orc_… key), which the page does not send'

/** "METHOD /path" → the status its try-it start answers in a fresh sandbox, and why it is not a success. */
const refusals: Record<string, [status: number, reason: string]> = {
  // placeholder ids: 404
  'POST /v2/request/payment-intents/{paymentIntentId}': [404, PLACEHOLDER],
  'POST /v1/request/{paymentIntentId}/send': [404, PLACEHOLDER],
  'PATCH /v2/request/{requestId}': [404, PLACEHOLDER],
  'POST /v2/payouts/recurring/{id}': [404, PLACEHOLDER],
  'PATCH /v2/payouts/recurring/{id}': [404, PLACEHOLDER],
  'POST /v2/secure-payments/{token}/calldata': [404, PLACEHOLDER],
  'POST /v2/secure-payments/{token}/intent': [404, PLACEHOLDER],
  'POST /v2/secure-payments/{token}/refresh-step-transaction': [404, PLACEHOLDER],
  'POST /v2/secure-payments/{token}/tron/broadcast': [404, PLACEHOLDER],
  'POST /__sandbox/secure-payments/{token}/tron/broadcast': [404, PLACEHOLDER],
  'POST /v2/secure-payments/{token}/permit': [404, PLACEHOLDER],
  'POST /__sandbox/secure-payments/{token}/permit': [404, PLACEHOLDER],
  'POST /__sandbox/secure-payments/{token}/user-events': [404, PLACEHOLDER],
  'POST /__sandbox/secure-payments/{token}/test-wallet/send': [404, PLACEHOLDER],
  'PATCH /v1/payer/{clientUserId}': [404, PLACEHOLDER],
  'PATCH /v2/payer/{clientUserId}': [404, PLACEHOLDER],
  'POST /v1/payer/{clientUserId}/payment-details': [404, PLACEHOLDER],
  'POST /v2/payer/{clientUserId}/payment-details': [404, PLACEHOLDER],
  'PUT /v2/client-ids/{id}': [404, PLACEHOLDER],
  'POST /__sandbox/payers/{clientUserId}/compliance': [404, PLACEHOLDER],
  'POST /__sandbox/payers/{clientUserId}/payment-details/{id}': [404, PLACEHOLDER],
  'POST /__sandbox/payer-pages/{token}/kyc': [404, PLACEHOLDER],
  'POST /__sandbox/webhooks/listen/answers/{attemptId}': [404, PLACEHOLDER],
  'POST /__sandbox/orchestrator-onboarding': [404, 'the required query token is the page’s placeholder'],
  'POST /v2/journey/{queryId}': [404, PLACEHOLDER],
  'POST /v2/commerce-payments/{requestId}/authorize': [404, PLACEHOLDER],
  'POST /v2/commerce-payments/{requestId}/capture/calldata': [404, PLACEHOLDER],
  'POST /v2/commerce-payments/{requestId}/capture': [404, PLACEHOLDER],
  'POST /v2/commerce-payments/{requestId}/void/calldata': [404, PLACEHOLDER],
  'POST /v2/commerce-payments/{requestId}/void': [404, PLACEHOLDER],
  'POST /v2/commerce-payments/{requestId}/refund/calldata': [404, PLACEHOLDER],
  'POST /rpc/{network}': [404, 'the network is the page’s placeholder (a live one is e.g. sepolia)'],
  'POST /tron/wallet/{method}': [404, 'no Tron chain in this sandbox (--networks …,tron)'],
  'POST /tron/walletsolidity/{method}': [404, 'no Tron chain in this sandbox (--networks …,tron)'],
  // documented business refusals of a fresh sandbox
  'POST /v2/journey': [404, "the official example's requestId names no request of a fresh key"],
  'POST /v1/webhook/test': [404, "the service's 'No active webhooks found': none is registered yet"],
  'POST /v2/webhook/test': [404, "the service's 'No active webhooks found': none is registered yet"],
  'POST /v2/secure-payments': [
    400,
    "the service's 'No active payment destination': one is registered first (POST /v2/payee-destination)",
  ],
  'POST /v2/secure-payments/batch-payouts': [
    400,
    "the service's 400 for child tokens that name no secure payment",
  ],
  'POST /v2/secure-payments/multicall-payouts': [
    400,
    "the service's multicall_validation_failed: the official example's child tokens are not payable payouts of this key",
  ],
  'POST /v2/payee-destination': [
    400,
    "the service's 'Invalid nonce': a nonce comes from the signing-data route",
  ],
  'DELETE /v2/payee-destination/{destinationId}': [
    400,
    "the service's 400 'Destination not found' for a placeholder id",
  ],
  'POST /v1/auth/wallet/verify': [
    401,
    "the service's 401 for a challenge it did not issue (POST /v1/auth/wallet/challenge first)",
  ],
  // credentials the page does not hold
  'POST /v1/client-ids': [401, SESSION],
  'PUT /v1/client-ids/{id}': [401, SESSION],
  'POST /v1/key': [401, SESSION],
  'POST /v2/key': [401, SESSION],
  'POST /v1/payee-destination': [401, SESSION],
  'PUT /v1/payee-destination': [401, SESSION],
  'PATCH /v1/payee-destination/deactivate': [401, SESSION],
  'POST /v2/request-tech': [401, SESSION],
  'POST /v2/request-tech/test': [401, SESSION],
  'POST /v2/orchestrators/client-ids': [401, ORCHESTRATOR],
  'POST /v2/orchestrators/client-id-link-intents': [401, ORCHESTRATOR],
  'POST /v2/orchestrators/branding': [401, ORCHESTRATOR],
  'PATCH /v2/orchestrators/branding': [401, ORCHESTRATOR],
  'POST /v2/orchestrators/webhooks/test': [401, ORCHESTRATOR],
  'POST /v2/orchestrators/webhooks': [401, ORCHESTRATOR],
  'POST /v2/orchestrators/fee-configs': [401, ORCHESTRATOR],
  'PATCH /v2/orchestrators/fee-configs/{id}': [401, ORCHESTRATOR],
}

/** A validation refusal in any of the service's shapes: zod issues, {message:'Validation failed', errors}, a message list. */
function isValidationRefusal(status: number, body: Loose): boolean {
  if (status !== 400 && status !== 422) return false
  if (Array.isArray(body)) return true
  if (!body || typeof body !== 'object') return false
  return (
    Array.isArray(body.message) ||
    Array.isArray(body.errors) ||
    Array.isArray(body.issues) ||
    /^validation failed$/i.test(String(body.message ?? ''))
  )
}

let t: Transports
let http: ApiClient
let doc: Loose
beforeAll(async () => {
  t = await startTransports()
  http = t.clients.find((c) => c.transport === 'http')!
  doc = (await http.call('GET', '/openapi.json', { apiKey: null })).body
})
afterAll(async () => t?.close())

describe('docs page try-it starts', () => {
  it('every operation with a body starts from a call the sandbox accepts (refusals listed with their reason)', async () => {
    const answered: Record<string, number> = {}
    const validation: string[] = []
    let sent = 0
    for (const [path, methods] of Object.entries<Loose>(doc.paths)) {
      for (const [method, op] of Object.entries<Loose>(methods)) {
        if (!op.requestBody) continue
        const start = tryItStart(op, method)
        if (start.body === null) continue // a GET: the page sends no body
        sent++
        const key = `${method.toUpperCase()} ${path}`
        const answer = await http.call(method.toUpperCase(), fillPath(path, start.path), {
          query: start.query,
          // as the page: the key only where the operation takes credentials
          apiKey: (op.security ?? []).length ? newApiKey() : null,
          headers: { 'content-type': 'application/json' },
          rawBody: start.body,
        })
        if (isValidationRefusal(answer.status, answer.body))
          validation.push(`${key} → ${answer.text.slice(0, 300)}`)
        if (answer.status >= 400) answered[key] = answer.status
        expect(answer.status, `${key}: ${answer.text.slice(0, 300)}`).toBeLessThan(500)
      }
    }
    expect(validation).toEqual([])
    expect(answered).toEqual(Object.fromEntries(Object.entries(refusals).map(([k, [status]]) => [k, status])))
    // the operations the page can send with a body, so a document losing them fails here too
    expect(sent).toBeGreaterThanOrEqual(88)
  })

  it('marks the sandbox’s own examples and keeps the official one it replaces', () => {
    const media = doc.paths['/v1/request'].post.requestBody.content['application/json']
    expect(media['x-sandbox-example']).toMatch(/future start/)
    expect(media['x-official-example'].recurrence.startDate).toBe('2025-01-01T00:00:00.000Z')
    expect(media.example.recurrence.startDate).toBe('2030-01-01T00:00:00.000Z')
    // the one the page opens with
    expect(JSON.parse(tryItStart(doc.paths['/v1/request'].post, 'post').body!)).toEqual(media.example)
  })
})
