// Batch payouts (POST /v2/payouts/batch): several requests, created here or existing, paid in one transaction through
// Request Network's BatchConversionPayments (batchPayments), so every request is detected from its own proxy log:
// ERC-20 requests as paymentNetworkId 2 through ERC20FeeProxy, native ones as 3 through EthereumFeeProxy, and
// conversion requests (api-features/batch-payments.mdx: "Mixed Payment Types: Support ERC20, native tokens, and
// conversion payments in the same batch") as 0 through Erc20ConversionProxy and 4 through EthConversionProxy, each
// row priced as a single conversion payment is (the pay resource's `quoteConversion`: the chain's quote plus the
// slippage allowance as `maxToSpend`; the batch contract sends back what a row did not spend).
// Differences from the real service: the batch fee is the contract's constructor value (0) and no USD fee limit path
// is sent; the transaction is answered as `batchPaymentTransaction`, the key of the service's examples and of real
// clients, not the `ERC20BatchPaymentTransaction`/`ETHBatchPaymentTransaction` of its schema.
import { type Address, encodeFunctionData, type Hex, maxUint256 } from 'viem'
import { batchConversionPaymentsAbi, currentGasPrice, erc20Abi } from '../../chain/index.ts'
import { bigNumberJson, feeUnits } from '../../contract/amounts.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import { OneFieldError } from '../../contract/sandbox-error.ts'
import { effectiveFee } from '../client-ids/index.ts'
import { NO_FEE_ADDRESS, quoteConversion } from '../pay/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { createRequest, getRequest, isConversion, remainingUnits, startListening } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { BatchNotPossibleError, MixedNetworksError } from './errors.ts'
import type { BatchPayoutBody, BatchPayoutResponse } from './schema.ts'

/** The services a batch payout uses (its route declares the same). */
export type BatchServiceNames =
  | 'chains'
  | 'conversion'
  | 'currencies'
  | 'events'
  | 'ids'
  | 'networks'
  | 'offrampAddress'
  | 'paymentReferences'
type Ctx = Uses<BatchServiceNames>

/** paymentNetworkId values of BatchConversionPayments.batchPayments (4 must come last: the contract says so). */
const BATCH_ERC20_CONVERSION = 0n
const BATCH_MULTI_ERC20 = 2n
const BATCH_NATIVE = 3n
const BATCH_NATIVE_CONVERSION = 4n
/**
 * Gas the sandbox budgets per step when it checks a batch payer's funding (approve, then one batchPayments, plus
 * what each conversion row adds: the path's feed reads and the conversion proxy's call).
 */
const GAS = { approve: 60_000n, batch: 250_000n, conversionRow: 150_000n }

/** Whether the payer can fund a batch: token balances, native value, and gas for the approvals + batch. */
export interface BatchFunding {
  hasEnoughBalance: boolean
  hasEnoughGas: boolean
  canMakePayment: boolean
}

interface RequestDetail {
  recipient: Address
  requestAmount: bigint
  path: Address[]
  paymentReference: Hex
  feeAmount: bigint
  maxToSpend: bigint
  maxRateTimespan: bigint
}

/** Refuses, before anything is stored, a conversion row the sandbox has no route or proxy for (as /pay would). */
function refuseUnpayableConversion(ctx: Ctx, invoiceCurrency: string, paymentCurrency: string) {
  if (invoiceCurrency === paymentCurrency) return
  const payment = ctx.currencies.byId(paymentCurrency)!
  if (!ctx.conversion.route(invoiceCurrency, payment.id)) {
    throw new BatchNotPossibleError(`No conversion route from ${invoiceCurrency} to ${payment.id}`)
  }
  const stack = ctx.conversion.stackFor(ctx.world, payment.network)
  if (!(payment.type === 'ETH' ? stack?.ethProxy : stack?.erc20Proxy)) {
    throw new BatchNotPossibleError(`No conversion proxy for ${payment.id} on ${payment.network}`)
  }
}

