// Claimable sandboxes (--claimable): visitors of a shared server create their own key with an expiry. The server
// installs it (createClaimable); other rooms import only this file.

export { CLAIM_DEFAULTS, type Claimable, type ClaimableOptions, createClaimable } from './claimable.ts'
export type { Claim } from './claims.ts'
