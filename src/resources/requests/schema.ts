import { z } from 'zod'
import {
  AnyAddress,
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
  payee: AnyAddress.optional(),
  payer: AnyAddress.optional(),
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

/** One payment detected on chain for a request (amounts human-readable unless `Raw`). */
export const DetectedPayment = z.object({
  id: z.string(),
  /** `chainId:txHash:logIndex`: a log is counted once */
  key: z.string(),
  type: z.enum(['direct', 'conversion', 'crosschain', 'recurring']),
  /** what the payment counts for, in the invoice currency */
  amount: z.string(),
  amountRaw: z.string(),
  /** what reached the payee, in the payment currency */
  paidAmount: z.string(),
  paidAmountRaw: z.string(),
  /** the proxy fee, in the payment currency */
  feeAmount: z.string(),
  feeAmountRaw: z.string(),
  feeAddress: z.string(),
  /** gas paid by the sender, in the chain's native currency */
  gasFee: z.string(),
  txHash: z.string(),
  blockNumber: z.number(),
  blockHash: z.string(),
  logIndex: z.number(),
  chainId: z.number(),
  network: z.string(),
  proxy: z.string(),
  timestamp: z.string(),
  from: z.string().nullable(),
  /** the account the tokens came from (a smart account's or Safe's address when one paid); absent: `from` */
  payer: z.string().nullable().optional(),
  to: z.string(),
  /** 1 payment-currency unit = conversionRate invoice-currency units (conversion payments) */
  conversionRate: z.string().nullable(),
  amountInUsd: z.string().nullable(),
})
export type DetectedPayment = z.infer<typeof DetectedPayment>

/** Where a crypto-to-fiat payment stands (off-ramp sub-statuses, api-contract §5). */
export const OfframpState = z.object({
  id: z.string(),
  clientUserId: z.string().nullable(),
  paymentDetailsId: z.string().nullable(),
  subStatus: z.enum([
    'initiated',
    'pending_internal_assessment',
    'ongoing_checks',
    'sending_fiat',
    'fiat_sent',
    'failed',
    'bounced',
  ]),
  updatedAt: z.string(),
  /** when the off-ramp began (its steps are timed from it; absent in states saved before it was kept) */
  startedAt: z.string().optional(),
})
export type OfframpState = z.infer<typeof OfframpState>

/**
 * An orchestrator fee config as captured when a request was created under a client ID an orchestrator linked
 * (orchestrators/fees.mdx: "The fee configuration is captured when a payment is created").
 */
export const CapturedOrchestratorFee = z.object({
  configId: z.string(),
  feeBearer: z.enum(['payer', 'recipient']),
  bps: z.number().int(),
  usdCap: z.string().nullable(),
  evmRecipientAddress: z.string().nullable(),
  tronRecipientAddress: z.string().nullable(),
  configSource: z.enum(['client_id', 'orchestrator_default']),
})
export type CapturedOrchestratorFee = z.infer<typeof CapturedOrchestratorFee>

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
  /** when /pay was first called: the service listens from then until the request is paid */
  payRequestedAt: z.string().nullable().default(null),
  /** the public client ID and Origin of a request created with client-ID auth (payment events carry them) */
  clientId: z.string().nullable().default(null),
  origin: z.string().nullable().default(null),
  /** the orchestrator fees of a request created under a linked client ID, captured at creation (orchestrator-fees.ts) */
  orchestratorFees: z.array(CapturedOrchestratorFee).default([]),
  isRecurrenceStopped: z.boolean(),
  createdAt: z.string(),
  payments: z.array(DetectedPayment),
  /** the off-ramp chosen at /pay (clientUserId + paymentDetailsId), then its progress once paid */
  offramp: z.object({ clientUserId: z.string(), paymentDetailsId: z.string() }).nullable().default(null),
  offrampState: OfframpState.nullable().default(null),
})
export type RequestRecord = z.infer<typeof RequestRecord>

/** The schedule of one recurring request (keyed by the original's requestId). */
export const RecurringRequestRecord = z.object({
  requestId: z.string(),
  frequency: z.enum(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']),
  /** the first occurrence (the original request's), ISO */
  startDate: z.string(),
  /** the index of the next child (1 = the first child) */
  nextIndex: z.number().int().min(1),
  nextDate: z.string().nullable(),
  timerId: z.number().nullable(),
  /** how many children were created (they carry originalRequestId; no list here, so a long series stays cheap) */
  childCount: z.number().int().min(0),
})
export type RecurringRequestRecord = z.infer<typeof RecurringRequestRecord>

/** 200 of `GET /v1/request/{paymentReference}`. */
export const RequestStatusV1 = z.object({
  hasBeenPaid: z.boolean(),
  paymentReference: PaymentReference,
  requestId: RequestId,
  isListening: z.boolean(),
  txHash: z.string().nullable(),
})

/**
 * 200 of `GET /v2/request/{requestId}` as served (documented for the OpenAPI page; the handler builds it field by
 * field): the V1 core, the V2 document's fields, and the reconciliation fields of api-features/query-requests.mdx.
 */
export const RequestStatusV2 = RequestStatusV1.extend({
  status: z.string(),
  requestAmount: z.string(),
  invoiceCurrency: z.string(),
  paymentCurrency: z.string(),
  paidAmount: z.string().meta({ description: 'what the payments count for, in the invoice currency' }),
  remainingAmount: z.string(),
  excessAmount: z.string().optional().meta({
    description: 'present on overpayment: what was paid above the request amount (invoice currency)',
  }),
  receivedAmount: z.string().meta({ description: 'what reached the payee, in the payment currency' }),
  payee: z.string().nullable(),
  payerAddress: z
    .string()
    .nullable()
    .meta({ description: 'the account the tokens came from (a smart account or Safe when one paid)' }),
  payerEoaAddress: z
    .string()
    .nullable()
    .meta({ description: 'the wallet that signed the paying transaction' }),
  detectionSource: z.enum(['request-network', 'lifi']).nullable(),
  note: z.string().nullable(),
}).loose()

/**
 * One /pay quote of a fiat-invoiced Tron request (tron-conversion.ts): invoice-currency base units and the token base
 * units they were priced at.
 */
export const TronQuote = z.object({
  invoiceUnits: z.string(),
  paidUnits: z.string(),
  /** payment-currency units per invoice-currency unit, as a wad */
  rate: z.string(),
  quotedAt: z.string(),
})
export type TronQuote = z.infer<typeof TronQuote>

/** The quotes kept for one request (the last MAX_TRON_QUOTES). */
export const TronQuotes = z.object({ requestId: z.string(), quotes: z.array(TronQuote) })
