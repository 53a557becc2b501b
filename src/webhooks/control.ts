// What the control API and the test harness do with webhooks: register one for a key (pinned secret allowed), show
// and send again a key's deliveries.
import { NotFoundError } from '../contract/sandbox-error.ts'
import type { WebhookDelivery } from './delivery.ts'
import type { DeliveryRecord } from './format.ts'
import { checkNewWebhook } from './model.ts'

/** A delivery as the control API shows it: the record without its tenant, its body also parsed for reading. */
export type DeliveryView = Omit<DeliveryRecord, 'tenant'> & { payload: unknown }

/** A webhook as the control API registers it: its id, URL and signing secret. */
export interface RegisteredWebhook {
  id: string
  url: string
  secret: string
}

/** 404 for a delivery id the key does not have. */
export class DeliveryNotFoundError extends NotFoundError {
  override name = 'DeliveryNotFoundError'
  constructor() {
    super('Delivery not found')
  }
}

/** The control API's view of a delivery. */
export function deliveryView(record: DeliveryRecord): DeliveryView {
  const { tenant: _tenant, ...rest } = record
  return { ...rest, payload: JSON.parse(record.body) as unknown }
}

/**
 * Registers `url` for the key at `now`, optionally with a pinned signing secret; the same rules as POST /v2/webhook:
 * the operator's destinations, the per-key cap.
 */
export async function registerWebhook(
  webhooks: WebhookDelivery,
  tenant: string,
  url: string,
  now: Date,
  secret?: string,
): Promise<RegisteredWebhook> {
  await checkNewWebhook(webhooks, tenant, url)
  const record = webhooks.registry.add(tenant, url, now, secret)
  return { id: record.id, url, secret: record.secret }
}

/** Sends a delivery again (same id and body, retry count from 0); 404 when the key has no such delivery. */
export function redeliver(webhooks: WebhookDelivery, tenant: string, deliveryId: string): DeliveryRecord {
  const record = webhooks.redeliver(tenant, deliveryId)
  if (!record) throw new DeliveryNotFoundError()
  return record
}
