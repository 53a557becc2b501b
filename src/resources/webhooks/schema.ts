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
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** A registered webhook, as GET /v2/webhook lists it. */
export const WebhookRecord = z.object({
  id: z.string(),
  url: z.string(),
  secret: z.string().regex(/^[0-9a-f]{64}$/),
  isActive: z.boolean(),
  createdAt: z.string(),
})
export type WebhookRecord = z.infer<typeof WebhookRecord>

/** 201 of POST /v2/webhook. */
export const CreateWebhookResponse = z.object({ id: z.string(), secret: z.string().regex(/^[0-9a-f]{64}$/) })