/** The network every item pays on; refuses unknown or fiat currencies and mixed networks before anything is stored. */
function batchNetwork(ctx: Ctx, body: BatchPayoutBody, existing: RequestRecord[]): string {
  const networks = new Set(existing.map((r) => r.network))
  body.requests?.forEach((item, i) => {
    const invoice = ctx.currencies.byId(item.invoiceCurrency)
    if (!invoice)
      throw new OneFieldError(`requests.${i}.invoiceCurrency`, `Currency ${item.invoiceCurrency} not found`)
    const payment = ctx.currencies.byId(item.paymentCurrency)
    if (!payment)
      throw new OneFieldError(`requests.${i}.paymentCurrency`, `Currency ${item.paymentCurrency} not found`)
    if (payment.type === 'ISO4217') {
      throw new OneFieldError(
        `requests.${i}.paymentCurrency`,
        `${payment.id} is a fiat currency and cannot be a payment currency`,
      )
    }
    networks.add(payment.network)
  })
  if (networks.size > 1) throw new MixedNetworksError()
  const network = [...networks][0]!
  if (network === 'tron') {
    throw new BatchNotPossibleError(
      'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
    )
  }
  for (const item of body.requests ?? [])
    refuseUnpayableConversion(ctx, item.invoiceCurrency, item.paymentCurrency)
  for (const record of existing)
    refuseUnpayableConversion(ctx, record.invoiceCurrency, record.paymentCurrency)
  return network
}

function existingRequests(ctx: Ctx, ids: string[]): RequestRecord[] {
  const seen = new Set<string>()
  return ids.map((id) => {
    const record = getRequest(ctx, id)
    if (seen.has(record.requestId))
      throw new BatchNotPossibleError(`requestIds lists ${record.requestId} twice`)
    seen.add(record.requestId)
    return record
  })
}

/**
 * The batch contract of the conversion stack the caller's world pays through (wired to that stack's conversion
 * proxies), else the network's published one.
 */
function batchContract(ctx: Ctx, network: string): Address {
  const address =
    ctx.conversion.stackFor(ctx.world, network)?.batch ??
    ctx.chains.get(network)?.contracts.BatchConversionPayments ??
    ctx.networks[network]?.contracts.BatchConversionPayments
  if (!address) throw new BatchNotPossibleError(`Batch payments are not available on ${network}`)
  return getAddress(address)
}

/** Creates (or reads) the requests of a batch and answers its approvals and its one batchPayments transaction. */
export async function buildBatchPayout(ctx: Ctx, body: BatchPayoutBody): Promise<BatchPayoutResponse> {
  return (await planBatchPayout(ctx, body)).response
}

/**
 * The batch of buildBatchPayout with the payer's funding read from the chain (`body.payer`'s balances; without a
 * payer or a live chain, nothing can be read and the funding is reported true, as on the pay route).
 */
export async function buildFundedBatchPayout(
  ctx: Ctx,
  body: BatchPayoutBody,
): Promise<BatchPayoutResponse & { metadata: BatchFunding }> {
  const { response, funding } = await planBatchPayout(ctx, body)
  return { ...response, metadata: funding }
}

