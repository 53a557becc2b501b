// Differences from the real service: `_maxToSpend` (and the value of an ETH conversion) carries a fixed
// slippage allowance of SLIPPAGE_BPS over the rate the chain quotes now; the real service's allowance is
// not documented. `_maxRateTimespan` is 0 (no staleness check), as Request Network's payment processor sends.
import { type Address, encodeFunctionData, getAddress } from 'viem'
import { erc20ConversionProxyAbi, ethConversionProxyAbi, readConversion } from '../../chain/index.ts'
import { bigNumberJson, feeUnits } from '../../contract/amounts.ts'
import { mulWad, unitsToWad, wadToUnits } from '../../contract/decimal.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { amountToPay } from './amount.ts'
import { approveTransaction, NO_FEE_ADDRESS, type ServiceTransaction } from './calldata.ts'
import { PaymentNotPossibleError } from './errors.ts'
import { evmFeeTransfers, payerFeeUnits } from './orchestrator-fees.ts'
import type { PayOptions } from './pay-options.ts'

type Ctx = Uses<
  'chains' | 'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'
>

/** Slippage allowed between the quote and the payment, in basis points (2%). */
export const SLIPPAGE_BPS = 200n
/** Decimals Chainlink uses for fiat: request amounts in fiat are padded to them on chain. */
export const CHAINLINK_FIAT_DECIMALS = 8

/** A request amount as the conversion proxies take it: fiat padded to 8 decimals, tokens as they are. */
export function padForChainlink(units: bigint, currency: { type: string; decimals: number }): bigint {
  return currency.type === 'ISO4217'
    ? units * 10n ** BigInt(CHAINLINK_FIAT_DECIMALS - currency.decimals)
    : units
}

/** The on-chain terms of one conversion payment, priced as the chain quotes them now. */
export interface ConversionQuote {
  /** `_path` of the conversion proxies: [invoice currency hash, payment token or native hash] */
  path: readonly Address[]
  /** the conversion proxy of the stack the caller's world pays through */
  proxy: Address
  /** the amount paid now in the invoice currency's base units (unpadded) */
  invoiceUnits: bigint
  /** amount and fee in the invoice currency, as the proxies take them (fiat padded to 8 decimals) */
  requestAmount: bigint
  feeAmount: bigint
  feeAddress: Address
  /** payment-currency base units the chain converts amount + fee to now */
  quoted: bigint
  /** `_maxToSpend`: the quote plus the slippage allowance */
  maxToSpend: bigint
}

/**
 * Prices a conversion payment of `record`: what remains (or `options.amount`), the caller's fee, quoted by the
 * ChainlinkConversionPath of the stack the world pays through (single payments and batch rows alike).
 */
export async function quoteConversion(
  ctx: Ctx,
  record: RequestRecord,
  options: Pick<PayOptions, 'amount' | 'feePercentage' | 'feeAddress'>,
): Promise<ConversionQuote> {
  const invoice = ctx.currencies.byId(record.invoiceCurrency)!
  const paid = ctx.currencies.byId(record.paymentCurrency)!
  const route = ctx.conversion.route(invoice.id, paid.id)
  if (!route) throw new PaymentNotPossibleError(`No conversion route from ${invoice.id} to ${paid.id}`)
  const stack = ctx.conversion.stackFor(ctx.world, record.network)
  const proxy = paid.type === 'ETH' ? stack?.ethProxy : stack?.erc20Proxy
  if (!stack || !proxy)
    throw new PaymentNotPossibleError(`No conversion proxy for ${paid.id} on ${record.network}`)
  const amount = amountToPay(ctx, record, options, invoice)
  const feeAsked = effectiveFee(ctx, options) // a client ID's own fee overrides the API-passed one
  const fee = feeUnits(amount, feeAsked.feePercentage)
  const requestAmount = padForChainlink(amount, invoice)
  const feeAmount = padForChainlink(fee, invoice)
  const feeAddress = feeAsked.feeAddress ? getAddress(feeAsked.feeAddress) : NO_FEE_ADDRESS
  const quoted = await convertToPaid(ctx, record, amount + fee)
  const maxToSpend = (quoted * (10_000n + SLIPPAGE_BPS) + 9_999n) / 10_000n
  return {
    path: route.path,
    proxy,
    invoiceUnits: amount,
    requestAmount,
    feeAmount,
    feeAddress,
    quoted,
    maxToSpend,
  }
}

