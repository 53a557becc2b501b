import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { RateRecord } from './schema.ts'

export const ratesDef = defineState('rates', () => ({
  /** USD price overrides set with POST /__sandbox/rates (empty: the fixture's rates) */
  rates: new Table(RateRecord, 'currency'),
}))

/** A world's USD price overrides. */
export function rateState(world: World) {
  return world.state(ratesDef)
}
