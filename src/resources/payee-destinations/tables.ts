import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { PayeeDestinationRecord, type SigningNonce } from './schema.ts'

const payeeDestinationsDef = defineState('payee-destinations', () => ({
  /** payee destinations by `network:wallet:token` */
  payeeDestinations: new Table(PayeeDestinationRecord, 'id'),
  /** nonces issued by /v2/payee-destination/signing-data (single use) */
  payeeSigningNonces: new Map<string, SigningNonce>(),
}))

/** A world's payee destinations and signing nonces. */
export function payeeDestinationState(world: World) {
  return world.state(payeeDestinationsDef)
}
