// The fee resolver of secure payments: one function behind creation, the display data and POST /fees/preview.
// Differences from the real service: the fees are the platform fee the call (or the caller's client ID) sets and,
// with paired authentication, the orchestrator fees (orchestrator-fees.ts); Request Network's protocol fee is 0 in
// the sandbox. The payer bears it (ERC20FeeProxy sends it on top of the
// amount). USD values come from the sandbox's rates (a stablecoin without a rate counts 1:1).
import { toBaseUnits } from '../../contract/amounts.ts'
import { formatWadFixed, mulWad, toWad } from '../../contract/decimal.ts'
import { keccakUtf8 } from '../../contract/keccak.ts'
import { toTronAddress } from '../../tron/index.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { Ctx } from './context.ts'
import { SecurePaymentRequestError } from './errors.ts'
import {
  type OrchestratorPricing,
  orchestratorFeeComponents,
  priceOrchestratorFees,
} from './orchestrator-fees.ts'
import type { FeePlan } from './schema.ts'

/**
 * DOCS (api-features/protocol-fees.mdx, 2026-08): Request Network covers a Tron payment's energy and bandwidth
 * through resource providers and charges a fixed $3.99 for it, on top of the other fees. The sandbox collects it as
 * a fee leg (a TRC-20 transfer in the payment currency, after the payment) to its own treasury address.
 */
export const TRON_RESOURCE_FEE_USD = '3.99'
/** Where the sandbox's Tron resource fee goes (no one holds its key). */
export const TRON_RESOURCE_TREASURY = toTronAddress(
  `0x${keccakUtf8('request-sandbox:tron-resource-fee').slice(-40)}`,
)

/** What a fee plan is computed from. */
export interface FeePlanInput {
  /** the links' network: `tron` adds the fixed resource fee */
  network?: string
  /** what the payee gets, per request (a batch mixes currencies: each is priced in USD on its own) */
  amounts: { amount: string; currency: string }[]
  flow: FeePlan['flow']
  feePercentage?: string | null
  feeAddress?: string | null
  defaultFeeBearer?: FeePlan['defaultFeeBearer']
  /** the orchestrator fees fixed at creation (orchestrator-fees.ts), added to the plan as they are */
  orchestrator?: { components: FeePlan['fees']; payerUsd: bigint; payeeUsd: bigint }
}

function usdWad(ctx: Ctx, currency: string, amount: string): bigint {
  const rate = ctx.conversion.rate(ctx.world, currency, 'USD')
  return rate === null ? toWad(amount) : mulWad(toWad(amount), rate)
}

