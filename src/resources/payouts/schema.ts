import { z } from 'zod'
import {
  Address,
  AnyAddress,
  DateOrTimestamp,
  Percentage,
  PositiveAmount,
} from '../../contract/primitives.ts'
import { CustomerInfo } from '../requests/index.ts'

/** How often a recurring payout pays. */
export const Frequency = z.enum(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])
export type Frequency = z.infer<typeof Frequency>

/** `recurrence` of `POST /v2/payouts`: every field is required there. */
export const PayoutRecurrence = z.object({
  startDate: DateOrTimestamp,
  frequency: Frequency,
  totalPayments: z
    .number()
    .int({ message: 'totalPayments must be an integer' })
    .min(2, { message: 'totalPayments must be at least 2' })
    .max(255, {
      message: 'totalPayments must be at most 255 (the recurring proxy counts payments in a uint8)',
    }),
  payer: Address,
})

/** Body of `POST /v2/payouts` (one-time without `recurrence`). Unknown keys are stripped. */
export const PayoutBody = z
  .object({
    payee: AnyAddress,
    amount: PositiveAmount,
    invoiceCurrency: z.string().min(1),
    paymentCurrency: z.string().min(1),
    feePercentage: Percentage.optional(),
    feeAddress: AnyAddress.optional(),
    recurrence: PayoutRecurrence.optional(),
    payerWallet: AnyAddress.optional(),
    payerAddress: AnyAddress.optional(),
    customerInfo: CustomerInfo.optional(),
    reference: z.string().min(1).max(255).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.feePercentage === undefined) !== (body.feeAddress === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.feePercentage === undefined ? 'feePercentage' : 'feeAddress'],
        message: 'feePercentage and feeAddress must be provided together',
      })
    }
    if (body.recurrence && body.recurrence.payer.toLowerCase() === body.payee.toLowerCase()) {
      ctx.addIssue({
        code: 'custom',
        path: ['recurrence', 'payer'],
        message: 'Payer cannot be the same as the payee address',
      })
    }
  })
export type PayoutBody = z.infer<typeof PayoutBody>

/** Body of `POST /v1/pay` (the v1 one-time payout: a request and its calldata in one call). */
export const PayV1Body = z.object({
  payee: Address,
  amount: PositiveAmount,
  invoiceCurrency: z.string().min(1),
  paymentCurrency: z.string().min(1),
})

/** Body of `POST /v2/payouts/recurring/{id}`. */
export const ActivateBody = z.object({ permitSignature: z.string() })

/** Body of `PATCH /v2/payouts/recurring/{id}`: the action is checked by the model (`Invalid action: x`). */
export const UpdateBody = z.object({ action: z.string() })

/**
 * States of a recurring payout. `pending` is the sandbox's name for the state between creation and the permit
 * signature (the service leaves it unnamed); the other four are documented.
 */
export const PayoutStatus = z.enum(['pending', 'active', 'paused', 'completed', 'cancelled'])
export type PayoutStatus = z.infer<typeof PayoutStatus>

const PermitValues = z.object({
  subscriber: z.string(),
  token: z.string(),
  recipient: z.string(),
  feeAddress: z.string(),
  amount: z.string(),
  feeAmount: z.string(),
  relayerFee: z.string(),
  periodSeconds: z.number(),
  firstPayment: z.number(),
  totalPayments: z.number(),
  nonce: z.string(),
  deadline: z.number(),
  strictOrder: z.boolean(),
})

/** One executed payment of a recurring payout. */
export const PayoutPayment = z.object({
  id: z.string(),
  index: z.number(),
  /** human amount paid to the payee */
  amount: z.string(),
  timestamp: z.string(),
  txHash: z.string(),
  blockNumber: z.number(),
  requestId: z.string(),
})

/** A stored recurring payout (shaped by the routes; never returned as-is). */
export const RecurringPayoutRecord = z.object({
  id: z.string(),
  status: PayoutStatus,
  network: z.string(),
  invoiceCurrency: z.string(),
  paymentCurrency: z.string(),
  amount: z.string(),
  payee: z.string(),
  payer: z.string(),
  frequency: Frequency,
  totalPayments: z.number(),
  processedPayments: z.number(),
  /** the request every execution's child request points to (originalRequestId) */
  originalRequestId: z.string(),
  originalRequestPaymentReference: z.string(),
  domain: z.object({
    name: z.string(),
    version: z.string(),
    chainId: z.number(),
    verifyingContract: z.string(),
  }),
  permit: PermitValues,
  signature: z.string().nullable(),
  failureCount: z.number(),
  failureReason: z.string().nullable(),
  lastPaymentDate: z.string().nullable(),
  nextPaymentDate: z.string().nullable(),
  /** the child request of each execution, created when its payment is first tried */
  requests: z.array(z.object({ index: z.number(), requestId: z.string(), paymentReference: z.string() })),
  payments: z.array(PayoutPayment),
  /** the clock timer of the next payment, if one is scheduled */
  timerId: z.number().nullable(),
  createdAt: z.string(),
})
export type RecurringPayoutRecord = z.infer<typeof RecurringPayoutRecord>

// The answers of the recurring payout's own routes. The service's documents show an example of each and no schema:
// these are the sandbox's (its /openapi.json marks them `x-sandbox-schema`), written from what lifecycle.ts answers.
const Iso = z.string().meta({ example: '2030-01-02T10:00:00.000Z' })

/** 201 of `POST /v2/payouts/recurring/{id}` (the permit accepted, the schedule active). */
export const ActivatedPayoutAnswer = z
  .object({
    message: z.literal('Recurring payment activated successfully'),
    id: z.string(),
    status: z.literal('active'),
  })
  .strict()

/** 200 of `GET /v2/payouts/recurring/{id}`. */
export const PayoutStatusAnswer = z
  .object({
    processedPayments: z.number().int().nonnegative(),
    totalPayments: z.number().int().positive(),
    lastPaymentDate: Iso.nullable(),
    nextPaymentDate: Iso.nullable(),
    status: PayoutStatus,
    /** while paused: how many payments failed, and why the last one did */
    failureCount: z.number().int().nonnegative().optional(),
    failureReason: z.string().nullable().optional(),
    requests: z.array(z.object({ paymentReference: z.string(), requestId: z.string() }).strict()),
    payments: z.array(
      z.object({ id: z.string(), amount: z.string(), timestamp: Iso, txHash: z.string() }).strict(),
    ),
  })
  .strict()

/** 200 of `PATCH /v2/payouts/recurring/{id}`: `cancel` (with the allowance reset) or `unpause`. */
export const UpdatedPayoutAnswer = z.union([
  z
    .object({
      id: z.string(),
      status: z.literal('cancelled'),
      transactions: z.array(z.object({ to: z.string(), data: z.string(), value: z.literal('0x0') }).strict()),
      metadata: z
        .object({
          remainingPayments: z.number().int().nonnegative(),
          remainingAmount: z.string().regex(/^\d+$/),
          processedPayments: z.number().int().nonnegative(),
          totalPayments: z.number().int().positive(),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      id: z.string(),
      status: z.literal('active'),
      metadata: z
        .object({
          processedPayments: z.number().int().nonnegative(),
          totalPayments: z.number().int().positive(),
          nextPaymentDate: Iso.nullable(),
        })
        .strict(),
    })
    .strict(),
])
