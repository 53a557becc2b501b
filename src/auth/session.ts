// Session tokens (`Authorization: Bearer <token>`) stand for the tenant that asked for them; they expire on that
// tenant's clock, so advancing the clock in a test expires them as real time would.
import type { CredentialPorts } from '../contract/ports.ts'
import { UnauthorizedError } from '../contract/sandbox-error.ts'

/** The tenant of a live session token; 401 when unknown or expired. */
export function authenticateSession(token: string, shared: CredentialPorts): string {
  const entry = shared.directory.sessionToTenant.get(token)
  if (!entry) throw new UnauthorizedError('Invalid or expired session token')
  const now = shared.worlds.get(entry.tenant).clock.now().getTime()
  if (now >= Date.parse(entry.expiresAt)) {
    shared.directory.sessionToTenant.delete(token)
    throw new UnauthorizedError('Invalid or expired session token')
  }
  return entry.tenant
}
