// Pay a Tron request: TRC-20 steps in the Tron form (contract `T…`, calldata, TronWeb's functionSelector, parameter
// and feeLimit) and readiness of TRX, energy and bandwidth read from the sandbox's Tron node. USDT on Tron refuses to
// approve from a non-zero allowance, so a short allowance is reset to 0 before the max approval (the service's
// "max-allowance approval pattern"). A request invoiced in fiat is priced in its token by tron-conversion.ts. The
// payer-borne orchestrator fees a request captured are TRC-20 transfers to the configs' Tron addresses, before the
// payment.
import { type Address, encodeFunctionData, maxUint256 } from 'viem'
import { erc20Abi, erc20FeeProxyAbi } from '../../chain/index.ts'
import { feeUnits, fromBaseUnits } from '../../contract/amounts.ts'
import { BANDWIDTH_PRICE_SUN, ENERGY_PRICE_SUN, toEvmAddress, toTronAddress } from '../../tron/index.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { isTronConversion, startListening } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { amountToPay } from './amount.ts'
import { NO_FEE_ADDRESS } from './calldata.ts'
import { PaymentNotPossibleError } from './errors.ts'
import { payerFeeUnits } from './orchestrator-fees.ts'
import type { PayOptions, PayServiceNames } from './pay-options.ts'
import type { TronPayResponse, TronTransaction } from './schema.ts'
import { quoteTronConversion } from './tron-conversion.ts'

type Ctx = Uses<PayServiceNames>

/** fee_limit of each step (sun): 100 TRX, well above what a TRC-20 approve or payment burns */
export const TRON_FEE_LIMIT = 100_000_000
/** energy budgeted for a step the node cannot simulate yet (the payment before its approval), measured, rounded up */
const PAYMENT_ENERGY = 60_000n

const APPROVE = 'approve(address,uint256)'
const PAY = 'transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)'
const TRANSFER = 'transfer(address,uint256)'

/** One Tron step of the API: the contract `T…`, the calldata and TronWeb's trigger arguments. */
export function tronStep(contract: Address, functionSelector: string, data: `0x${string}`): TronTransaction {
  return {
    to: toTronAddress(contract),
    data,
    value: 0,
    functionSelector,
    parameter: data.slice(10),
    feeLimit: TRON_FEE_LIMIT,
  }
}

/** Builds the Tron steps of a request paid in its own TRC-20 currency. */
export async function buildTronPayment(
  ctx: Ctx,
  record: RequestRecord,
  query: PayOptions,
  currency: CurrencyFixture,
): Promise<TronPayResponse> {
  const chain = ctx.chains.get('tron') ?? null
  const proxyAddress = chain?.contracts.ERC20FeeProxy ?? ctx.networks.tron?.contracts.ERC20FeeProxy
  if (!proxyAddress) throw new PaymentNotPossibleError('ERC20FeeProxy is not deployed on tron')
  const proxy = toEvmAddress(proxyAddress)
  const token = toEvmAddress(currency.address)
  const feeAsked = effectiveFee(ctx, query)
  // a request invoiced in fiat is priced in its token now (tron-conversion.ts); else it owes its own currency
  const quote = isTronConversion(record) ? quoteTronConversion(ctx, record, query, currency) : null
  const amount = quote?.amount ?? amountToPay(ctx, record, query, currency)
  const fee = quote?.fee ?? feeUnits(amount, feeAsked.feePercentage)
  const feeAddress = feeAsked.feeAddress ? toEvmAddress(feeAsked.feeAddress) : NO_FEE_ADDRESS
  const to = toEvmAddress(record.paymentAddress)
  const walletInput = query.wallet ?? record.payer
  const wallet = walletInput ? toEvmAddress(walletInput) : null
  const approve = (value: bigint) =>
    tronStep(
      token,
      APPROVE,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [proxy, value] }),
    )
  const payment = tronStep(
    proxy,
    PAY,
    encodeFunctionData({
      abi: erc20FeeProxyAbi,
      functionName: 'transferFromWithReferenceAndFee',
      args: [token, to, amount, record.paymentReference as `0x${string}`, fee, feeAddress],
    }),
  )
  // the payer-borne orchestrator fees (to the configs' Tron addresses) go out before the payment, priced in the
  // currency the request counts in and converted as the payment is
  const invoice = ctx.currencies.byId(record.invoiceCurrency)!
  const orchestratorFees = (
    quote
      ? payerFeeUnits(ctx, record, invoice, quote.invoiceUnits, 'tron').map((f) => ({
          ...f,
          units: quote.convert(f.units),
        }))
      : payerFeeUnits(ctx, record, currency, amount, 'tron')
  ).map((f) => ({
    units: f.units,
    step: tronStep(
      token,
      TRANSFER,
      encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [toEvmAddress(f.address), f.units],
      }),
    ),
  }))
  const feeSteps = orchestratorFees.map((f) => f.step)
  const feeTotal = orchestratorFees.reduce((sum, f) => sum + f.units, 0n)
  const node = chain?.tron ?? null
  let approvals: TronTransaction[] = [approve(maxUint256)]
  let hasEnoughBalance = true
  let hasEnoughGas = true
  let nativeBalance: string | null = null
  let freeBandwidth: number | null = null
  let energy = 0n
  let bandwidth = 0
  let feeSun = 0n
  if (chain && node && wallet) {
    const [balance, allowance, resources] = await Promise.all([
      chain.balanceOf(token, wallet),
      chain.allowance(token, wallet, proxy),
      node.resources(wallet),
    ])
    if (allowance >= amount + fee) approvals = []
    else if (allowance > 0n) approvals = [approve(0n), approve(maxUint256)]
    hasEnoughBalance = balance >= amount + fee + feeTotal
    const steps = [...approvals, ...feeSteps, payment]
    // a step the chain cannot run yet (after an approval still to come) counts the fixed budget
    const energies = await Promise.all(
      steps.map((s) =>
        s === payment && approvals.length
          ? Promise.resolve(PAYMENT_ENERGY)
          : node.estimateEnergy(wallet, toEvmAddress(s.to), s.data as `0x${string}`),
      ),
    )
    energy = energies.reduce((a, b) => a + (b || PAYMENT_ENERGY), 0n)
    let free = resources.freeBandwidth
    for (const s of steps) {
      const bytes = node.bandwidthOf(wallet, toEvmAddress(s.to), s.data as `0x${string}`)
      bandwidth += bytes
      if (bytes <= free) free -= bytes
      else feeSun += BigInt(bytes) * BANDWIDTH_PRICE_SUN
    }
    feeSun += energy * ENERGY_PRICE_SUN
    hasEnoughGas = resources.balanceSun >= feeSun
    nativeBalance = fromBaseUnits(resources.balanceSun, 6)
    freeBandwidth = resources.freeBandwidth
  }
  const transactions = [...approvals, ...feeSteps, payment]
  await quote?.keep()
  await startListening(ctx, record)
  return {
    transactions,
    metadata: {
      stepsRequired: transactions.length,
      needsApproval: approvals.length > 0,
      approvalTransactionIndex: approvals.length ? 0 : null,
      paymentTransactionIndex: transactions.length - 1,
      hasEnoughBalance,
      hasEnoughGas,
      network: 'tron',
      nativeBalance,
      estimatedNetworkFee: fromBaseUnits(feeSun, 6),
      energyRequired: Number(energy),
      bandwidthRequired: bandwidth,
      freeBandwidth,
      approvalFeeLimit: approvals.length ? String(TRON_FEE_LIMIT) : null,
      paymentFeeLimit: String(TRON_FEE_LIMIT),
    },
  }
}
