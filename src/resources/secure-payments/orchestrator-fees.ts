// Orchestrator fees of a secure payment (orchestrators/fees.mdx): resolved when a link is created with paired
// authentication (x-orchestrator-key + the x-client-id it linked) and fixed on the link in the payment currency's
// units. A payer-borne fee is added on top of what the payer pays; a recipient-borne fee is deducted from what the
// recipient receives (the request is created for the net amount). Each reaches the config's address for the link's
// chain (its EVM address, or its Tron address on Tron; a config without it takes nothing there) in the payer's
// transactions: an ERC-20 `transfer` (or a plain value transfer for a native currency) placed before the payment, a
// TRC-20 `transfer` leg on Tron (tron-orchestrator-fees.ts).
// Difference from the real service: the fee moves in its own transfer, not through the fee proxy's one fee slot
// (which the platform fee keeps), so several fee addresses can be paid by one payer.
import { encodeFunctionData, erc20Abi } from 'viem'
import { bigNumberJson, fromBaseUnits, toBaseUnits } from '../../contract/amounts.ts'
import { divWad, formatWadFixed, mulWad, toWad, unitsToWad, wadToUnits } from '../../contract/decimal.ts'
import { isTronAddress, TRON_NETWORK } from '../../tron/index.ts'
import { hasOrchestratorPlan, resolveOrchestratorFees } from '../orchestrators/index.ts'
import type { Ctx, SecureServices } from './context.ts'
import { SecurePaymentRequestError } from './errors.ts'
import type { FeePlan, SecurePaymentRecord } from './schema.ts'

/** One orchestrator fee of one item, before its request exists. */
export interface ItemFee {
  configId: string
  feeBearer: 'payer' | 'recipient'
  bps: number
  usdCap: string | null
  configSource: 'client_id' | 'orchestrator_default'
  address: string
  units: bigint
}

/** What the link stores and its fee plan shows, for items priced in `currency`. */
export interface OrchestratorPricing {
  orchestratorId: string | null
  /** per item: the amount its request is created for (gross minus recipient-borne fees) */
  netAmounts: string[]
  /** per item: its fees */
  fees: ItemFee[][]
}

/**
 * Resolves and prices the orchestrator fees of items about to be created under the caller (nothing without paired
 * authentication): per item, bps of its amount, capped at `usdCap` converted at the sandbox's rate.
 */
export function priceOrchestratorFees(
  ctx: Ctx,
  flow: SecurePaymentRecord['flow'],
  items: { amount: string; currency: string }[],
): OrchestratorPricing {
  const orchestrator = ctx.caller?.orchestrator
  const clientId = ctx.caller?.clientId?.clientId
  const none = { orchestratorId: null, netAmounts: items.map((i) => i.amount), fees: items.map(() => []) }
  if (!orchestrator || !clientId) return none
  const world = ctx.worlds.get(orchestrator.key, ctx.world.scenario)
  const configs = world
    ? resolveOrchestratorFees(world, clientId, flow === 'get_paid' ? 'incoming' : 'outgoing')
    : []
  const netAmounts: string[] = []
  const fees = items.map((item) => {
    const currency = ctx.currencies.byId(item.currency)!
    const gross = toBaseUnits(item.amount, currency.decimals)
    const rate = ctx.conversion.rate(ctx.world, currency.id, 'USD')
    const itemFees: ItemFee[] = []
    const onTron = currency.network === TRON_NETWORK
    for (const config of configs) {
      // a fee applies on the chains it names an address for
      const address = onTron ? config.tronRecipientAddress : config.evmRecipientAddress
      if (!address) continue
      let units = (gross * BigInt(config.bps)) / 10_000n
      if (config.usdCap !== null) {
        const capWad = rate === null ? toWad(config.usdCap) : divWad(toWad(config.usdCap), rate)
        const cap = wadToUnits(capWad, currency.decimals)
        if (units > cap) units = cap
      }
      if (units === 0n) continue
      itemFees.push({
        configId: config.configId,
        feeBearer: config.feeBearer,
        bps: config.bps,
        usdCap: config.usdCap,
        configSource: config.configSource,
        address,
        units,
      })
    }
    const deducted = itemFees.filter((f) => f.feeBearer === 'recipient').reduce((s, f) => s + f.units, 0n)
    if (deducted >= gross)
      throw new SecurePaymentRequestError('Recipient-borne fees cannot reach the gross amount of a payment')
    netAmounts.push(fromBaseUnits(gross - deducted, currency.decimals))
    return itemFees
  })
  return { orchestratorId: orchestrator.id, netAmounts, fees }
}

