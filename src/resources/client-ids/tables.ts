import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { ClientIdRecord } from './schema.ts'

const clientIdsDef = defineState('client-ids', () => ({
  /** client IDs by internal id (the directory maps the public clientId here) */
  clientIds: new Table(ClientIdRecord, 'id'),
}))

/** A world's client IDs. */
export function clientIdState(world: World) {
  return world.state(clientIdsDef)
}
