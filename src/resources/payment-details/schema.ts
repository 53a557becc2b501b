import { z } from 'zod'
import { BirthDate } from '../../contract/dates.ts'
import { CountryCode, isCurrencyCode } from '../../contract/iso-codes.ts'

/** Status of a payment detail (payment_detail.updated). */
export const PaymentDetailStatus = z.enum(['pending', 'approved', 'failed'])
export type PaymentDetailStatus = z.infer<typeof PaymentDetailStatus>

/** An optional string where `""` (sent by real clients for empty fields) reads as absent. */
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))

/** The optional bank identifiers and extras of the interface, in its order. */
export const bankExtras = {
  accountNumber: optional,
  routingNumber: optional,
  addressLine2: optional,
  state: optional,
  sortCode: optional,
  iban: optional,
  swiftBic: optional,
  documentNumber: optional,
  documentType: optional,
  ribNumber: optional,
  bsbNumber: optional,
  ncc: optional,
  branchCode: optional,
  bankCode: optional,
  ifsc: optional,
}

/** Body of `POST /v1|v2/payer/{clientUserId}/payment-details`; unknown keys (a client's own row ids) are stripped. */
export const CreatePaymentDetailBody = z.object({
  bankName: z.string().min(1),
  accountName: z.string().min(1),
  beneficiaryType: z.enum(['individual', 'business']),
  currency: z
    .string()
    .length(3)
    .refine(isCurrencyCode, { message: 'must be an ISO 4217 currency code' })
    .transform((v) => v.toLowerCase()),
  addressLine1: z.string().min(1),
  city: z.string().min(1),
  country: CountryCode,
  dateOfBirth: BirthDate,
  postalCode: z.string().min(1),
  rails: z.enum(['local', 'swift', 'wire']).default('local'),
  accountType: z.enum(['checking', 'savings']).optional(),
  ...bankExtras,
})
export type CreatePaymentDetailBody = z.infer<typeof CreatePaymentDetailBody>

const nullable = z.string().nullable()

/** A stored payment detail; optional fields are null when the client did not give them. */
export const PaymentDetailRecord = z.object({
  id: z.string(),
  clientUserId: z.string(),
  userId: z.string(),
  status: PaymentDetailStatus,
  bankName: z.string(),
  accountName: z.string(),
  beneficiaryType: z.enum(['individual', 'business']),
  currency: z.string(),
  rails: z.enum(['local', 'swift', 'wire']),
  accountType: z.enum(['checking', 'savings']).nullable(),
  addressLine1: z.string(),
  city: z.string(),
  country: z.string(),
  dateOfBirth: z.string(),
  postalCode: z.string(),
  accountNumber: nullable,
  routingNumber: nullable,
  addressLine2: nullable,
  state: nullable,
  sortCode: nullable,
  iban: nullable,
  swiftBic: nullable,
  documentNumber: nullable,
  documentType: nullable,
  ribNumber: nullable,
  bsbNumber: nullable,
  ncc: nullable,
  branchCode: nullable,
  bankCode: nullable,
  ifsc: nullable,
  /** the scheduled approval, while pending */
  reviewTimer: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PaymentDetailRecord = z.infer<typeof PaymentDetailRecord>

/** Body of the forced transition `POST /__sandbox/payers/{clientUserId}/payment-details/{id}`. */
export const ForcePaymentDetailBody = z.object({ status: PaymentDetailStatus })
