// Commerce payments (preview): the page documents the seven operations and the lifecycle, not the bodies. The
// bodies here follow the escrow's on-chain parameters (contracts/SandboxCommerceEscrow.sol): who pays whom, what
// is held, until when it may be authorized, captured and refunded (ARCHITECTURE.md, known differences).
import { z } from 'zod'
import { Address, PositiveAmount, RequestId } from '../../contract/primitives.ts'

/** A duration in whole seconds (the client ID's defaults are written the same way). */
const Seconds = z
  .number()
  .int()
  .positive()
  .max(10 * 365 * 86400)

/** Body of `POST /v2/commerce-payments/authorize/calldata`. */
export const AuthorizeCalldataBody = z
  .object({
    /** what the payer authorizes, human-readable in `paymentCurrency` */
    amount: PositiveAmount,
    /** an ERC-20 of a network the sandbox runs (the escrow holds tokens only) */
    paymentCurrency: z.string().min(1),
    /** the wallet whose funds are held */
    payer: Address,
    /** the merchant paid on capture (optional on a client-ID call bound to a payee destination) */
    payee: Address.optional(),
    /** the most the payment may ever be (default `amount`) */
    maxAmount: PositiveAmount.optional(),
    /** seconds from now during which the authorization may be executed (default 1 hour) */
    preApprovalExpiry: Seconds.optional(),
    /** seconds from now during which the hold may be captured or voided (default 7 days) */
    authorizationExpiry: Seconds.optional(),
    /** seconds from now during which captured funds may be refunded (default 30 days) */
    refundExpiry: Seconds.optional(),
    reference: z.string().min(1).max(255).optional(),
    /** the largest fee a capture may take, basis points of what it captures (default 0: no fee) */
    maxFeeBps: z.number().int().min(0).max(10_000).optional(),
    /** the only address a capture's fee may go to (required when maxFeeBps is above 0) */
    feeReceiver: Address.optional(),
  })
  .strict()
  .refine((b) => !b.maxFeeBps || b.feeReceiver !== undefined, {
    message: 'feeReceiver is required when maxFeeBps is above 0',
    path: ['feeReceiver'],
  })
export type AuthorizeCalldataBody = z.infer<typeof AuthorizeCalldataBody>

/** Path of the operations on one payment. */
export const CommerceParams = z.object({ requestId: RequestId })

/** Body of capture (calldata and execute): what to capture and the fee taken from it. */
export const CaptureBody = z
  .object({
    /** human-readable, in the payment currency (default: everything still held) */
    amount: PositiveAmount.optional(),
    /** basis points of the captured amount paid to `feeReceiver` (default 0) */
    feeBps: z.number().int().min(0).max(10_000).optional(),
    feeReceiver: Address.optional(),
  })
  .strict()
  .refine((b) => !b.feeBps || b.feeReceiver !== undefined, {
    message: 'feeReceiver is required when feeBps is above 0',
    path: ['feeReceiver'],
  })
export type CaptureBody = z.infer<typeof CaptureBody>

/** Body of void (calldata and execute): nothing to choose, the whole hold goes back. */
export const VoidBody = z.object({}).strict().optional()

/** Body of the refund calldata (the sandbox's own operation): how much of what was captured goes back. */
export const RefundBody = z
  .object({
    amount: PositiveAmount.optional(),
  })
  .strict()
  .optional()
export type RefundBody = z.infer<typeof RefundBody>

/** The lifecycle: the page's four states, plus before authorization and the payer's own reclaim. */
export const CommerceStatus = z.enum([
  'pending',
  'expired',
  'authorized',
  'partially_captured',
  'captured',
  'voided',
  'reclaimed',
  'partially_refunded',
  'refunded',
])
export type CommerceStatus = z.infer<typeof CommerceStatus>

