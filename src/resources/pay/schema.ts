import { isAddress } from 'viem'
import { z } from 'zod'
import type { InvalidHandler } from '../../contract/route.ts'
import { FieldListError } from '../../contract/sandbox-error.ts'
import { isTronAddress, TRON_CHECKSUM_MESSAGE, tronChecksumFails } from '../../tron/index.ts'

const enumMessage = (values: readonly string[]) => (issue: { input?: unknown }) =>
  `Invalid enum value. Expected ${values.map((v) => `'${v}'`).join(' | ')}, received '${String(issue.input)}'`

// in the order the service's error messages list them
const v2Chains = ['POLYGON', 'BASE', 'OPTIMISM', 'ETHEREUM', 'ARBITRUM'] as const
const v1Chains = ['BASE', 'OPTIMISM', 'ETHEREUM', 'ARBITRUM'] as const
const v2Tokens = ['USDC', 'USDT'] as const
const v1Tokens = ['USDC', 'USDT', 'DAI'] as const

// EVM or Tron (`T…`, for Tron requests): the message stays the service's for a bad EVM wallet
const wallet = z.string().superRefine((v, ctx) => {
  if (isAddress(v, { strict: false }) || isTronAddress(v)) return
  ctx.addIssue({
    code: 'custom',
    message: tronChecksumFails(v) ? TRON_CHECKSUM_MESSAGE : 'Invalid Ethereum address',
  })
})
const amount = z.string().superRefine((v, ctx) => {
  if (!/^\d+(\.\d+)?$/.test(v)) ctx.addIssue({ code: 'custom', message: 'Amount must be a positive number' })
  else if (!/[1-9]/.test(v)) ctx.addIssue({ code: 'custom', message: 'Amount must be greater than 0' })
})

function together(a: string, b: string, message: string) {
  return (query: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if ((query[a] === undefined) !== (query[b] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [query[a] === undefined ? a : b], message })
    }
  }
}

/** Query of `GET /v1/request/{paymentReference}/pay`. */
export const PayQueryV1 = z
  .object({
    wallet: wallet.optional(),
    chain: z.enum(v1Chains, { error: enumMessage(v1Chains) }).optional(),
    token: z.enum(v1Tokens, { error: enumMessage(v1Tokens) }).optional(),
    amount: amount.optional(),
  })
  .superRefine(together('chain', 'token', 'chain and token must be provided together'))
export type PayQueryV1 = z.infer<typeof PayQueryV1>

/** Query of `GET /v2/request/{requestId}/pay`. */
export const PayQueryV2 = z
  .object({
    wallet: wallet.optional(),
    chain: z.enum(v2Chains, { error: enumMessage(v2Chains) }).optional(),
    token: z.enum(v2Tokens, { error: enumMessage(v2Tokens) }).optional(),
    amount: amount.optional(),
    clientUserId: z.string().min(1).optional(),
    paymentDetailsId: z.string().min(1).optional(),
    feePercentage: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { message: 'feePercentage must be a number between 0 and 100' })
      .refine((v) => Number(v) <= 100, { message: 'feePercentage must be a number between 0 and 100' })
      .optional(),
    feeAddress: wallet.optional(),
  })
  .superRefine(together('chain', 'token', 'chain and token must be provided together'))
  .superRefine(
    together('feePercentage', 'feeAddress', 'feePercentage and feeAddress must be provided together'),
  )
  .superRefine(
    together(
      'clientUserId',
      'paymentDetailsId',
      'clientUserId and paymentDetailsId must be provided together',
    ),
  )
export type PayQueryV2 = z.infer<typeof PayQueryV2>

/** The pay endpoints answer query errors as `{message: "Validation failed", errors: [{field, message}]}`. */
export const payQueryInvalid: InvalidHandler = (issues) =>
  new FieldListError(
    issues.map((i) => ({ field: i.path.map(String).join('.') || 'query', message: i.message })),
  )

