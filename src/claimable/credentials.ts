// The keys a request's credentials name: its x-api-key, and the tenant behind a session token (Authorization:
// Bearer, made by POST /__sandbox/sessions) or a client ID (x-client-id), which act as their key without it. A
// claimed key's expiry refuses each of them, and none brings back the state its deletion took.
import type { CredentialDirectory } from '../contract/ports.ts'

/** The headers a credential is read from (a NeutralRequest's, or Node's). */
type Headers = Record<string, string | string[] | undefined>

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : undefined)

/** Each key a credential of `headers` names, in the order authentication reads them (x-api-key first). */
export function credentialKeys(headers: Headers, directory: CredentialDirectory): string[] {
  const keys: string[] = []
  const key = one(headers['x-api-key'])
  if (key) keys.push(key)
  const clientId = one(headers['x-client-id'])
  const owner = clientId ? directory.clientIdToTenant.get(clientId)?.tenant : undefined
  if (owner) keys.push(owner)
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(one(headers.authorization) ?? '')?.[1]
  const session = bearer ? directory.sessionToTenant.get(bearer)?.tenant : undefined
  if (session) keys.push(session)
  return keys
}
