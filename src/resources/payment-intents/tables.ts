import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { PaymentIntentRecord } from './schema.ts'

export const intentsDef = defineState('payment-intents', () => ({
  /** cross-chain payment intents issued by /pay, by paymentIntentId */
  paymentIntents: new Table(PaymentIntentRecord, 'id'),
  /** intents whose send is being checked (a second send of the same intent is refused at once) */
  paymentIntentsInFlight: new Set<string>(),
}))

/** A world's cross-chain payment intents. */
export function intentState(world: World) {
  return world.state(intentsDef)
}
