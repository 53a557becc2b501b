// Credentials that arrive without the tenant's API key (client IDs, session tokens, the links of the payer
// pages) are resolved to their tenant here. The records themselves live in the tenant's world; these maps only
// say which world to look in. One directory per sandbox, shared by every tenant.
import type {
  ClientIdOwner,
  CredentialDirectory,
  OnboardingOwner,
  PayerPageOwner,
  SessionEntry,
} from '../contract/ports.ts'

/** The sandbox-wide indexes from a credential to its tenant, explicitly named after what they map. */
export class TenantDirectory implements CredentialDirectory {
  readonly clientIdToTenant = new Map<string, ClientIdOwner>()
  readonly sessionToTenant = new Map<string, SessionEntry>()
  readonly pageTokenToPayer = new Map<string, PayerPageOwner>()
  readonly onboardingTokenToWorld = new Map<string, OnboardingOwner>()
  readonly securePaymentTokenToWorld = new Map<string, OnboardingOwner>()
  /** Forgets the client IDs and page links of a world that left memory (their records went with it). */
  forgetWorld(tenant: string, scenario: string): void {
    this.#forgetWhere((owner) => owner.tenant === tenant && owner.scenario === scenario)
  }

  /** Forgets the client IDs and page links of every world of a key, those waiting on disk too (a reset). */
  forgetTenant(tenant: string): void {
    this.#forgetWhere((owner) => owner.tenant === tenant)
  }

  #forgetWhere(match: (owner: { tenant: string; scenario: string }) => boolean): void {
    for (const map of [
      this.clientIdToTenant,
      this.pageTokenToPayer,
      this.onboardingTokenToWorld,
      this.securePaymentTokenToWorld,
    ] as Map<string, ClientIdOwner | PayerPageOwner | OnboardingOwner>[])
      for (const [token, owner] of map) if (match(owner)) map.delete(token)
  }

  /** Forgets a key's session tokens (all of its worlds left memory). */
  forgetSessions(tenant: string): void {
    for (const [token, entry] of this.sessionToTenant)
      if (entry.tenant === tenant) this.sessionToTenant.delete(token)
  }
}
