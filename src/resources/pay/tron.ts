// Pay a Tron request: the request's TRC-20 steps in the Tron form (src/tron/steps.ts), the approvals and the
// readiness of TRX, energy and bandwidth read by src/tron/readiness.ts. A request invoiced in fiat is priced in
// its token by tron-conversion.ts. The payer-borne orchestrator fees a request captured are TRC-20 transfers to the
// configs' Tron addresses, before the payment.
import { encodeFunctionData } from 'viem'
import { erc20Abi, erc20FeeProxyAbi } from '../../chain/index.ts'
import { feeUnits, fromBaseUnits } from '../../contract/amounts.ts'
import { TRON_FEE_LIMIT, toEvmAddress, tronReadiness, tronStep } from '../../tron/index.ts'
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
import type { TronPayResponse } from './schema.ts'
import { quoteTronConversion } from './tron-conversion.ts'

type Ctx = Uses<PayServiceNames>

const PAY = 'transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)'
const TRANSFER = 'transfer(address,uint256)'

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
  const {
    approvals,
    hasEnoughBalance,
    hasEnoughGas,
    nativeBalance,
    freeBandwidth,
    energy,
    bandwidth,
    feeSun,
  } = await tronReadiness({
    chain,
    wallet,
    token,
    proxy,
    pulled: amount + fee,
    before: feeSteps,
    sent: feeTotal,
    payment,
  })
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
