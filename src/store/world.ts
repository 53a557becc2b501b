import { RequestRecord } from '../resources/requests/schema.ts'
import { Table } from './table.ts'

/** Everything one tenant (API key x scenario) owns. A fresh world is created on the tenant's first call. */
export interface World {
  tenant: string
  scenario: string
  requests: Table<typeof RequestRecord, 'requestId'>
  /** payment reference -> request id */
  requestsByReference: Map<string, string>
}

/** Creates an empty world for a tenant. */
export function createWorld(tenant: string, scenario: string): World {
  return {
    tenant,
    scenario,
    requests: new Table(RequestRecord, 'requestId'),
    requestsByReference: new Map(),
  }
}