/** The fee plan of `amount` in `currency`: gross, fees, who bears them, in USD with 2 decimals. */
export function feePlanOf(ctx: Ctx, input: FeePlanInput): FeePlan {
  const gross = input.amounts.reduce((sum, a) => sum + usdWad(ctx, a.currency, a.amount), 0n)
  const bearer = input.defaultFeeBearer ?? 'payer'
  const fees: FeePlan['fees'] = []
  let totalFees = 0n
  let platform = 0n
  if (input.feePercentage && input.feeAddress && Number(input.feePercentage) > 0) {
    // percentage with up to 18 decimals: gross × p / 100
    const fee = (gross * toBaseUnits(input.feePercentage, 18)) / (100n * 10n ** 18n)
    platform = fee
    totalFees += fee
    fees.push({
      type: 'platform',
      label: 'Platform fee',
      feeBearer: bearer,
      feeBearerSource: input.defaultFeeBearer ? 'payment_default_override' : 'flow_default',
      percentageBps: Math.round(Number(input.feePercentage) * 100),
      capUsd: null,
      fixedAmountUsd: null,
      calculatedAmountUsd: formatWadFixed(fee, 2),
      destinationResolver: 'fee_address',
      destinationRef: { evmAddress: input.feeAddress },
      configSource: 'request',
    })
  }
  // the platform fee follows the bearer
  let payerFees = bearer === 'payer' ? platform : 0n
  let payeeFees = bearer === 'payee' ? platform : 0n
  if (input.network === 'tron') {
    // the resource fee is always the payer's
    const fixed = toWad(TRON_RESOURCE_FEE_USD)
    totalFees += fixed
    payerFees += fixed
    fees.push({
      type: 'tron_resource',
      label: 'Tron resource fee',
      feeBearer: 'payer',
      feeBearerSource: 'forced_fee_policy',
      percentageBps: 0,
      capUsd: null,
      fixedAmountUsd: TRON_RESOURCE_FEE_USD,
      calculatedAmountUsd: TRON_RESOURCE_FEE_USD,
      destinationResolver: 'request_network_treasury',
      destinationRef: { tronAddress: TRON_RESOURCE_TREASURY },
      configSource: 'network_policy',
    })
  }
  if (input.orchestrator) {
    fees.push(...input.orchestrator.components)
    payerFees += input.orchestrator.payerUsd
    payeeFees += input.orchestrator.payeeUsd
    totalFees += input.orchestrator.payerUsd + input.orchestrator.payeeUsd
  }
  return {
    version: 1,
    flow: input.flow,
    defaultFeeBearer: bearer,
    grossAmountUsd: formatWadFixed(gross, 2),
    netRecipientAmountUsd: formatWadFixed(gross - payeeFees, 2),
    payerTotalAmountUsd: formatWadFixed(gross + payerFees, 2),
    totalFeesUsd: formatWadFixed(totalFees, 2),
    payeeBorneFeesUsd: formatWadFixed(payeeFees, 2),
    payerBorneFeesUsd: formatWadFixed(payerFees, 2),
    fees,
  }
}

/**
 * The plan of items about to be created (or previewed) under the caller: the platform fee it carries (`fee`, the
 * caller's client-ID fee applied) and the orchestrator fees `pricing` fixed for the items (paired authentication:
 * client-ID override, else orchestrator default; payer-borne on top, recipient-borne deducted; USD caps).
 */
export function pricedFeePlan(
  ctx: Ctx,
  input: {
    network: string
    flow: FeePlan['flow']
    /** per item, what it is worth before recipient-borne orchestrator fees */
    grossAmounts: { amount: string; currency: string }[]
    fee: ReturnType<typeof effectiveFee>
    pricing?: OrchestratorPricing | undefined
    defaultFeeBearer?: FeePlan['defaultFeeBearer'] | undefined
  },
): FeePlan {
  return feePlanOf(ctx, {
    network: input.network,
    amounts: input.grossAmounts,
    flow: input.flow,
    feePercentage: input.fee.feePercentage ?? null,
    feeAddress: input.fee.feeAddress ?? null,
    ...(input.defaultFeeBearer ? { defaultFeeBearer: input.defaultFeeBearer } : {}),
    ...(input.pricing?.orchestratorId
      ? { orchestrator: orchestratorFeeComponents(ctx, input.grossAmounts, input.pricing.fees) }
      : {}),
  })
}

/**
 * `POST /v2/secure-payments/fees/preview`: the plan creation would compute for the caller, with nothing stored (the
 * caller's client-ID fee, if any; with paired authentication, the orchestrator fees creation would fix).
 */
export function previewFeePlan(
  ctx: Ctx,
  body: {
    amount: string
    currency: string
    flow: FeePlan['flow']
    defaultFeeBearer?: FeePlan['defaultFeeBearer'] | undefined
  },
): FeePlan {
  const currency =
    ctx.currencies.byId(body.currency) ??
    ctx.currencies.all.find((c) => c.symbol === body.currency && c.type !== 'ISO4217')
  if (!currency || currency.type === 'ISO4217')
    throw new SecurePaymentRequestError(`Unsupported currency ${body.currency}`)
  const grossAmounts = [{ amount: body.amount, currency: currency.id }]
  return pricedFeePlan(ctx, {
    network: currency.network,
    flow: body.flow,
    grossAmounts,
    fee: effectiveFee(ctx, {}), // the fee creation would apply: the caller's client-ID fee, if any
    pricing: priceOrchestratorFees(ctx, body.flow, grossAmounts),
    defaultFeeBearer: body.defaultFeeBearer,
  })
}