/** One transition seen on chain. */
export const CommerceTransition = z.object({
  type: z.enum(['authorize', 'capture', 'void', 'reclaim', 'refund']),
  /** human-readable, payment currency */
  amount: z.string(),
  feeAmount: z.string(),
  txHash: z.string(),
  logIndex: z.number(),
  blockNumber: z.number(),
  timestamp: z.string(),
})
export type CommerceTransition = z.infer<typeof CommerceTransition>

/** What the sandbox stores per commerce payment; the amounts held live on chain. */
export const CommercePaymentRecord = z.object({
  requestId: z.string(),
  paymentReference: z.string(),
  network: z.string(),
  chainId: z.number(),
  escrowAddress: z.string(),
  paymentCurrency: z.string(),
  tokenAddress: z.string(),
  decimals: z.number(),
  payer: z.string(),
  merchant: z.string(),
  operator: z.string(),
  /** base units */
  amount: z.string(),
  maxAmount: z.string(),
  /** unix seconds */
  preApprovalExpiry: z.number(),
  authorizationExpiry: z.number(),
  refundExpiry: z.number(),
  /** the fee bound the payer authorizes: at most maxFeeBps of a capture, to feeReceiver only */
  maxFeeBps: z.number().int().min(0).max(10_000).default(0),
  feeReceiver: z.string().nullable().default(null),
  clientId: z.string().nullable(),
  /** the last status announced by webhook */
  status: CommerceStatus,
  transitions: z.array(CommerceTransition),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type CommercePaymentRecord = z.infer<typeof CommercePaymentRecord>

const BigNumberValue = z.object({ type: z.literal('BigNumber'), hex: z.string() })
const Transaction = z.object({ to: z.string(), data: z.string(), value: BigNumberValue })

/** Terms of a payment as the escrow holds them (amounts human-readable, expiries ISO dates). */
const Terms = z.object({
  network: z.string(),
  chainId: z.number(),
  escrowAddress: z.string(),
  paymentCurrency: z.string(),
  tokenAddress: z.string(),
  payer: z.string(),
  merchant: z.string(),
  operator: z.string(),
  amount: z.string(),
  maxAmount: z.string(),
  preApprovalExpiry: z.string(),
  authorizationExpiry: z.string(),
  refundExpiry: z.string(),
  maxFeeBps: z.number(),
  feeReceiver: z.string().nullable(),
})

/** 200 of `POST /v2/commerce-payments/authorize/calldata`. */
export const AuthorizeCalldataResponse = z.object({
  requestId: RequestId,
  paymentReference: z.string(),
  transactions: z.array(Transaction),
  metadata: Terms.extend({
    needsApproval: z.boolean(),
    hasEnoughBalance: z.boolean(),
    /** who sends `transactions`: the payer (approval, then authorization) */
    sender: z.string(),
  }),
})

/** 200 of a calldata operation on one payment (capture, void, refund). */
export const ActionCalldataResponse = z.object({
  requestId: RequestId,
  paymentReference: z.string(),
  transactions: z.array(Transaction),
  metadata: z.object({
    action: z.enum(['capture', 'void', 'refund']),
    /** the wallet that must send `transactions` */
    sender: z.string(),
    amount: z.string(),
    feeAmount: z.string(),
    feeReceiver: z.string().nullable(),
  }),
})

/** 200 of `GET /v2/commerce-payments/{requestId}/status`: the hold as the chain holds it. */
export const CommerceStatusResponse = Terms.extend({
  requestId: RequestId,
  paymentReference: z.string(),
  status: CommerceStatus,
  authorizedAmount: z.string(),
  capturableAmount: z.string(),
  capturedAmount: z.string(),
  refundedAmount: z.string(),
  refundableAmount: z.string(),
  transactions: z.array(CommerceTransition),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type CommerceStatusResponse = z.infer<typeof CommerceStatusResponse>

/** 200 of an execute operation (authorize, capture, void): the transaction the API operator sent, and the status. */
export const ExecuteResponse = CommerceStatusResponse.extend({ transactionHash: z.string() })
