// The door of the portal resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
// Its state (platform accounts, cookie sessions, issued API keys, refused values) is sandbox-wide: the sandbox
// builds it as the `portal` service and authentication reads it through the PortalCredentialLookup port.
export { MAX_PENDING_CHALLENGES } from './challenges.ts'
export { PortalCredentials } from './credentials.ts'
export { portalRoutes } from './routes.ts'
