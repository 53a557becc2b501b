import { z } from 'zod'

/** The body of POST /__sandbox/sessions. */
export const SessionBody = z.object({
  /** lifetime on the tenant's clock (default one day, at most 30 days) */
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 86400)
    .optional(),
})
export type SessionBody = z.infer<typeof SessionBody>

/** The path parameters of DELETE /__sandbox/sessions/:token. */
export const SessionParams = z.object({ token: z.string() })
