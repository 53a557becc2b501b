// Shapes of /v2/secure-payments (V2 0.13.0): bodies as the document declares them, the stored link, the fee plan.
import { z } from 'zod'
import { Address, AnyAddress, Percentage, PositiveAmount } from '../../contract/primitives.ts'
import { SignedData } from '../payment-intents/index.ts'

const RedirectLabel = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^<>&"'`]*$/, 'redirectLabel must not contain < > & " \' or `')

/**
 * `accessPolicy` (use-cases/compliance-gated-payments.mdx): `allowedPayerAddresses`, and the KYT mode with its rules
 * (`screeningProvider` required with `kyt_all_wallets`, refused with `off`); screening is the sandbox's own (kyt.ts).
 */
export const AccessPolicy = z
  .object({
    mode: z.enum(['inherit', 'off', 'kyt_all_wallets']).optional(),
    screeningProvider: z.enum(['hypernative', 'merklescience']).nullable().optional(),
    hideUntilApproved: z.boolean().optional(),
    hidePayeeAddress: z.boolean().optional(),
    allowedPayerAddresses: z.array(AnyAddress).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.mode === 'kyt_all_wallets' && !p.screeningProvider)
      ctx.addIssue({
        code: 'custom',
        path: ['screeningProvider'],
        message: 'screeningProvider is required when mode is kyt_all_wallets',
      })
    if (p.mode === 'off' && p.screeningProvider)
      ctx.addIssue({
        code: 'custom',
        path: ['screeningProvider'],
        message: 'screeningProvider must be omitted or null when mode is off',
      })
  })

/**
 * One request of a link: a payee destination, or a payee with `invoiceCurrency` + `paymentCurrency` (the form of
 * api-features/secure-payment-integration-guide.mdx), or (the sandbox's earlier form) a payee and one `currency`.
 */
export const SecurePaymentItem = z.object({
  destinationId: z.string().min(1).optional(),
  payee: AnyAddress.optional(),
  currency: z.string().min(1).optional(),
  invoiceCurrency: z.string().min(1).optional(),
  paymentCurrency: z.string().min(1).optional(),
  amount: PositiveAmount,
})

const feeRefine = (body: { feePercentage?: string; feeAddress?: string }, ctx: z.RefinementCtx) => {
  if ((body.feePercentage === undefined) !== (body.feeAddress === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [body.feePercentage === undefined ? 'feePercentage' : 'feeAddress'],
      message: 'feePercentage and feeAddress must be provided together',
    })
}

/**
 * Where the page sends the payer after payment: a string here; what it may hold (an absolute http or https URL, no
 * HTML/script payload characters, whitespace or credentials) is checked by `checkRedirect`, which answers the
 * documented 400 for every refusal (use-cases/programmatic-payment-links.mdx).
 */
const RedirectUrl = z.string().max(2048)

/** Body of `POST /v2/secure-payments`. */
export const CreateSecurePaymentBody = z
  .object({
    requests: z.array(SecurePaymentItem).min(1).max(200),
    feePercentage: Percentage.optional(),
    feeAddress: Address.optional(),
    reference: z.string().min(1).max(255).optional(),
    payerIdentifier: z.string().min(1).max(255).optional(),
    redirectUrl: RedirectUrl.optional(),
    redirectLabel: RedirectLabel.optional(),
    accessPolicy: AccessPolicy.optional(),
  })
  .superRefine(feeRefine)
export type CreateSecurePaymentBody = z.infer<typeof CreateSecurePaymentBody>

/** Body of `POST /v2/secure-payments/payouts`: one payout link paying `recipient`. */
export const PayoutSecurePaymentBody = z
  .object({
    recipient: AnyAddress,
    creatorWalletAddress: AnyAddress,
    network: z.string().min(1),
    currency: z.string().min(1),
    amount: PositiveAmount,
    reference: z.string().min(1).max(255).optional(),
    recipientIdentifier: z.string().min(1).max(255).optional(),
    feePercentage: Percentage.optional(),
    feeAddress: Address.optional(),
    redirectUrl: RedirectUrl.optional(),
    redirectLabel: RedirectLabel.optional(),
    accessPolicy: AccessPolicy.optional(),
  })
  .superRefine(feeRefine)
