// Differences from the real service: without a wallet (query `wallet` or the request's `payer`), or for a
// network the sandbox does not run, nothing can be read from a chain: the approval is always included and
// hasEnoughBalance/hasEnoughGas are reported true (the OpenAPI document requires both fields). Conversion
// payments are quoted by the chain's own ChainlinkConversionPath (see conversion.ts). The crosschain variant (chain +
// token naming another network or token) lives in crosschain.ts.
import type { Address } from 'viem'
import { currentGasPrice } from '../../chain/index.ts'
import { feeUnits } from '../../contract/amounts.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import { OneFieldError } from '../../contract/sandbox-error.ts'
import { isTronAddress, TRON_NETWORK } from '../../tron/index.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { isConversion, requestState, startListening } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { amountToPay } from './amount.ts'
import {
  approveTransaction,
  erc20PaymentTransaction,
  ethPaymentTransaction,
  NO_FEE_ADDRESS,
  type ServiceTransaction,
} from './calldata.ts'
import { planConversion } from './conversion.ts'
import { buildCrosschainPayment } from './crosschain.ts'
import { crosschainSource } from './crosschain-source.ts'
import { PaymentNotPossibleError } from './errors.ts'
import { offrampChoice } from './offramp.ts'
import { payerFeeUnits, payerOrchestratorFees } from './orchestrator-fees.ts'
import type { PayOptions, PayServiceNames } from './pay-options.ts'
import type { PayResponse, SameChainPayResponse } from './schema.ts'
import { buildTronPayment } from './tron.ts'

export type { PayServiceNames }

type Ctx = Uses<PayServiceNames>

/** Gas the sandbox budgets per step when it checks `hasEnoughGas` (measured on anvil, rounded up). */
const GAS = {
  approve: 60_000n,
  erc20Payment: 110_000n,
  ethPayment: 70_000n,
  erc20Conversion: 170_000n,
  ethConversion: 140_000n,
}

function contractAddress(ctx: Ctx, network: string, name: string): Address {
  const { chains, networks } = ctx
  const live = chains.get(network)?.contracts[name]
  const published = networks[network]?.contracts[name]
  const address = live ?? published
  if (!address) throw new PaymentNotPossibleError(`${name} is not deployed on ${network}`)
  return getAddress(address)
}

/**
 * Builds the same-chain calldata of a request and reads the payer's balance, allowance and gas from the chain;
 * when chain + token name another source, issues a crosschain payment intent instead.
 */
