import { z } from 'zod'
import { normalizeOrigin } from '../../contract/origins.ts'
import { Address } from '../../contract/primitives.ts'

/** Status of a client ID; `revoked` is final. */
export const ClientIdStatus = z.enum(['active', 'inactive', 'revoked'])
export type ClientIdStatus = z.infer<typeof ClientIdStatus>

/** A fee percentage as the client-ids endpoints take it: 0-100, at most two decimals, written as a string. */
export const FeePercentage = z
  .string()
  .min(1)
  .regex(/^\d{1,3}(\.\d{1,2})?$/, {
    message: 'feePercentage must be a number between 0 and 100 with at most 2 decimal places',
  })
  .refine((v) => Number(v) <= 100, { message: 'feePercentage must be a number between 0 and 100' })

/** Allowed origins, normalised and deduplicated; `min` is 0 on create (back-end IDs) and 1 on update. */
function allowedDomains(min: number) {
  return z
    .array(z.string(), { error: 'allowedDomains must be an array of origins' })
    .max(10, { message: 'allowedDomains accepts at most 10 origins' })
    .min(min, { message: `allowedDomains needs at least ${min} origin` })
    .transform((values, ctx) => {
      const out: string[] = []
      values.forEach((value, i) => {
        const result = normalizeOrigin(value)
        if ('error' in result) ctx.addIssue({ code: 'custom', path: [i], message: result.error })
        else if (!out.includes(result.origin)) out.push(result.origin)
      })
      return out
    })
}

const Expiry = z.number().int().positive()

/** Body of `POST /v2/client-ids`. An empty `allowedDomains` makes a back-end ID (no Origin check), as DOCS allow. */
export const CreateClientIdBody = z
  .object({
    label: z.string().min(1).max(100),
    allowedDomains: allowedDomains(0),
    feePercentage: FeePercentage.optional(),
    feeAddress: Address.optional(),
    operatorWalletAddress: Address.optional(),
    payeeDestinationId: z.string().min(1).max(200).optional(),
    defaultPreApprovalExpiry: Expiry.optional(),
    defaultAuthorizationExpiry: Expiry.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.feePercentage !== undefined && body.feeAddress === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['feeAddress'],
        message: 'feeAddress is required when feePercentage is set',
      })
    }
  })
export type CreateClientIdBody = z.infer<typeof CreateClientIdBody>

/** Body of `PUT /v2/client-ids/{id}`: every field optional, `null` unsets the nullable ones. */
export const UpdateClientIdBody = z.object({
  label: z.string().min(1).max(100).optional(),
  allowedDomains: allowedDomains(1).optional(),
  feePercentage: FeePercentage.nullable().optional(),
  feeAddress: Address.nullable().optional(),
  operatorWalletAddress: Address.nullable().optional(),
  payeeDestinationId: z.string().min(1).max(200).nullable().optional(),
  defaultPreApprovalExpiry: Expiry.nullable().optional(),
  defaultAuthorizationExpiry: Expiry.nullable().optional(),
  status: ClientIdStatus.optional(),
})
export type UpdateClientIdBody = z.infer<typeof UpdateClientIdBody>

/** A stored client ID. */
export const ClientIdRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  label: z.string(),
  allowedDomains: z.array(z.string()),
  feePercentage: z.string().nullable(),
  feeAddress: z.string().nullable(),
  operatorWalletAddress: z.string().nullable(),
  /** the payee destination the client ID is bound to (its requests without payee pay it) */
  payeeDestinationId: z.string().nullable().optional(),
  defaultPreApprovalExpiry: z.number().nullable(),
  defaultAuthorizationExpiry: z.number().nullable(),
  status: ClientIdStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastUsedAt: z.string().nullable(),
})
export type ClientIdRecord = z.infer<typeof ClientIdRecord>
