import { z } from 'zod'

/** Body of `POST /v1|v2/auth/register` and `login`. */
export const CredentialsBody = z.object({
  email: z.email(),
  password: z.string().min(8).max(100),
})
export type CredentialsBody = z.infer<typeof CredentialsBody>

/** Body of `POST /v1|v2/key`. */
export const CreateKeyBody = z.object({
  label: z.string().min(1).max(100),
  isSandbox: z.boolean(),
})
export type CreateKeyBody = z.infer<typeof CreateKeyBody>

/** An API key as `GET /v1|v2/key` lists it. */
export const ApiKeyView = z.object({
  id: z.string(),
  label: z.string(),
  key: z.string().regex(/^rn_v1_[a-z0-9]{30}$/),
  isActive: z.boolean(),
  createdAt: z.string(),
})

/** `GET /v2/platforms/me`: the documented profile has exactly one field. */
export const PlatformProfile = z.strictObject({ hasCryptoToFiatProductionAccess: z.boolean() })
