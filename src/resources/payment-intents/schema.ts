import { z } from 'zod'

/** `{signature, nonce, deadline}`, all strings, as the service's body schema declares. */
export const SignedData = z.object({
  signature: z.string().min(1),
  nonce: z.string().min(1),
  deadline: z.string().min(1),
})
export type SignedData = z.infer<typeof SignedData>

/** Body of both send-intent endpoints. Unknown keys are stripped, as the service's zod pipe does. */
export const SendIntentBody = z.object({
  signedPaymentIntent: SignedData,
  signedApprovalPermit: SignedData.optional(),
})
export type SendIntentBody = z.infer<typeof SendIntentBody>

/** Where an intent stands: issued by /pay, accepted by a send, then completed or failed by the operator. */
export const IntentStatus = z.enum(['issued', 'accepted', 'completed', 'failed'])
export type IntentStatus = z.infer<typeof IntentStatus>

/** One side of the intent as stored. */
const Side = z.object({
  network: z.string(),
  chainId: z.number(),
  currencyId: z.string(),
  token: z.string(),
  account: z.string(),
})

/** A payment intent issued by the cross-chain variant of the pay endpoints (never returned as-is). */
export const PaymentIntentRecord = z.object({
  id: z.string(),
  requestId: z.string(),
  paymentReference: z.string(),
  source: Side,
  destination: Side,
  /** base units of the source token: [payment, platform fee, cross-chain fee, ...fee legs], as `permitted` lists them */
  permitted: z.array(z.string()),
  /** base units of the destination token the payee receives, and the platform fee paid beside it */
  destinationAmount: z.string(),
  destinationFee: z.string(),
  feeAddress: z.string(),
  /**
   * fees paid beside the payment on the destination (a secure payment link's orchestrator fees): base units of the
   * destination token, each permitted after the three above; `txHash` once the operator's transfer is mined
   */
  feeLegs: z
    .array(z.object({ address: z.string(), amount: z.string(), txHash: z.string().nullable() }))
    .optional(),
  nonce: z.string(),
  deadline: z.number(),
  /** the exact `paymentIntent` string returned by /pay */
  paymentIntent: z.string(),
  supportsEIP2612: z.boolean(),
  /** the exact `approvalPermitPayload` string, when the source token supports EIP-2612 */
  approvalPermitPayload: z.string().nullable(),
  status: IntentStatus,
  /** the payer's signatures, kept from the accepted send for the operator */
  intentSignature: z.string().nullable(),
  permitSignature: z.string().nullable(),
  failureReason: z.string().nullable(),
  sourceTxHash: z.string().nullable(),
  destinationTxHash: z.string().nullable(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
})
export type PaymentIntentRecord = z.infer<typeof PaymentIntentRecord>
