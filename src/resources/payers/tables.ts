import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { PayerRecord } from './schema.ts'

export const payersDef = defineState('payers', () => ({
  /** payers by clientUserId (compliance data and statuses) */
  payers: new Table(PayerRecord, 'clientUserId'),
}))

/** A world's payers. */
export function payerState(world: World) {
  return world.state(payersDef)
}
