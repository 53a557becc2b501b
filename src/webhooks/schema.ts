import { z } from 'zod'

/** The event types the service's test endpoint accepts (its enum, in its order). */
export const WEBHOOK_EVENT_TYPES = [
  'payment.processing',
  'payment.failed',
  'payment.refunded',
  'payment.confirmed',
  'payment.partial',
  'request.recurring',
  'payment_detail.updated',
  'compliance.updated',
  // the variants and secure-payment events of api-reference/webhooks.mdx (every type it documents can be tested)
  'payment.confirmed.client_id',
  'payment.partial.client_id',
  'payment.confirmed.checkout',
  'payment.partial.checkout',
  'secure_payment.user_event',
  'secure_payment.access_rejected',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** A registered webhook, as GET /v2/webhook lists it. */
export const WebhookRecord = z.object({
  id: z.string(),
  url: z.string(),
  secret: z.string().regex(/^[0-9a-f]{64}$/),
  isActive: z.boolean(),
  createdAt: z.string(),
  /** the client ID that registered it through the Auth API (`x-client-id`): it receives that client ID's events */
  clientId: z.string().nullable().optional(),
})
export type WebhookRecord = z.infer<typeof WebhookRecord>

/** 201 of POST /v2/webhook. */
export const CreateWebhookResponse = z.object({ id: z.string(), secret: z.string().regex(/^[0-9a-f]{64}$/) })

/**
 * 201 of `POST …/webhook/test`: the ids of the deliveries it started (one per active webhook). The documents show an
 * empty schema and no example: this is the sandbox's (marked `x-sandbox-schema` in its /openapi.json).
 */
export const TestWebhookAnswer = z
  .object({ deliveryIds: z.array(z.string().meta({ example: '01JZ4PC7EXAMPLEDELIVERY001' })).min(1) })
  .strict()