export type PayoutSecurePaymentBody = z.infer<typeof PayoutSecurePaymentBody>

/** Body of `POST /v2/secure-payments/batch-payouts`. */
export const BatchPayoutLinkBody = z.object({
  tokens: z.array(z.string().min(1)).min(2),
  redirectUrl: RedirectUrl.optional(),
  redirectLabel: RedirectLabel.optional(),
})

/** Body of `POST /v2/secure-payments/multicall-payouts` (no other key allowed). */
export const MulticallPayoutBody = z.strictObject({
  childTokens: z.array(z.string().min(1)).min(2).max(1000),
  requestedExecutionKind: z.enum(['evm_same_chain', 'evm_cross_chain', 'tron_batch']).optional(),
})

/**
 * Query of `GET /v2/secure-payments`: the documented lookup (`requestId`) and the 2026-Q1 filters (release notes:
 * "by request ID, payout vs incoming, and creation timestamp"; their names are the sandbox's own).
 */
export const SecurePaymentListQuery = z.object({
  requestId: z.string().min(1).optional(),
  payout: z.enum(['true', 'false']).optional(),
  createdAfter: z.iso.datetime({ offset: true }).optional(),
  createdBefore: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
})
export type SecurePaymentListQuery = z.infer<typeof SecurePaymentListQuery>

/** Body of `POST /{token}/calldata`: the payer's wallet and, for a cross-chain payment, the chosen source. */
export const CalldataBody = z
  .object({
    wallet: Address.optional(),
    chain: z.enum(['BASE', 'OPTIMISM', 'ARBITRUM', 'ETHEREUM', 'POLYGON', 'BNB']).optional(),
    token: z.enum(['USDC', 'USDT', 'EURC', 'USDT0']).optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.chain === undefined) !== (q.token === undefined))
      ctx.addIssue({ code: 'custom', path: ['chain'], message: 'chain and token must be sent together' })
  })

/** Body of `POST /v2/secure-payments/fees/preview`. */
export const FeePreviewBody = z.object({
  amount: PositiveAmount,
  currency: z.string().min(1),
  flow: z.enum(['get_paid', 'pay']),
  defaultFeeBearer: z.enum(['payer', 'payee']).optional(),
})

export const SourceChain = z.enum(['BASE', 'OPTIMISM', 'ARBITRUM', 'ETHEREUM', 'POLYGON', 'BNB'])
export const SourceToken = z.enum(['USDC', 'USDT', 'EURC', 'USDT0'])

/** Query of `GET /{token}` and `GET /{token}/pay`. */
export const TokenQuery = z
  .object({
    wallet: AnyAddress.optional(),
    chain: SourceChain.optional(),
    token: SourceToken.optional(),
    eoaWallet: Address.optional(),
    isSafe: z.enum(['true', 'false']).optional().meta({
      description:
        'true: calldata for a Gnosis Safe payer (wallet = the Safe address; not with eoaWallet; EVM only), api-features/safe-multisig-payments.mdx',
    }),
  })
  .superRefine((q, ctx) => {
    if ((q.chain === undefined) !== (q.token === undefined))
      ctx.addIssue({ code: 'custom', path: ['chain'], message: 'chain and token must be sent together' })
  })
export type TokenQuery = z.infer<typeof TokenQuery>

const Hash = z.string().regex(/^0x[a-fA-F0-9]{64}$/, 'must be a 32-byte hex hash')