/**
 * kyt-plans.mdx: a link's explicit screening plan cannot be overridden with `accessPolicy.mode` or
 * `accessPolicy.screeningProvider` on a paired payment or payout (400).
 */
export function refusePlanOverride(
  ctx: Ctx,
  accessPolicy: { mode?: unknown; screeningProvider?: unknown } | undefined,
): void {
  const clientId = ctx.caller?.orchestrator ? ctx.caller.clientId?.clientId : undefined
  if (!clientId || (accessPolicy?.mode === undefined && accessPolicy?.screeningProvider === undefined)) return
  if (hasOrchestratorPlan(ctx, clientId))
    throw new SecurePaymentRequestError(
      "This client ID's screening plan is set by its orchestrator: accessPolicy.mode and accessPolicy.screeningProvider cannot override it",
    )
}

/** The fee-plan components of the orchestrator fees (USD at the sandbox's rates). */
export function orchestratorFeeComponents(
  ctx: Pick<Ctx, 'conversion' | 'currencies' | 'world'>,
  items: { currency: string }[],
  fees: ItemFee[][],
): { components: FeePlan['fees']; payerUsd: bigint; payeeUsd: bigint } {
  const byConfig = new Map<string, { fee: ItemFee; usd: bigint }>()
  fees.forEach((itemFees, i) => {
    const currency = ctx.currencies.byId(items[i]!.currency)!
    const rate = ctx.conversion.rate(ctx.world, currency.id, 'USD')
    for (const fee of itemFees) {
      const wad = unitsToWad(fee.units, currency.decimals)
      const usd = rate === null ? wad : mulWad(wad, rate)
      const seen = byConfig.get(fee.configId)
      byConfig.set(fee.configId, { fee, usd: (seen?.usd ?? 0n) + usd })
    }
  })
  let payerUsd = 0n
  let payeeUsd = 0n
  const components = [...byConfig.values()].map(({ fee, usd }) => {
    if (fee.feeBearer === 'payer') payerUsd += usd
    else payeeUsd += usd
    return {
      type: 'orchestrator_fee',
      label: 'Orchestrator fee',
      feeBearer: fee.feeBearer === 'payer' ? ('payer' as const) : ('payee' as const),
      feeBearerSource: 'fee_config' as const,
      percentageBps: fee.bps,
      capUsd: fee.usdCap,
      fixedAmountUsd: null,
      calculatedAmountUsd: formatWadFixed(usd, 2),
      destinationResolver: 'orchestrator_fee_config',
      destinationRef: isTronAddress(fee.address) ? { tronAddress: fee.address } : { evmAddress: fee.address },
      configSource: fee.configSource,
    }
  })
  return { components, payerUsd, payeeUsd }
}

/** The transfers that pay a link's orchestrator fees, for the requests still to pay. */
export function orchestratorFeeTransfers(
  shared: Pick<SecureServices, 'currencies'>,
  link: SecurePaymentRecord,
  requestIds: string[],
) {
  const currency = shared.currencies.byId(link.currency)!
  return (link.orchestratorFees ?? [])
    .filter((f) => requestIds.includes(f.requestId))
    .map((f) => {
      const units = toBaseUnits(f.amount, currency.decimals)
      return currency.type === 'ETH'
        ? { to: f.address, data: '0x', value: bigNumberJson(units) }
        : {
            to: currency.address!,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transfer',
              args: [f.address as `0x${string}`, units],
            }),
            value: bigNumberJson(0n),
          }
    })
}

/** The fee bundle lines of a link's orchestrator fees. */
export function orchestratorFeeLines(shared: Pick<SecureServices, 'currencies'>, link: SecurePaymentRecord) {
  const currency = shared.currencies.byId(link.currency)!
  return (link.orchestratorFees ?? []).map((f) => ({
    requestId: f.requestId,
    feeComponentId: f.configId,
    feeType: 'orchestrator_fee',
    feeLabel: 'Orchestrator fee',
    feeBearer: f.feeBearer === 'payer' ? ('payer' as const) : ('payee' as const),
    amount: f.amount,
    paymentCurrencyId: link.currency,
    network: link.network,
    chainId: String(currency.chainId),
    recipient: f.address,
  }))
}
