// The bytes and headers of a webhook delivery, as the service documents them (api-contract §5).
import { createHmac } from 'node:crypto'

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  retryCount: number
  at: string
  status: number | null
  error: string | null
  durationMs: number
  /** what the receiver answered: its headers and the start of its body (1 KB); absent when it did not answer */
  response?: ReceiverAnswer
}

/** A receiver's answer as a delivery records it. */
export interface ReceiverAnswer {
  headers: Record<string, string>
  /** the first 1 KB of the body (text) */
  body: string
}

/** How much of a receiver's body a delivery keeps. */
export const ANSWER_BODY_BYTES = 1024

/** One event sent to one webhook, with all its attempts. */
export interface DeliveryRecord {
  id: string
  tenant: string
  scenario: string
  webhookId: string
  url: string
  event: string
  eventId: string | null
  test: boolean
  /** the exact bytes sent and signed */
  body: string
  state: 'pending' | 'delivered' | 'failed'
  attempts: DeliveryAttempt[]
  /** the webhook chaos action applied to it (a rule of PUT /__sandbox/webhooks/chaos, or x-sandbox-webhook-chaos) */
  chaos?: 'duplicate' | 'drop' | 'delay' | 'reorder' | 'fail'
}

/** Adds `requestID` beside `requestId` (and the reverse): the service sends both (api-contract §6.2). */
export function webhookBody(payload: Record<string, unknown>): string {
  const out = { ...payload }
  if (out.requestId !== undefined && out.requestID === undefined) out.requestID = out.requestId
  if (out.requestID !== undefined && out.requestId === undefined) out.requestId = out.requestID
  return JSON.stringify(out)
}

/** Lower-case hex HMAC-SHA256 of the body with the secret (a UTF-8 key), as receivers verify it. */
export function signWebhook(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex')
}

/** The headers of one delivery attempt. */
export function deliveryHeaders(
  delivery: { id: string; body: string; test: boolean },
  retryCount: number,
  secret: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'request-sandbox-webhooks',
    'x-request-network-signature': signWebhook(delivery.body, secret),
    'x-request-network-delivery': delivery.id,
    'x-request-network-retry-count': String(retryCount),
    ...(delivery.test ? { 'x-request-network-test': 'true' } : {}),
  }
}