/** Body of `POST /{token}/intent` (the single-payment form). */
export const IntentBody = z.object({
  txHash: Hash.optional().meta({
    description: 'The broadcast transaction hash (exactly one of txHash and safeTxHash)',
  }),
  safeTxHash: Hash.optional().meta({
    description:
      'The Safe transaction hash to track (Safe multisig flow, api-features/safe-multisig-payments.mdx): exactly one of txHash and safeTxHash',
  }),
  chain: SourceChain,
  token: SourceToken,
  executionKind: z.enum(['evm_same_chain', 'evm_cross_chain']).optional(),
  safePaymentDeadline: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: 'Unix seconds: the Safe execution deadline, only alongside safeTxHash' }),
  payerAddress: Address.optional(),
  payerEoaAddress: Address.optional(),
  sourceNetwork: z.string().optional(),
  sourceToken: z.string().optional(),
  sourceAmount: z.string().optional(),
  routeKind: z.enum(['same_chain', 'same_chain_conversion', 'crosschain']).optional(),
  bridgeTool: z.enum(['across', 'stargate']).nullable().optional(),
  /** sandbox extension: the cross-chain intent /pay issued, signed by the payer (settled by the sandbox's operator) */
  paymentIntentId: z.string().min(1).optional(),
  signedPaymentIntent: SignedData.optional(),
  signedApprovalPermit: SignedData.optional(),
})
export type IntentBody = z.infer<typeof IntentBody>

/** Body of `POST /{token}/refresh-step-transaction`. */
export const RefreshStepBody = z.object({
  step: z.object({
    id: z.string(),
    type: z.string(),
    tool: z.string(),
    action: z.object({ toChainId: z.number(), toAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }),
  }),
})

/** Body of `POST /{token}/tron/broadcast`. */
export const TronBroadcastBody = z.object({
  signedTransaction: z
    .object({
      raw_data_hex: z.string().regex(/^[a-fA-F0-9]+$/),
      signature: z.array(z.string().regex(/^[a-fA-F0-9]+$/)).min(1),
      txID: z
        .string()
        .regex(/^[a-fA-F0-9]{64}$/)
        .optional(),
      // kept whole: the node encodes raw_data again and holds it equal to raw_data_hex
      raw_data: z
        .object({ contract: z.array(z.unknown()).min(1), fee_limit: z.number().int().min(0).optional() })
        .loose(),
    })
    .loose(),
})

/** Body of the page's `POST /__sandbox/secure-payments/{token}/user-events`. */
export const UserEventBody = z.object({
  userEvent: z.enum(['wallet_connected', 'payment_sent_to_wallet', 'payment_approved_in_wallet']),
  walletAddress: AnyAddress,
  txHash: Hash.optional(),
  occurredAt: z.iso.datetime().optional(),
  walletProvider: z.string().min(1).max(64).optional(),
})

/** One fee of a fee plan. */
export const FeeComponent = z.object({
  type: z.string(),
  label: z.string(),
  feeBearer: z.enum(['payer', 'payee']),
  feeBearerSource: z.enum(['fee_config', 'payment_default_override', 'flow_default', 'forced_fee_policy']),
  percentageBps: z.number(),
  capUsd: z.string().nullable(),
  fixedAmountUsd: z.string().nullable().optional(),
  calculatedAmountUsd: z.string(),
  destinationResolver: z.string(),
  destinationRef: z.object({ evmAddress: z.string().optional(), tronAddress: z.string().optional() }),
  configSource: z.string(),
})

/** `feePlan` (version 1). */
export const FeePlan = z.object({
  version: z.literal(1),
  flow: z.enum(['get_paid', 'pay']),
  defaultFeeBearer: z.enum(['payer', 'payee']),
  grossAmountUsd: z.string(),
  netRecipientAmountUsd: z.string(),
  payerTotalAmountUsd: z.string(),
  totalFeesUsd: z.string(),
  payeeBorneFeesUsd: z.string(),
  payerBorneFeesUsd: z.string(),
  fees: z.array(FeeComponent),
})
export type FeePlan = z.infer<typeof FeePlan>

/** 201 of the three create endpoints. */
export const CreatedLink = z.object({
  requestIds: z.array(z.string()),
  securePaymentUrl: z.string().url(),
  token: z.string(),
  feePlan: FeePlan,
})

