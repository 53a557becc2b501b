// The public module of the portal resource: its state (platform accounts, cookie sessions, issued API keys,
// refused values), which the sandbox builds as the `portal` service and authentication reads through the
// PortalCredentialLookup port.
export { type PlatformAccount, PortalCredentials, type PortalKey } from './credentials.ts'
