// Which source a crosschain pay query names, and the requests a crosschain payment cannot settle (the service's
// documented FAU refusal generalised to every non-stablecoin, mainnets only, both chains running in the sandbox).
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { PaymentNotPossibleError } from './errors.ts'

type Ctx = Uses<'chains' | 'currencies'>

/** The `chain` values of the pay query and the networks they name. */
export const CHAIN_TO_NETWORK: Readonly<Record<string, string>> = {
  BASE: 'base',
  OPTIMISM: 'optimism',
  ARBITRUM: 'arbitrum-one',
  ETHEREUM: 'mainnet',
  POLYGON: 'matic',
  BNB: 'bsc',
}
const MAINNETS = new Set(Object.values(CHAIN_TO_NETWORK))
/** Destination currencies a cross-chain payment can settle in (USDT0 is Tether's token where USDT is bridged). */
const CROSSCHAIN_SYMBOLS = new Set(['USDC', 'USDT', 'USDT0'])
/** The options of the pay query this module reads. */
export interface CrosschainQuery {
  wallet?: string
  chain?: string
  token?: string
  clientUserId?: string
  feePercentage?: string
  feeAddress?: string
  /** fees a secure payment link fixed at creation (PayOptions.feeLegs), moved beside the payment */
  feeLegs?: { address: string; amount: bigint }[]
}

/** The source currency named by `chain` + `token` when it differs from the request's; null for a same-chain payment. */
export function crosschainSource(
  ctx: Ctx,
  record: RequestRecord,
  query: CrosschainQuery,
): { network: string; currency: CurrencyFixture | undefined } | null {
  if (!query.chain || !query.token) return null
  const network = CHAIN_TO_NETWORK[query.chain] ?? query.chain.toLowerCase()
  const onNetwork = ctx.currencies.all.filter((c) => c.network === network && c.type === 'ERC20')
  const currency =
    onNetwork.find((c) => c.symbol === query.token) ??
    (query.token === 'USDT' ? onNetwork.find((c) => c.symbol === 'USDT0') : undefined)
  if (currency?.id === record.paymentCurrency) return null
  return { network, currency }
}

/**
 * Refuses a crosschain payment of `record` from `sourceNetwork` that the sandbox cannot settle, with the reason.
 * `available` says which networks count as there (by default those running; the routes list also counts those a
 * call starts on first use).
 */
export function refuseCrosschain(
  ctx: Ctx,
  record: RequestRecord,
  destination: CurrencyFixture,
  sourceNetwork: string,
  available: (network: string) => boolean = (network) => ctx.chains.has(network),
) {
  if (!CROSSCHAIN_SYMBOLS.has(destination.symbol)) {
    throw new PaymentNotPossibleError(`${destination.symbol} is not supported in crosschain payment.`)
  }
  if (record.invoiceCurrency !== record.paymentCurrency) {
    throw new PaymentNotPossibleError(
      `Crosschain payment of conversion requests (${record.invoiceCurrency} invoiced, paid in ${record.paymentCurrency}) is not available in this sandbox version`,
    )
  }
  if (!MAINNETS.has(record.network)) {
    throw new PaymentNotPossibleError(
      `Crosschain payments are only available between mainnet networks; this request is paid on ${record.network}`,
    )
  }
  for (const network of [sourceNetwork, record.network]) {
    if (!available(network)) {
      const running = [...ctx.chains.keys()].join(',') || 'none'
      throw new PaymentNotPossibleError(
        `Crosschain payment needs ${network} running in this sandbox (running: ${running}); start it with --networks ${[...new Set([record.network, sourceNetwork])].join(',')}`,
      )
    }
  }
}
