import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { PaymentDetailRecord } from './schema.ts'

export const paymentDetailsDef = defineState('payment-details', () => ({
  /** bank payment details by id (each names its payer) */
  paymentDetails: new Table(PaymentDetailRecord, 'id'),
}))

/** A world's bank payment details. */
export function paymentDetailState(world: World) {
  return world.state(paymentDetailsDef)
}
