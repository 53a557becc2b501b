import type { SandboxEvent } from '../events/event-bus.ts'
import { ClientIdRecord } from '../resources/client-ids/schema.ts'
import { JourneyRecord } from '../resources/journeys/schema.ts'
import { PayeeDestinationRecord, type SigningNonce } from '../resources/payee-destinations/schema.ts'
import { PayerRecord } from '../resources/payers/schema.ts'
import { PaymentDetailRecord } from '../resources/payment-details/schema.ts'
import { PaymentIntentRecord } from '../resources/payment-intents/schema.ts'
import { RecurringPayoutRecord } from '../resources/payouts/schema.ts'
import { RateRecord } from '../resources/rates/schema.ts'
import { RecurringRequestRecord, RequestRecord } from '../resources/requests/schema.ts'
import { TenantClock } from './clock.ts'
import { type WorldRules, worldRules } from './rules.ts'
import { Table } from './table.ts'

/**
 * Everything one tenant (credential x scenario) owns. A fresh world is created on the tenant's first call.
 * Each resource adds its collections here (as Tables) and nowhere else.
 */
export interface World {
  tenant: string
  scenario: string
  clock: TenantClock
  /** behaviour knobs set by the world's scenario (src/store/rules.ts) */
  rules: WorldRules
  /** the world's domain events, oldest first (webhooks and the journal read them) */
  events: SandboxEvent[]
  requests: Table<typeof RequestRecord, 'requestId'>
  /** payment reference -> request id */
  requestsByReference: Map<string, string>
  /** schedules of recurring requests (POST /v1|v2/request with recurrence), by the original's requestId */
  recurringRequests: Table<typeof RecurringRequestRecord, 'requestId'>
  /** cross-chain payment intents issued by /pay, by paymentIntentId */
  paymentIntents: Table<typeof PaymentIntentRecord, 'id'>
  /** intents whose send is being checked (a second send of the same intent is refused at once) */
  paymentIntentsInFlight: Set<string>
  /** USD price overrides set with POST /__sandbox/rates (empty: the fixture's rates) */
  rates: Table<typeof RateRecord, 'currency'>
  /** recurring payouts (POST /v2/payouts with recurrence) by id */
  recurringPayouts: Table<typeof RecurringPayoutRecord, 'id'>
  /** payers by clientUserId (compliance data and statuses) */
  payers: Table<typeof PayerRecord, 'clientUserId'>
  /** bank payment details by id (each names its payer) */
  paymentDetails: Table<typeof PaymentDetailRecord, 'id'>
  /** client IDs by internal id (TenantDirectory maps the public clientId here) */
  clientIds: Table<typeof ClientIdRecord, 'id'>
  /** payee destinations by `network:wallet:token` */
  payeeDestinations: Table<typeof PayeeDestinationRecord, 'id'>
  /** nonces issued by /v2/payee-destination/signing-data (single use) */
  payeeSigningNonces: Map<string, SigningNonce>
  /** journeys (tracking references) created by this tenant, with their reported steps */
  journeys: Table<typeof JourneyRecord, 'id'>
  /** txReference of a reported step -> its journey id (processors may report against either) */
  journeyTxReferences: Map<string, string>
}

/** Creates an empty world for a tenant. */
export function createWorld(
  tenant: string,
  scenario: string,
  log: (message: string, error: unknown) => void,
): World {
  return {
    tenant,
    scenario,
    clock: new TenantClock(log),
    rules: worldRules(),
    events: [],
    requests: new Table(RequestRecord, 'requestId'),
    requestsByReference: new Map(),
    recurringRequests: new Table(RecurringRequestRecord, 'requestId'),
    paymentIntents: new Table(PaymentIntentRecord, 'id'),
    paymentIntentsInFlight: new Set(),
    rates: new Table(RateRecord, 'currency'),
    recurringPayouts: new Table(RecurringPayoutRecord, 'id'),
    payers: new Table(PayerRecord, 'clientUserId'),
    paymentDetails: new Table(PaymentDetailRecord, 'id'),
    clientIds: new Table(ClientIdRecord, 'id'),
    payeeDestinations: new Table(PayeeDestinationRecord, 'id'),
    payeeSigningNonces: new Map(),
    journeys: new Table(JourneyRecord, 'id'),
    journeyTxReferences: new Map(),
  }
}
