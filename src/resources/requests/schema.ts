import { z } from 'zod'
import {
  Address,
  DateOrTimestamp,
  PaymentReference,
  PositiveAmount,
  RequestId,
} from '../../contract/primitives.ts'

/** Recurrence of a request, as the create body takes it. */
export const Recurrence = z.object({
  startDate: DateOrTimestamp,
  frequency: z.enum(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']),
})

/** `customerInfo` of a request (V2). */
export const CustomerInfo = z.object({
  firstName: z.string().min(1).max(100).optional(),
  lastName: z.string().min(1).max(100).optional(),
  email: z.string().max(255).optional(),
  address: z
    .object({
      street: z.string().max(255).optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      postalCode: z.string().max(20).optional(),
      country: z.string().length(2).optional(),
    })
    .optional(),
})

/** Body of `POST /v2/request`. Unknown keys are stripped, as the service's zod pipe does. */
export const CreateRequestBody = z.object({
  amount: PositiveAmount,
  invoiceCurrency: z.string().min(1),
  paymentCurrency: z.string().min(1),
  payee: Address.optional(),
  payer: Address.optional(),
  recurrence: Recurrence.optional(),
  isCryptoToFiatAvailable: z.boolean().optional(),
  customerInfo: CustomerInfo.optional(),
  reference: z.string().min(1).max(255).optional(),
  originalRequestId: RequestId.optional(),
  originalRequestPaymentReference: PaymentReference.optional(),
})
export type CreateRequestBody = z.infer<typeof CreateRequestBody>

/** 201 of `POST /v2/request`. */
export const CreateRequestResponse = z.object({ paymentReference: PaymentReference, requestId: RequestId })

/** One payment detected on chain for a request. */
export const DetectedPayment = z.object({
  amount: z.string(),
  /** base units */
  amountRaw: z.string(),
  feeAmount: z.string(),
  feeAddress: z.string(),
  txHash: z.string(),
  blockNumber: z.number(),
  logIndex: z.number(),
  timestamp: z.string(),
  from: z.string().nullable(),
  network: z.string(),
})
export type DetectedPayment = z.infer<typeof DetectedPayment>

/** A stored request (never returned as-is: the routes shape it as the service does). */
export const RequestRecord = z.object({
  requestId: RequestId,
  paymentReference: PaymentReference,
  salt: z.string(),
  amount: z.string(),
  invoiceCurrency: z.string(),
  paymentCurrency: z.string(),
  network: z.string(),
  payee: z.string().nullable(),
  /** where the payment goes: the payee, or the sandbox's off-ramp deposit address for crypto-to-fiat */
  paymentAddress: z.string(),
  payer: z.string().nullable(),
  recurrence: Recurrence.nullable(),
  isCryptoToFiatAvailable: z.boolean(),
  customerInfo: CustomerInfo.nullable(),
  reference: z.string().nullable(),
  originalRequestId: z.string().nullable(),
  originalRequestPaymentReference: z.string().nullable(),
  isListening: z.boolean(),
  isRecurrenceStopped: z.boolean(),
  createdAt: z.string(),
  payments: z.array(DetectedPayment),
})
export type RequestRecord = z.infer<typeof RequestRecord>

/** 200 of `GET /v1/request/{paymentReference}`. */
export const RequestStatusV1 = z.object({
  hasBeenPaid: z.boolean(),
  paymentReference: PaymentReference,
  requestId: RequestId,
  isListening: z.boolean(),
  txHash: z.string().nullable(),
})
