// The fee resolver of secure payments: one function behind creation, the display data and POST /fees/preview.
// Differences from the real service: the only fee is the platform fee the call (or the caller's client ID) sets;
// Request Network's protocol fee is 0 in the sandbox. The payer bears it (ERC20FeeProxy sends it on top of the
// amount). USD values come from the sandbox's rates (a stablecoin without a rate counts 1:1).
import { toBaseUnits } from '../../contract/amounts.ts'
import { formatWadFixed, mulWad, toWad } from '../../contract/decimal.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { Ctx } from './context.ts'
import { SecurePaymentRequestError } from './errors.ts'
import type { FeePlan } from './schema.ts'

/** What a fee plan is computed from. */
export interface FeePlanInput {
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
  if (input.feePercentage && input.feeAddress && Number(input.feePercentage) > 0) {
    // percentage with up to 18 decimals: gross × p / 100
    const fee = (gross * toBaseUnits(input.feePercentage, 18)) / (100n * 10n ** 18n)
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
  let payerFees = bearer === 'payer' ? totalFees : 0n
  let payeeFees = bearer === 'payee' ? totalFees : 0n
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

/** `POST /v2/secure-payments/fees/preview`: the plan creation would compute (the caller's client-ID fee, if any). */
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
  const fee = effectiveFee(ctx, {}) // the fee creation would apply: the caller's client-ID fee, if any
  return feePlanOf(ctx, {
    amounts: [{ amount: body.amount, currency: currency.id }],
    flow: body.flow,
    feePercentage: fee.feePercentage ?? null,
    feeAddress: fee.feeAddress ?? null,
    ...(body.defaultFeeBearer ? { defaultFeeBearer: body.defaultFeeBearer } : {}),
  })
}
