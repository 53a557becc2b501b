import { z } from 'zod'
import { BirthDate } from '../../contract/dates.ts'
import { CountryCode } from '../../contract/iso-codes.ts'

/** Agreement status values (api-contract §5); the natural flow uses not_started, pending, completed. */
export const AgreementStatus = z.enum(['not_started', 'pending', 'completed', 'rejected', 'failed'])
export type AgreementStatus = z.infer<typeof AgreementStatus>

/** KYC status values (api-contract §5); the natural flow uses not_started, initiated, pending, approved. */
export const KycStatus = z.enum([
  'not_started',
  'initiated',
  'pending',
  'approved',
  'rejected',
  'retry_required',
  'failed',
])
export type KycStatus = z.infer<typeof KycStatus>

/** Optional free text: real clients send `""` for fields left empty, which reads as absent. */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v))

/** Body of `POST /v1|v2/payer`; unknown keys are stripped, as the service's zod pipe does. */
export const CreatePayerBody = z.object({
  clientUserId: z.string().min(1),
  email: z.email({ message: 'must be a valid e-mail address' }),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  beneficiaryType: z.enum(['individual', 'business']),
  companyName: optionalText,
  dateOfBirth: BirthDate,
  addressLine1: z.string().min(1),
  addressLine2: optionalText,
  city: z.string().min(1),
  state: z.string().min(1),
  postcode: z.string().min(1),
  country: CountryCode,
  nationality: CountryCode,
  phone: z.string().regex(/^\+?[1-9]\d{1,14}$/, { message: 'must be a phone number in E.164 format' }),
  ssn: z.string().min(1),
  sourceOfFunds: optionalText,
  businessActivity: optionalText,
})
export type CreatePayerBody = z.infer<typeof CreatePayerBody>

/** Body of `PATCH /v1|v2/payer/{clientUserId}`. */
export const UpdateAgreementBody = z.object({ agreementCompleted: z.boolean() })

/** Body of the forced transition `POST /__sandbox/payers/{clientUserId}/compliance`. */
export const ForceComplianceBody = z
  .object({ kycStatus: KycStatus.optional(), agreementStatus: AgreementStatus.optional() })
  .refine((b) => b.kycStatus !== undefined || b.agreementStatus !== undefined, {
    message: 'give kycStatus, agreementStatus or both',
  })

/** A stored payer: the compliance data and the state of its agreement and KYC. */
export const PayerRecord = z.object({
  clientUserId: z.string(),
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  beneficiaryType: z.enum(['individual', 'business']),
  companyName: z.string().nullable(),
  dateOfBirth: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postcode: z.string(),
  country: z.string(),
  nationality: z.string(),
  phone: z.string(),
  ssn: z.string(),
  sourceOfFunds: z.string().nullable(),
  businessActivity: z.string().nullable(),
  agreementStatus: AgreementStatus,
  kycStatus: KycStatus,
  /** token of the agreement and KYC links (TenantDirectory.pageTokenToPayer) */
  pageToken: z.string(),
  /** base URL the links were issued under */
  linkBase: z.string(),
  /** the scheduled KYC review decision, if one is pending */
  kycReviewTimer: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PayerRecord = z.infer<typeof PayerRecord>