const Transaction = z.object({
  data: z.string().regex(/^0x[0-9a-f]*$/),
  to: z.string(),
  value: z.object({ type: z.literal('BigNumber'), hex: z.string().regex(/^0x[0-9a-f]+$/) }),
})

/** 200 of the pay endpoints, same-chain variant (plus `paymentTransactionIndex`, which real clients read). */
export const SameChainPayResponse = z.object({
  transactions: z.array(Transaction).min(1),
  metadata: z.object({
    stepsRequired: z.number().int(),
    needsApproval: z.boolean(),
    approvalTransactionIndex: z.number().int().nullable(),
    paymentTransactionIndex: z.number().int(),
    hasEnoughBalance: z.boolean(),
    hasEnoughGas: z.boolean(),
  }),
})
export type SameChainPayResponse = z.infer<typeof SameChainPayResponse>

/** 200 of the pay endpoints, crosschain variant: a payment intent to sign (JSON strings of EIP-712 typed data). */
export const CrosschainPayResponse = z.object({
  paymentIntentId: z.string(),
  paymentIntent: z.string(),
  approvalPermitPayload: z.string().nullable().optional(),
  approvalCalldata: z
    .object({ to: z.string(), data: z.string(), value: z.literal('0x0') })
    .nullable()
    .optional(),
  metadata: z.object({ supportsEIP2612: z.boolean() }),
})
export type CrosschainPayResponse = z.infer<typeof CrosschainPayResponse>

/**
 * A Tron step: the contract (`T…`), the ABI calldata and what TronWeb's `triggerSmartContract` takes
 * (`functionSelector`, `parameter` without the selector, `feeLimit` in sun); `value` 0 (TRC-20 steps carry no TRX).
 */
export const TronTransaction = z.object({
  to: z.string().regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
  data: z.string().regex(/^0x[0-9a-f]*$/),
  value: z.literal(0),
  functionSelector: z.string(),
  parameter: z.string().regex(/^[0-9a-f]*$/),
  feeLimit: z.number().int(),
})
export type TronTransaction = z.infer<typeof TronTransaction>

/** 200 of the pay endpoints for a Tron request: Tron steps and the readiness of TRX, energy and bandwidth. */
export const TronPayResponse = z.object({
  transactions: z.array(TronTransaction).min(1),
  metadata: SameChainPayResponse.shape.metadata.extend({
    network: z.literal('tron'),
    /** TRX of the wallet (null without a wallet) */
    nativeBalance: z.string().nullable(),
    /** TRX the steps burn: energy (100 sun each) and bandwidth beyond the free allowance (1,000 sun a byte) */
    estimatedNetworkFee: z.string(),
    energyRequired: z.number().int(),
    bandwidthRequired: z.number().int(),
    freeBandwidth: z.number().int().nullable(),
    approvalFeeLimit: z.string().nullable(),
    paymentFeeLimit: z.string(),
  }),
})
export type TronPayResponse = z.infer<typeof TronPayResponse>

/** 200 of the pay endpoints: either variant. */
export const PayResponse = z.union([SameChainPayResponse, CrosschainPayResponse, TronPayResponse])
export type PayResponse = z.infer<typeof PayResponse>

/** Query of the routes endpoints: `wallet` is checked by the model (400 `Invalid or missing wallet address`). */
export const RoutesQuery = z
  .object({
    // checked by the handler with the service's own 400 (`Invalid or missing wallet address`): required all the same
    wallet: z.string().optional().meta({ required: true, description: 'The paying wallet address' }),
    amount: amount.optional(),
    feePercentage: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { message: 'feePercentage must be a number between 0 and 100' })
      .refine((v) => Number(v) <= 100, { message: 'feePercentage must be a number between 0 and 100' })
      .optional(),
    feeAddress: wallet.optional(),
  })
  .superRefine(
    together('feePercentage', 'feeAddress', 'feePercentage and feeAddress must be provided together'),
  )
