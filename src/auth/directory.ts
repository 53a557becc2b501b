// Credentials that arrive without the tenant's API key (client IDs, session tokens, the links of the payer
// pages) are resolved to their tenant here. The records themselves live in the tenant's world; these maps only
// say which world to look in. One directory per sandbox, shared by every tenant.
import type { ClientIdOwner, CredentialDirectory, PayerPageOwner, SessionEntry } from '../contract/ports.ts'

/** The sandbox-wide indexes from a credential to its tenant, explicitly named after what they map. */
export class TenantDirectory implements CredentialDirectory {
  readonly clientIdToTenant = new Map<string, ClientIdOwner>()
  readonly sessionToTenant = new Map<string, SessionEntry>()
  readonly pageTokenToPayer = new Map<string, PayerPageOwner>()
}
