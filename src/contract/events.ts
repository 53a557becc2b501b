// Domain events as every layer sees them: resources emit through an EventSink, the control plane (journal,
// webhook delivery) listens on the bus that implements it. Declared here so that neither side imports the other.
import type { World } from './world.ts'

/** Event types the real service sends as webhooks (api-contract §5), plus the sandbox's own `request.created`. */
export type EventType =
  | 'payment.confirmed'
  | 'payment.partial'
  | 'payment.confirmed.client_id'
  | 'payment.partial.client_id'
  | 'payment.failed'
  | 'payment.processing'
  | 'payment.refunded'
  | 'request.recurring'
  | 'compliance.updated'
  | 'payment_detail.updated'

/** Something that happened in a tenant's world; `payload` is the webhook body the service would send. */
export interface SandboxEvent {
  id: string
  type: EventType
  tenant: string
  scenario: string
  at: string
  payload: Record<string, unknown>
}

/** Where resources send their events: recorded in the world's log and handed to the listeners. */
export interface EventSink {
  /** Emits an event in `world` at the world's clock time. `payload.event` is set to the type. */
  emit(world: World, type: EventType, payload: Record<string, unknown>): SandboxEvent
}
