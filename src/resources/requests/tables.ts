import { defineState, type World } from '../../contract/world.ts'
import { DerivedMap } from '../../store/derived-map.ts'
import { Table } from '../../store/table.ts'
import { RecurringRequestRecord, RequestRecord, TronQuotes } from './schema.ts'

export const requestsDef = defineState('requests', () => ({
  requests: new Table(RequestRecord, 'requestId'),
  /** payment reference -> request id (derived from `requests`: --state-dir rebuilds it on load) */
  requestsByReference: new DerivedMap<string, string>(),
  /** schedules of recurring requests (POST /v1|v2/request with recurrence), by the original's requestId */
  recurringRequests: new Table(RecurringRequestRecord, 'requestId'),
  /** requests whose payment events another resource sends (a recurring payout's executions: the relayer's) */
  announcedElsewhere: new Set<string>(),
}))

/** A world's requests, by id and by payment reference. */
export function requestState(world: World) {
  return world.state(requestsDef)
}

const tronQuotesDef = defineState('tron-conversion', () => ({
  /** the /pay quotes of fiat-invoiced Tron requests, by request id */
  quotes: new Table(TronQuotes, 'requestId'),
}))

/** A world's /pay quotes of fiat-invoiced Tron requests (tron-conversion.ts). */
export function tronQuoteState(world: World) {
  return world.state(tronQuotesDef)
}
