import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { RecurringPayoutRecord } from './schema.ts'

export const payoutsDef = defineState('payouts', () => ({
  /** recurring payouts (POST /v2/payouts with recurrence) by id */
  recurringPayouts: new Table(RecurringPayoutRecord, 'id'),
}))

/** A world's recurring payouts. */
export function payoutState(world: World) {
  return world.state(payoutsDef)
}
