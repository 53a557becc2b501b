// A webhook delivery record as the delivery room keeps it, for the tests of its bounds (records.ts, record-budget.ts).
import type { DeliveryRecord } from '../../src/webhooks/format.ts'

/** A record of `tenant` with this id, body and state; the rest fixed. */
export function deliveryRecord(
  tenant: string,
  id: string,
  { body = '{}', state = 'delivered' }: { body?: string; state?: DeliveryRecord['state'] } = {},
): DeliveryRecord {
  return {
    id,
    tenant,
    scenario: 'default',
    webhookId: 'w',
    url: 'https://example.com/h',
    event: 'payment.confirmed',
    eventId: null,
    test: true,
    body,
    state,
    attempts: [],
  }
}
