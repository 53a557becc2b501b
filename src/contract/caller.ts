// Who is calling, as the dispatcher hands it to middlewares and handlers. Declared here (not in auth/) so that
// resources can read the caller without depending on how credentials are checked.

/** How a caller proved who it is (`portal-session`: the portal's `session_token` cookie). */
export type CredentialKind = 'api-key' | 'client-id' | 'session' | 'portal-session' | 'orchestrator-key'

/** What a client-ID call carries into its handler. */
export interface ClientIdGrant {
  tenant: string
  /** internal id */
  id: string
  /** public id (the header value) */
  clientId: string
  feePercentage: string | null
  feeAddress: string | null
  /** the caller's Origin, normalised (null for back-end calls without one) */
  origin: string | null
}

/** Who is calling: the tenant whose world the call reads and writes. */
export interface Caller {
  /** the tenant key (the API key; for client IDs and sessions, the API key that created them) */
  tenant: string
  /** how the caller proved it */
  via: CredentialKind
  /** the client ID used, on client-ID calls (its fee settings apply to calldata) */
  clientId?: ClientIdGrant
  /** the portal platform, on cookie-session calls */
  platformId?: string
  /** the orchestrator, on `x-orchestrator-key` calls (alone, or paired with the client ID it linked) */
  orchestrator?: OrchestratorGrant
}

/** An orchestrator's key and the id the sandbox derives from it. */
export interface OrchestratorGrant {
  key: string
  id: string
}
