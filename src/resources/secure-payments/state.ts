import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { MulticallRecord, SecurePaymentRecord } from './schema.ts'

const securePaymentsDef = defineState('secure-payments', () => ({
  /** secure payment links created by this tenant, by token */
  securePayments: new Table(SecurePaymentRecord, 'token'),
  /** multicall payouts (ordered selections of payout links), by token */
  multicallPayouts: new Table(MulticallRecord, 'token'),
}))

/** A world's secure payment links and multicall payouts. */
export function securePaymentState(world: World) {
  return world.state(securePaymentsDef)
}
