// Domain events as every layer sees them: resources emit through an EventSink, the control plane (journal,
// webhook delivery) listens on the bus that implements it. Declared here so that neither side imports the other.

/** Event types the real service sends as webhooks (api-contract §5), plus the client-ID variants the DOCS list. */
export const EVENT_TYPES = [
  'payment.confirmed',
  'payment.partial',
  'payment.confirmed.client_id',
  'payment.partial.client_id',
  'payment.confirmed.checkout',
  'payment.partial.checkout',
  'secure_payment.user_event',
  'secure_payment.access_rejected',
  'payment.failed',
  'payment.processing',
  'payment.refunded',
  'request.recurring',
  // commerce payments (the sandbox's own names: the page documents no webhook for them)
  'commerce_payment.authorized',
  'commerce_payment.captured',
  'commerce_payment.voided',
  'commerce_payment.reclaimed',
  'commerce_payment.refunded',
  'compliance.updated',
  'payment_detail.updated',
  'client_id.linked',
  'kyt.screening.completed',
] as const

/** One of EVENT_TYPES. */
export type EventType = (typeof EVENT_TYPES)[number]

/** Something that happened in a tenant's world; `payload` is the webhook body the service would send. */
export interface SandboxEvent {
  id: string
  type: EventType
  tenant: string
  scenario: string
  at: string
  payload: Record<string, unknown>
  /** the client ID whose request or link the event is about (its webhooks receive it), null for none */
  clientId?: string | null
}
