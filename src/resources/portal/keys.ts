// API keys issued by the portal (FULL's /v1|v2/key). A created key is a new tenant that works as x-api-key at once;
// disabling or deleting it makes authentication answer 401 (it reads credentials.ts through PortalCredentialLookup).
// Its webhooks are its platform's.
import { randomBytes } from 'node:crypto'
import type { Uses } from '../services.ts'
import { callerPlatform } from './accounts.ts'
import type { PortalKey } from './credentials.ts'
import { ApiKeyNotFoundError } from './errors.ts'
import type { CreateKeyBody } from './schema.ts'

type Ctx = Uses<'portal' | 'ids' | 'now' | 'webhooks'>

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** `rn_v1_` + 30 lower-case alphanumerics, the service's key format. */
function newKeyValue(): string {
  let out = 'rn_v1_'
  for (const byte of randomBytes(30)) out += alphabet[byte % alphabet.length]
  return out
}

/** A key as the list answers it. */
export function keyView(key: PortalKey) {
  return { id: key.id, label: key.label, key: key.key, isActive: key.isActive, createdAt: key.createdAt }
}

/** `POST /key`: issues a key to the caller's platform. */
export function createKey(ctx: Ctx, body: CreateKeyBody): PortalKey {
  const platform = callerPlatform(ctx)
  const portal = ctx.portal
  let value = newKeyValue()
  while (portal.standing(value) !== 'unknown') value = newKeyValue()
  const now = ctx.now()
  const key: PortalKey = {
    id: ctx.ids.ulid(now.getTime()),
    platformId: platform.id,
    label: body.label,
    key: value,
    isSandbox: body.isSandbox,
    isActive: true,
    createdAt: now.toISOString(),
  }
  portal.keys.set(value, key)
  ctx.webhooks.registry.setOwner(value, platform.tenant)
  return key
}

/** `GET /key`: the platform's keys, oldest first. */
export function listKeys(ctx: Ctx): PortalKey[] {
  const platform = callerPlatform(ctx)
  return [...ctx.portal.keys.values()].filter((k) => k.platformId === platform.id)
}

function ownKey(ctx: Ctx, id: string): PortalKey {
  const key = listKeys(ctx).find((k) => k.id === id)
  if (!key) throw new ApiKeyNotFoundError()
  return key
}

/** `PUT /key/{id}`: enables a disabled key, disables an enabled one. */
export function toggleKey(ctx: Ctx, id: string): PortalKey {
  const key = ownKey(ctx, id)
  key.isActive = !key.isActive
  return key
}

/** `DELETE /key/{id}`: removes the key; it answers 401 from then on. */
export function deleteKey(ctx: Ctx, id: string): void {
  const key = ownKey(ctx, id)
  const portal = ctx.portal
  portal.keys.delete(key.key)
  portal.refuse(key.key)
}
