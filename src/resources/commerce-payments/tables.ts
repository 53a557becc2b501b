import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { CommercePaymentRecord } from './schema.ts'

const commercePaymentsDef = defineState('commerce-payments', () => ({
  /** commerce payments by requestId */
  commercePayments: new Table(CommercePaymentRecord, 'requestId'),
}))

/** A world's commerce payments. */
export function commercePaymentState(world: World) {
  return world.state(commercePaymentsDef)
}
