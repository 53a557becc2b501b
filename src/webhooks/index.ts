// The webhook feature's door: the registry of each key's webhooks, delivery with retries and chaos, signing, the
// operator's destination policy, listen clients, and its routes (the public /v1|v2/webhook API and the control
// API's /__sandbox/webhooks/*). Other rooms import only this file.
export { webhookChaosMiddleware } from './chaos-header.ts'
export { deliveryView, redeliver, registerWebhook } from './control.ts'
export { webhookDeliveryRoutes, webhookToolRoutes } from './control-routes.ts'
export { WebhookDelivery, type WebhookDeliveryOptions, type WebhookHandler } from './delivery.ts'
export { type DeliveryRecord, signWebhook } from './format.ts'
export { checkNewWebhook } from './model.ts'
export type { WebhookPort } from './port.ts'
export { WebhookRegistry } from './registry.ts'
export { webhookRoutes } from './routes.ts'
export { WEBHOOK_EVENT_TYPES } from './schema.ts'
