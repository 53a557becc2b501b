// Batch payouts (POST /v2/payouts/batch): several requests, created here or existing, paid in one transaction through
// Request Network's BatchConversionPayments (batchPayments: ERC-20 requests as paymentNetworkId 2 through
// ERC20FeeProxy, native ones as 3 through EthereumFeeProxy), so every request is detected from its own proxy log.
// Differences from the real service: requests with conversion (invoice currency other than the payment currency)
// are refused; the batch fee is the contract's constructor value (0) and no USD fee limit path is sent; the
// transaction is answered as `batchPaymentTransaction`, the key of the service's examples and of real clients,
// not the `ERC20BatchPaymentTransaction`/`ETHBatchPaymentTransaction` of its schema.
import { type Address, encodeFunctionData, type Hex, maxUint256 } from 'viem'
import { batchConversionPaymentsAbi, currentGasPrice, erc20Abi } from '../../chain/index.ts'
import { bigNumberJson, feeUnits } from '../../contract/amounts.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import { OneFieldError } from '../../contract/sandbox-error.ts'
import { effectiveFee } from '../client-ids/index.ts'
import { NO_FEE_ADDRESS } from '../pay/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { createRequest, getRequest, remainingUnits, startListening } from '../requests/index.ts'
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

/** paymentNetworkId values of BatchConversionPayments.batchPayments. */
const BATCH_MULTI_ERC20 = 2n
const BATCH_NATIVE = 3n
/** Gas the sandbox budgets per step when it checks a batch payer's funding (approve, then one batchPayments). */
const GAS = { approve: 60_000n, batch: 250_000n }

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

function refuseConversion(invoiceCurrency: string, paymentCurrency: string) {
  if (invoiceCurrency === paymentCurrency) return
  throw new BatchNotPossibleError(
    `Conversion payments (${invoiceCurrency} invoiced, paid in ${paymentCurrency}) are not available in batches in this sandbox version`,
  )
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
    refuseConversion(invoice.id, payment.id)
    networks.add(payment.network)
  })
  for (const record of existing) refuseConversion(record.invoiceCurrency, record.paymentCurrency)
  if (networks.size > 1) throw new MixedNetworksError()
  const network = [...networks][0]!
  if (network === 'tron') {
    throw new BatchNotPossibleError(
      'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
    )
  }
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

function batchContract(ctx: Ctx, network: string): Address {
  const address =
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
  const perToken = new Map<Address, bigint>()
  let value = 0n
  for (const record of records) {
    const amount = remainingUnits(ctx, record)
    if (amount <= 0n) throw new BatchNotPossibleError(`Request ${record.requestId} has already been paid`)
    const fee = feeUnits(amount, feeAsked.feePercentage)
    const currency = ctx.currencies.byId(record.paymentCurrency)!
    const detail = {
      recipient: getAddress(record.paymentAddress),
      requestAmount: amount,
      path: [] as Address[],
      paymentReference: record.paymentReference as Hex,
      feeAmount: fee,
      maxToSpend: 0n,
      maxRateTimespan: 0n,
    }
    if (currency.type === 'ETH') {
      native.push(detail)
      value += amount + fee
    } else {
      const token = getAddress(currency.address!)
      erc20.push({ ...detail, path: [token] })
      perToken.set(token, (perToken.get(token) ?? 0n) + amount + fee)
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
  const metaDetails = [
    ...(erc20.length ? [{ paymentNetworkId: BATCH_MULTI_ERC20, requestDetails: erc20 }] : []),
    ...(native.length ? [{ paymentNetworkId: BATCH_NATIVE, requestDetails: native }] : []),
  ]
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
    hasEnoughGas = native >= value + (BigInt(approvals.length) * GAS.approve + GAS.batch) * gasPrice
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
