// Claimable sandboxes (--claimable): visitors of a shared server create their own key with an expiry. The server
// prepares them before its sandbox (prepareClaimable: the keys strict mode admits) and installs them on it; other
// rooms import only this file.

export { type Claimable, type ClaimableOptions, prepareClaimable } from './claimable.ts'
