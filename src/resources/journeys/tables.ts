import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { JourneyRecord } from './schema.ts'

const journeysDef = defineState('journeys', () => ({
  /** journeys (tracking references) created by this tenant, with their reported steps */
  journeys: new Table(JourneyRecord, 'id'),
  /** txReference of a reported step -> its journey id (processors may report against either) */
  journeyTxReferences: new Map<string, string>(),
}))

/** A world's journeys. */
export function journeyState(world: World) {
  return world.state(journeysDef)
}