/** A secure payment link as the sandbox stores it (in its creator's world). */
export const SecurePaymentRecord = z.object({
  token: z.string(),
  paymentType: z.enum(['single', 'batch']),
  flow: z.enum(['get_paid', 'pay']),
  status: z.enum(['pending', 'completed', 'expired', 'invalidated']),
  requestIds: z.array(z.string()),
  network: z.string(),
  currency: z.string(),
  destinationIds: z.array(z.string().nullable()),
  feePercentage: z.string().nullable(),
  feeAddress: z.string().nullable(),
  reference: z.string().nullable(),
  redirectUrl: z.string().nullable(),
  redirectLabel: z.string().nullable(),
  allowedPayerAddresses: z.array(z.string()).nullable(),
  hidePayeeAddress: z.boolean(),
  /** the KYT configuration resolved at creation (payment policy, else the destination's); null: no screening */
  kyt: z
    .object({
      mode: z.literal('kyt_all_wallets'),
      screeningProvider: z.enum(['hypernative', 'merklescience']),
    })
    .nullable()
    .optional(),
  /** each wallet screened for the link (the lookup's payerKytResults) */
  kytResults: z.array(z.record(z.string(), z.unknown())).optional(),
  clientId: z.string().nullable(),
  /** the orchestrator of a paired-authentication link (absent in older state) */
  orchestratorId: z.string().nullable().optional(),
  /**
   * the orchestrator fees fixed at creation, per request (in the payment currency's units, as decimal strings):
   * each reaches its address when the link is paid (absent in older state)
   */
  orchestratorFees: z
    .array(
      z.object({
        requestId: z.string(),
        configId: z.string(),
        feeBearer: z.enum(['payer', 'recipient']),
        amount: z.string(),
        address: z.string(),
      }),
    )
    .optional(),
  feePlan: FeePlan,
  createdAt: z.string(),
  expiresAt: z.string(),
  completedAt: z.string().nullable(),
  payerAddress: z.string().nullable(),
  /** a batch link that replaced this one (its token), when this single payout was combined */
  combinedInto: z.string().nullable(),
  /**
   * a Tron link's resource-fee leg, once broadcast through /tron/broadcast: its transaction id, and whether it
   * executed on chain (the link completes only when the payment and this leg both executed); absent before
   */
  resourceFee: z.object({ txId: z.string(), executed: z.boolean() }).nullable().optional(),
  /**
   * a Tron link's orchestrator fee legs broadcast through /tron/broadcast (tron-orchestrator-fees.ts), one per fee:
   * its transaction id and whether it executed (the link completes only when every leg executed); absent before
   */
  orchestratorFeeLegs: z
    .array(z.object({ requestId: z.string(), configId: z.string(), txId: z.string(), executed: z.boolean() }))
    .optional(),
  /** executions recorded by /intent; `executionKind` is cross-chain for a signed intent (absent in older state) */
  intents: z.array(
    z.object({
      intentId: z.string(),
      txHash: z.string().nullable(),
      chain: z.string(),
      executionKind: z.enum(['evm_same_chain', 'evm_cross_chain']).optional(),
      /** a Safe transaction recorded by /intent (the link answers 423 until the payment is seen on the chain) */
      safeTxHash: z.string().optional(),
      safePaymentDeadline: z.number().optional(),
    }),
  ),
})
export type SecurePaymentRecord = z.infer<typeof SecurePaymentRecord>

/** A multicall payout: an ordered selection of single payout links. */
export const MulticallRecord = z.object({
  token: z.string(),
  childTokens: z.array(z.string()),
  executionKind: z.enum(['evm_same_chain', 'evm_cross_chain', 'tron_batch']),
  createdAt: z.string(),
  expiresAt: z.string(),
})
export type MulticallRecord = z.infer<typeof MulticallRecord>

/** `POST /v2/secure-payments/{token}/permit`: the payer's signature of the /pay answer's `approvalPermitPayload`. */
export const PermitBody = z.object({
  wallet: Address,
  signature: z.string().regex(/^0x[a-fA-F0-9]{130}$/, 'must be a 65-byte hex signature'),
  deadline: z.number().int().min(0),
})
export type PermitBody = z.infer<typeof PermitBody>
