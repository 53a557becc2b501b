import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { MulticallRecord, SecurePaymentRecord } from './schema.ts'

const securePaymentsDef = defineState('secure-payments', () => ({
  /** secure payment links created by this tenant, by token */
  securePayments: new Table(SecurePaymentRecord, 'token'),
  /** multicall payouts (ordered selections of payout links), by token */
  multicallPayouts: new Table(MulticallRecord, 'token'),
  /** Tron links whose resource-fee leg is being claimed and broadcast (a second one sent meanwhile is refused) */
  tronFeeLegsInFlight: new Set<string>(),
  /** Tron links whose payment step is being broadcast or executed (before the detector sees it): one more is refused */
  tronPaymentsSent: new Set<string>(),
}))

/** A world's secure payment links and multicall payouts. */
export function securePaymentState(world: World) {
  return world.state(securePaymentsDef)
}
