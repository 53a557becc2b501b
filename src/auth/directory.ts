// Credentials that arrive without the tenant's API key (client IDs, session tokens, the links of the payer
// pages) are resolved to their tenant here. The records themselves live in the tenant's world; these maps only
// say which world to look in. One directory per sandbox, shared by every tenant.
import { PortalCredentials } from './portal-credentials.ts'

/** Where a client ID's record lives: the tenant (API key) that created it, its scenario and internal id. */
export interface ClientIdOwner {
  tenant: string
  scenario: string
  /** internal id (the `id` of the client-ids endpoints) */
  id: string
}

/** A session token issued by `POST /__sandbox/sessions`. */
export interface SessionEntry {
  tenant: string
  /** ISO time on the tenant's clock after which the token is refused */
  expiresAt: string
}

/** The payer behind the token of an agreement or KYC link. */
export interface PayerPageOwner {
  tenant: string
  scenario: string
  clientUserId: string
}

/** The sandbox-wide indexes from a credential to its tenant, explicitly named after what they map. */
export class TenantDirectory {
  /** public client ID (`cli_…`, the x-client-id header) -> its owner */
  readonly clientIdToTenant = new Map<string, ClientIdOwner>()
  /** session token (Authorization: Bearer) -> its tenant */
  readonly sessionToTenant = new Map<string, SessionEntry>()
  /** token in an agreementUrl / kycUrl -> the payer it belongs to */
  readonly pageTokenToPayer = new Map<string, PayerPageOwner>()
  /** the portal's accounts, cookie sessions and issued API keys */
  readonly portal = new PortalCredentials()
}