async function planBatchPayout(
  ctx: Ctx,
  body: BatchPayoutBody,
): Promise<{ response: BatchPayoutResponse; funding: BatchFunding }> {
  const existing = body.requestIds ? existingRequests(ctx, body.requestIds) : []
  const network = batchNetwork(ctx, body, existing)
  const to = batchContract(ctx, network)
  const records = body.requests
    ? await Promise.all(body.requests.map((item) => createRequest(ctx, { ...item, payer: body.payer })))
    : existing

  const feeAsked = effectiveFee(ctx, body) // a client ID's own fee overrides the API-passed one, as on pay
  const erc20: RequestDetail[] = []
  const native: RequestDetail[] = []
  const erc20Conversion: RequestDetail[] = []
  const nativeConversion: RequestDetail[] = []
  /** what the batch contract pulls of each token from the payer (conversion rows: their maxToSpend) */
  const perToken = new Map<Address, bigint>()
  let value = 0n
  for (const record of records) {
    const amount = remainingUnits(ctx, record)
    if (amount <= 0n) throw new BatchNotPossibleError(`Request ${record.requestId} has already been paid`)
    const currency = ctx.currencies.byId(record.paymentCurrency)!
    const recipient = getAddress(record.paymentAddress)
    const paymentReference = record.paymentReference as Hex
    const token = currency.type === 'ETH' ? null : getAddress(currency.address!)
    if (isConversion(record)) {
      // priced as a single conversion payment of what remains: amount and fee in the invoice currency
      const quote = await quoteConversion(ctx, record, body)
      const detail: RequestDetail = {
        recipient,
        requestAmount: quote.requestAmount,
        path: [...quote.path],
        paymentReference,
        feeAmount: quote.feeAmount,
        maxToSpend: quote.maxToSpend,
        maxRateTimespan: 0n,
      }
      if (token) {
        erc20Conversion.push(detail)
        perToken.set(token, (perToken.get(token) ?? 0n) + quote.maxToSpend)
      } else {
        nativeConversion.push(detail)
        value += quote.maxToSpend
      }
      continue
    }
    const fee = feeUnits(amount, feeAsked.feePercentage)
    const detail = {
      recipient,
      requestAmount: amount,
      path: [] as Address[],
      paymentReference,
      feeAmount: fee,
      maxToSpend: 0n,
      maxRateTimespan: 0n,
    }
    if (token) {
      erc20.push({ ...detail, path: [token] })
      perToken.set(token, (perToken.get(token) ?? 0n) + amount + fee)
    } else {
      native.push(detail)
      value += amount + fee
    }
  }

  const chain = ctx.chains.get(network)
  const payer = body.payer ? getAddress(body.payer) : null
  const approvals: BatchPayoutResponse['ERC20ApprovalTransactions'] = []
  for (const [token, needed] of perToken) {
    if (chain && payer && (await chain.allowance(token, payer, to)) >= needed) continue
    approvals.push({
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [to, maxUint256] }),
      to: token,
      value: 0,
    })
  }
  const groups: [bigint, RequestDetail[]][] = [
    [BATCH_ERC20_CONVERSION, erc20Conversion],
    [BATCH_MULTI_ERC20, erc20],
    [BATCH_NATIVE, native],
    [BATCH_NATIVE_CONVERSION, nativeConversion],
  ]
  const metaDetails = groups
    .filter(([, requestDetails]) => requestDetails.length > 0)
    .map(([paymentNetworkId, requestDetails]) => ({ paymentNetworkId, requestDetails }))
  const feeAddress = feeAsked.feeAddress ? getAddress(feeAsked.feeAddress) : NO_FEE_ADDRESS
  const data = encodeFunctionData({
    abi: batchConversionPaymentsAbi,
    functionName: 'batchPayments',
    // No USD paths: the fee limit is skipped (native batches need an empty list; the sandbox's batch fee is 0).
    args: [metaDetails, [], feeAddress],
  })
  let hasEnoughBalance = true
  let hasEnoughGas = true
  if (chain && payer) {
    const [native, gasPrice, ...tokens] = await Promise.all([
      chain.balanceOf('native', payer),
      currentGasPrice(chain),
      ...[...perToken].map(async ([token, needed]) => (await chain.balanceOf(token, payer)) >= needed),
    ])
    hasEnoughBalance = native >= value && tokens.every(Boolean)
    const conversionRows = BigInt(erc20Conversion.length + nativeConversion.length)
    const gas = BigInt(approvals.length) * GAS.approve + GAS.batch + conversionRows * GAS.conversionRow
    hasEnoughGas = native >= value + gas * gasPrice
  }
  for (const record of records) await startListening(ctx, record)
  return {
    response: {
      ERC20ApprovalTransactions: approvals,
      batchPaymentTransaction: { data, to, value: bigNumberJson(value) },
    },
    funding: { hasEnoughBalance, hasEnoughGas, canMakePayment: hasEnoughBalance && hasEnoughGas },
  }
}
