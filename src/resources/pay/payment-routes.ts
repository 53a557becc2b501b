// `GET /v2/request/{requestId}/routes` (and v1 by reference): the ways a wallet can pay a request, as real clients
// ask before /pay (easy-invoice picks routes[0] and passes its chain and token back to /pay). Every route listed is
// one /pay accepts: the same-chain route, and a cross-chain route per documented mainnet source (running, or started
// by /pay's `chain` on first use) whose stablecoin the sandbox can settle. Differences from the real service: no LiFi quotes, so no price impact and a flat cross-chain
// fee; `feeInUSD` (read by clients, not in the documents) comes from the sandbox's rates.
import { isAddress } from 'viem'
import { fromBaseUnits, percentageOf } from '../../contract/amounts.ts'
import { formatWad } from '../../contract/decimal.ts'
import { BadRequestError } from '../../contract/sandbox-error.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { amountToPay } from './amount.ts'
import { CROSSCHAIN_FEE_PERCENT } from './crosschain-fee.ts'
import { CHAIN_TO_NETWORK, crosschainSource, refuseCrosschain } from './crosschain-source.ts'
import { PaymentNotPossibleError } from './errors.ts'

type Ctx = Uses<
  | 'chains'
  | 'conversion'
  | 'currencies'
  | 'events'
  | 'ids'
  | 'offrampAddress'
  | 'paymentReferences'
  | 'startsOnUse'
>

/** How long the sandbox's cross-chain settlement takes, in seconds (it lands within a second or two). */
const CROSSCHAIN_SPEED = 5

const NETWORK_TO_CHAIN: Record<string, string> = {
  sepolia: 'SEPOLIA',
  ...Object.fromEntries(Object.entries(CHAIN_TO_NETWORK).map(([chain, network]) => [network, chain])),
}

/** Query of the routes endpoints. */
export interface RoutesQuery {
  wallet?: string
  amount?: string
  feePercentage?: string
  feeAddress?: string
}

interface FeeItem {
  type: 'platform' | 'crosschain'
  stage: 'sending' | 'overall'
  provider: string
  amount: string
  amountInUSD?: string
  currency: string
  receiverAddress?: string
  network: string
}

function usd(ctx: Ctx, currency: CurrencyFixture, units: bigint): string | undefined {
  const value = ctx.conversion.usdValue(ctx.world, currency.id, units, currency.decimals)
  return value === null ? undefined : formatWad(value, 6)
}

/** One route as the documents shape it; the fee is counted in `feeCurrency` units (for `feeInUSD`). */
function route(
  ctx: Ctx,
  spec: {
    id: string
    chain: string
    token: string
    feeCurrency: CurrencyFixture
    feeUnits: bigint
    feeFraction: number
    items: FeeItem[]
    speed: 'FAST' | number
    isCryptoToFiat?: boolean
  },
) {
  const feeInUSD = usd(ctx, spec.feeCurrency, spec.feeUnits)
  return {
    id: spec.id,
    fee: spec.feeFraction,
    ...(feeInUSD !== undefined ? { feeInUSD } : {}),
    feeBreakdown: spec.items,
    speed: spec.speed,
    price_impact: 0,
    chain: spec.chain,
    token: spec.token,
    ...(spec.isCryptoToFiat ? { isCryptoToFiat: true } : {}),
  }
}

/** The routes a wallet can pay `record` by; [] when nothing remains to pay. */
export function paymentRoutes(ctx: Ctx, record: RequestRecord, query: RoutesQuery) {
  if (!query.wallet || !isAddress(query.wallet, { strict: false })) {
    throw new BadRequestError('Invalid or missing wallet address')
  }
  const { currencies, chains } = ctx
  const invoice = currencies.byId(record.invoiceCurrency)!
  const paid = currencies.byId(record.paymentCurrency)!
  let amount: bigint
  try {
    amount = amountToPay(ctx, record, query, invoice)
  } catch (error) {
    if (error instanceof PaymentNotPossibleError) return { routes: [] } // fully paid
    throw error
  }
  const asked = effectiveFee(ctx, query)
  const platformPercent = asked.feePercentage ?? '0'
  const platformUnits = percentageOf(amount, platformPercent)
  const platformItems = (network: string, currency: CurrencyFixture, units: bigint): FeeItem[] => {
    if (units === 0n) return []
    const inUsd = usd(ctx, currency, units)
    return [
      {
        type: 'platform',
        stage: 'sending',
        provider: 'request-network',
        amount: fromBaseUnits(units, currency.decimals),
        ...(inUsd !== undefined ? { amountInUSD: inUsd } : {}),
        currency: currency.symbol,
        ...(asked.feeAddress ? { receiverAddress: asked.feeAddress } : {}),
        network,
      },
    ]
  }
  const sameChainFeeCurrency = record.invoiceCurrency === record.paymentCurrency ? paid : invoice
  const routes = [
    route(ctx, {
      id: 'REQUEST_NETWORK_PAYMENT',
      chain: NETWORK_TO_CHAIN[record.network] ?? record.network.toUpperCase(),
      token: paid.symbol.split('-')[0]!,
      // a conversion request counts its amounts, hence its fee, in the invoice currency
      feeCurrency: sameChainFeeCurrency,
      feeUnits: platformUnits,
      feeFraction: Number(platformPercent) / 100,
      items: platformItems(record.network, sameChainFeeCurrency, platformUnits),
      speed: 'FAST',
      isCryptoToFiat: record.isCryptoToFiatAvailable,
    }),
  ]
  if (amount < 10n ** BigInt(paid.decimals) || record.isCryptoToFiatAvailable) return { routes }
  // every documented source: a running one, or one that /pay's `chain` starts on first use (the route is offered at
  // once; the source's anvil starts when the route is paid, not when routes are listed). The request's own network
  // runs (its currency started it).
  const available = (network: string) =>
    chains.has(network) || (network !== record.network && ctx.startsOnUse(network))
  for (const [chain, network] of Object.entries(CHAIN_TO_NETWORK)) {
    if (!available(network)) continue
    for (const token of ['USDC', 'USDT']) {
      const source = crosschainSource(ctx, record, { chain, token })
      if (!source?.currency) continue
      try {
        refuseCrosschain(ctx, record, paid, source.network, available)
      } catch {
        continue
      }
      const crosschainUnits = percentageOf(amount, CROSSCHAIN_FEE_PERCENT)
      const crosschainUsd = usd(ctx, paid, crosschainUnits)
      const items: FeeItem[] = [
        ...platformItems(source.network, paid, platformUnits),
        {
          type: 'crosschain',
          stage: 'overall',
          provider: 'request-sandbox',
          amount: fromBaseUnits(crosschainUnits, paid.decimals),
          ...(crosschainUsd !== undefined ? { amountInUSD: crosschainUsd } : {}),
          currency: source.currency.symbol,
          network: source.network,
        },
      ]
      const destinationChain = NETWORK_TO_CHAIN[record.network]!
      routes.push(
        route(ctx, {
          id: `${chain}_${destinationChain}_${token}_${paid.symbol}`,
          chain,
          // what /pay takes back (USDT names USDT0 where Tether's token is bridged)
          token,
          feeCurrency: paid,
          feeUnits: platformUnits + crosschainUnits,
          feeFraction: (Number(platformPercent) + Number(CROSSCHAIN_FEE_PERCENT)) / 100,
          items,
          speed: CROSSCHAIN_SPEED,
        }),
      )
    }
  }
  return { routes }
}