/**
 * `units` of `record`'s invoice currency in its payment currency's base units, converted as its payment is: by the
 * ChainlinkConversionPath of the stack the world pays through (at the sandbox's rate, rounded up, without a chain).
 */
export async function convertToPaid(ctx: Ctx, record: RequestRecord, units: bigint): Promise<bigint> {
  const invoice = ctx.currencies.byId(record.invoiceCurrency)!
  const paid = ctx.currencies.byId(record.paymentCurrency)!
  const route = ctx.conversion.route(invoice.id, paid.id)
  const stack = ctx.conversion.stackFor(ctx.world, record.network)
  if (!route || !stack)
    throw new PaymentNotPossibleError(`No conversion route from ${invoice.id} to ${paid.id}`)
  const chain = ctx.chains.get(record.network)
  if (chain) return readConversion(chain, stack.path, padForChainlink(units, invoice), route.path)
  const rate = ctx.conversion.rate(ctx.world, invoice.id, paid.id)!
  return wadToUnits(mulWad(unitsToWad(units, invoice.decimals), rate), paid.decimals) + 1n
}

/** What a conversion payment will cost, and the transactions that make it. */
export interface ConversionPlan {
  transactions: ServiceTransaction[]
  needsApproval: boolean
  /** payment-currency base units the chain converts amount + fee to now */
  quoted: bigint
  maxToSpend: bigint
  /** payment-currency base units of the payer-borne orchestrator fees, sent in their own transfers */
  orchestratorFees: bigint
  proxy: Address
  token: Address | null
}

/**
 * Builds an Erc20ConversionProxy / EthConversionProxy payment: amount and fee in the invoice currency (fiat
 * padded to 8 decimals), path [invoice, payment], `_maxToSpend` = the chain's quote plus slippage.
 */
export async function planConversion(
  ctx: Ctx,
  record: RequestRecord,
  query: PayOptions,
  wallet: Address | null,
): Promise<ConversionPlan> {
  const paid = ctx.currencies.byId(record.paymentCurrency)!
  const quote = await quoteConversion(ctx, record, query)
  const { proxy, requestAmount, feeAmount, feeAddress, quoted, maxToSpend, path } = quote
  const chain = ctx.chains.get(record.network)
  const to = getAddress(record.paymentAddress)
  const reference = record.paymentReference as `0x${string}`
  // the payer-borne orchestrator fees, priced in the invoice currency and converted as the payment is, go out first
  const invoice = ctx.currencies.byId(record.invoiceCurrency)!
  const fees = await Promise.all(
    payerFeeUnits(ctx, record, invoice, quote.invoiceUnits, 'evm').map(async (fee) => ({
      address: fee.address,
      units: await convertToPaid(ctx, record, fee.units),
    })),
  )
  const feeTransfers = evmFeeTransfers(fees, paid)
  const orchestratorFees = fees.reduce((sum, fee) => sum + fee.units, 0n)
  if (paid.type === 'ETH') {
    const data = encodeFunctionData({
      abi: ethConversionProxyAbi,
      functionName: 'transferWithReferenceAndFee',
      args: [to, requestAmount, path, reference, feeAmount, feeAddress, 0n],
    })
    return {
      transactions: [...feeTransfers, { to: proxy, data, value: bigNumberJson(maxToSpend) }],
      needsApproval: false,
      quoted,
      maxToSpend,
      orchestratorFees,
      proxy,
      token: null,
    }
  }
  const token = getAddress(paid.address)
  const needsApproval = chain && wallet ? (await chain.allowance(token, wallet, proxy)) < maxToSpend : true
  const data = encodeFunctionData({
    abi: erc20ConversionProxyAbi,
    functionName: 'transferFromWithReferenceAndFee',
    args: [to, requestAmount, path, reference, feeAmount, feeAddress, maxToSpend, 0n],
  })
  return {
    transactions: [
      ...(needsApproval ? [approveTransaction(token, proxy)] : []),
      ...feeTransfers,
      { to: proxy, data, value: bigNumberJson(0n) },
    ],
    needsApproval,
    quoted,
    maxToSpend,
    orchestratorFees,
    proxy,
    token,
  }
}