export async function buildPayment(ctx: Ctx, record: RequestRecord, query: PayOptions): Promise<PayResponse> {
  const source = crosschainSource(ctx, record, query)
  if (source) {
    // a request's payer-borne orchestrator fees are fee legs of the intent, as a secure link's are
    const payerFees = (destination: CurrencyFixture, amount: bigint) =>
      payerFeeUnits(ctx, record, destination, amount, 'evm').map((fee) => ({
        address: fee.address,
        amount: fee.units,
      }))
    return buildCrosschainPayment(
      ctx,
      record,
      query,
      source,
      (c) => amountToPay(ctx, record, query, c),
      payerFees,
    )
  }
  const currency = ctx.currencies.byId(record.paymentCurrency)!
  if (record.network === TRON_NETWORK) return buildTronPayment(ctx, record, query, currency)
  // `T…` addresses are accepted by the schemas for Tron requests only
  for (const field of ['wallet', 'feeAddress'] as const)
    if (query[field] && isTronAddress(query[field]))
      throw new OneFieldError(field, 'Invalid Ethereum address')
  const offramp = offrampChoice(ctx, record, query, currency)
  if (offramp)
    await requestState(ctx.world).requests.update(record.requestId, (draft) => {
      draft.offramp = offramp
    })
  if (isConversion(record)) return buildConversionPayment(ctx, record, query, currency)
  const amount = amountToPay(ctx, record, query, currency)
  const feeAsked = effectiveFee(ctx, query) // a client ID's own fee overrides the API-passed one
  const fee = feeUnits(amount, feeAsked.feePercentage)
  const feeAddress = feeAsked.feeAddress ? getAddress(feeAsked.feeAddress) : NO_FEE_ADDRESS
  const reference = record.paymentReference as `0x${string}`
  // An off-ramp payment goes to the off-ramp's deposit address, with the request's reference.
  const to = getAddress(offramp ? ctx.offrampAddress : record.paymentAddress)
  const wallet = query.wallet ? getAddress(query.wallet) : record.payer ? getAddress(record.payer) : null
  const chain = ctx.chains.get(record.network) ?? null
  // the payer-borne orchestrator fees go out first, the payment stays the last transaction
  const orchestrator = payerOrchestratorFees(ctx, record, currency, amount)
  const transactions: ServiceTransaction[] = []
  let hasEnoughBalance = true
  let hasEnoughGas = true
  let needsApproval = false

  if (currency.type === 'ETH') {
    const proxy = contractAddress(ctx, record.network, 'EthereumFeeProxy')
    if (chain && wallet) {
      const [balance, gasPrice] = await Promise.all([
        chain.balanceOf('native', wallet),
        currentGasPrice(chain),
      ])
      const total = amount + fee + orchestrator.total
      hasEnoughBalance = balance >= total
      hasEnoughGas = balance >= total + GAS.ethPayment * gasPrice
    }
    transactions.push(...orchestrator.transactions)
    transactions.push(ethPaymentTransaction({ proxy, to, amount, reference, fee, feeAddress }))
  } else {
    const proxy = contractAddress(ctx, record.network, 'ERC20FeeProxy')
    const token = getAddress(currency.address!)
    needsApproval = true
    if (chain && wallet) {
      const [balance, allowance, native, gasPrice] = await Promise.all([
        chain.balanceOf(token, wallet),
        chain.allowance(token, wallet, proxy),
        chain.balanceOf('native', wallet),
        currentGasPrice(chain),
      ])
      needsApproval = allowance < amount + fee
      hasEnoughBalance = balance >= amount + fee + orchestrator.total
      hasEnoughGas = native >= ((needsApproval ? GAS.approve : 0n) + GAS.erc20Payment) * gasPrice
    }
    if (needsApproval) transactions.push(approveTransaction(token, proxy))
    transactions.push(...orchestrator.transactions)
    transactions.push(erc20PaymentTransaction({ proxy, token, to, amount, reference, fee, feeAddress }))
  }

  await startListening(ctx, record)
  return {
    transactions,
    metadata: {
      stepsRequired: transactions.length,
      needsApproval,
      approvalTransactionIndex: needsApproval ? 0 : null,
      paymentTransactionIndex: transactions.length - 1,
      hasEnoughBalance,
      hasEnoughGas,
    },
  }
}

async function buildConversionPayment(
  ctx: Ctx,
  record: RequestRecord,
  query: PayOptions,
  currency: CurrencyFixture,
): Promise<SameChainPayResponse> {
  const wallet = query.wallet ? getAddress(query.wallet) : record.payer ? getAddress(record.payer) : null
  const plan = await planConversion(ctx, record, query, wallet)
  const chain = ctx.chains.get(record.network) ?? null
  let hasEnoughBalance = true
  let hasEnoughGas = true
  if (chain && wallet) {
    const [native, gasPrice, balance] = await Promise.all([
      chain.balanceOf('native', wallet),
      currentGasPrice(chain),
      plan.token ? chain.balanceOf(plan.token, wallet) : Promise.resolve(0n),
    ])
    if (currency.type === 'ETH') {
      // The whole value (quote + slippage) is sent, the excess refunded: the wallet must hold all of it.
      hasEnoughBalance = native >= plan.maxToSpend + plan.orchestratorFees
      hasEnoughGas = native >= plan.maxToSpend + plan.orchestratorFees + GAS.ethConversion * gasPrice
    } else {
      hasEnoughBalance = balance >= plan.quoted + plan.orchestratorFees
      hasEnoughGas = native >= ((plan.needsApproval ? GAS.approve : 0n) + GAS.erc20Conversion) * gasPrice
    }
  }
  await startListening(ctx, record)
  const transactions = plan.transactions
  return {
    transactions,
    metadata: {
      stepsRequired: transactions.length,
      needsApproval: plan.needsApproval,
      approvalTransactionIndex: plan.needsApproval ? 0 : null,
      paymentTransactionIndex: transactions.length - 1,
      hasEnoughBalance,
      hasEnoughGas,
    },
  }
}
