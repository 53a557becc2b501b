// `GET /v2/secure-payments/{token}/pay`: the pay builder's calldata for the link's request (one-time pay, or one
// batchPayments transaction for a batch link), with the metadata and fee bundle the secure-payments document adds.
// Differences from the real service: the protocol fee is 0 (its address the sandbox's no-fee address); gas is
// priced at the live chain's gas price; quotes of a same-chain payment are valid 30 s. With chain + token naming
// another network, the answer is the sandbox's cross-chain intent (see pay/crosschain.ts), which the payer signs
// and sends to POST /v2/request/payment-intents/{id}; the link's orchestrator fees are fee legs of that intent.

import type { Address } from 'viem'
import { currentGasPrice } from '../../chain/index.ts'
import { fromBaseUnits, percentageOf, toBaseUnits } from '../../contract/amounts.ts'
import type { World } from '../../contract/world.ts'
import { TRON_NETWORK } from '../../tron/index.ts'
import { buildFundedBatchPayout } from '../batch-payouts/index.ts'
import { buildPayment, NO_FEE_ADDRESS } from '../pay/index.ts'
import { remainingUnits } from '../requests/index.ts'
import { inWorld } from '../services.ts'
import type { SecureServices } from './context.ts'
import { SecurePaymentCompletedError, SecurePaymentRequestError } from './errors.ts'
import { gaslessApproval } from './gasless.ts'
import { screenPayer } from './kyt.ts'
import { checkPayer, linkRequests } from './model.ts'
import { orchestratorFeeLines, orchestratorFeeTransfers } from './orchestrator-fees.ts'
import { multicallRequestIds } from './payouts.ts'
import type { MulticallRecord, SecurePaymentRecord, TokenQuery } from './schema.ts'
import { securePaymentState } from './tables.ts'
import { settledFeeClaim, tronLinkCalldata } from './tron.ts'
import { tronBatchCalldata } from './tron-batch.ts'

/** Quotes of same-chain calldata stay valid this long. */
const QUOTE_TTL_MS = 30_000
const GAS = { approve: 60_000n, payment: 110_000n, nativePayment: 70_000n }

function feeBundle(shared: SecureServices, world: World, link: SecurePaymentRecord) {
  const requests = linkRequests(world, link)
  let gross = 0n
  let fees = 0n
  const currency = shared.currencies.byId(link.currency)!
  const items = requests.map((r) => {
    const units = remainingUnits(shared, r)
    const fee = link.feePercentage ? percentageOf(units, link.feePercentage) : 0n
    gross += units
    fees += fee
    return { r, fee }
  })
  const fmt = (v: bigint) => fromBaseUnits(v, currency.decimals)
  const open = new Set(items.map((i) => i.r.requestId))
  const orchestrator = orchestratorFeeLines(shared, link).filter((l) => open.has(l.requestId))
  const sum = (bearer: 'payer' | 'payee') =>
    orchestrator
      .filter((l) => l.feeBearer === bearer)
      .reduce((s, l) => s + toBaseUnits(l.amount, currency.decimals), 0n)
  const payerOrchestrator = sum('payer')
  const payeeOrchestrator = sum('payee')
  // the request is for the net amount: the gross is what the recipient would get before its fees
  const grossTotal = gross + payeeOrchestrator
  const allFees = fees + payerOrchestrator + payeeOrchestrator
  return {
    bundleId: null,
    defaultFeeBearer: link.feePlan.defaultFeeBearer,
    amountSummary: {
      grossAmount: fmt(grossTotal),
      netRecipientAmount: fmt(gross),
      totalFees: fmt(allFees),
      payeeBorneFees: fmt(payeeOrchestrator),
      payerBorneFees: fmt(fees + payerOrchestrator),
      payerTotal: fmt(grossTotal + fees + payerOrchestrator),
    },
    fees: [
      ...items
        .filter((i) => i.fee > 0n)
        .map(({ r, fee }) => ({
          requestId: r.requestId,
          feeComponentId: null,
          feeType: 'platform',
          feeLabel: 'Platform fee',
          feeBearer: 'payer' as const,
          amount: fmt(fee),
          paymentCurrencyId: r.paymentCurrency,
          network: r.network,
          chainId: String(currency.chainId),
          recipient: link.feeAddress!,
        })),
      ...orchestrator,
    ],
  }
}

/**
 * `isSafe=true` (api-features/safe-multisig-payments.mdx): `wallet` (the Safe) is required, `eoaWallet` is refused
 * beside it, and Safe payments are EVM-only (400 on Tron). The answer is the same transactions with the Safe as
 * sender, which the Safe executes (one by one or through MultiSendCallOnly).
 */
function checkSafeQuery(shared: SecureServices, link: SecurePaymentRecord, query: TokenQuery) {
  if (!query.wallet)
    throw new SecurePaymentRequestError('wallet is required with isSafe=true (the Safe address)')
  if (query.eoaWallet) throw new SecurePaymentRequestError('isSafe=true is mutually exclusive with eoaWallet')
  const network = shared.currencies.byId(link.currency)?.network
  if (network === TRON_NETWORK)
    throw new SecurePaymentRequestError('Safe multisig payments are not supported on Tron')
}

/** The requests of a link still to pay. */
function unpaidRequestIds(shared: SecureServices, world: World, link: SecurePaymentRecord): string[] {
  return linkRequests(world, link)
    .filter((r) => remainingUnits(shared, r) > 0n)
    .map((r) => r.requestId)
}

/**
 * A batch answer with the orchestrator fee transfers the payer sends besides the batch (after the approvals,
 * before `batchPaymentTransaction`); absent when there are none.
 */
function withFeeTransfers<T extends object>(
  batch: T,
  transfers: ReturnType<typeof orchestratorFeeTransfers>,
) {
  return transfers.length ? { ...batch, orchestratorFeeTransactions: transfers } : batch
}

/**
 * The link's orchestrator fees as fee legs of a cross-chain intent (orchestrators/overview.mdx: fees are baked into
 * the payment at creation; secure-payment-pages.mdx: the payer may pay the link from another chain): the payer signs
 * them with the payment and the operator pays each to its address on the link's chain.
 */
function crosschainFeeLegs(shared: SecureServices, link: SecurePaymentRecord) {
  const decimals = shared.currencies.byId(link.currency)!.decimals
  return (link.orchestratorFees ?? []).map((f) => ({
    address: f.address,
    amount: toBaseUnits(f.amount, decimals),
  }))
}

/** The calldata of a link for `query.wallet` (or for any payer), refused for a wallet the link does not allow. */
export async function securePaymentCalldata(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  query: TokenQuery,
) {
  checkPayer(link, query.wallet)
  const isSafe = query.isSafe === 'true'
  if (isSafe) checkSafeQuery(shared, link, query)
  await screenPayer(shared, world, link, query.wallet)
  const ctx = inWorld(shared, world)
  const fee = link.feePercentage
    ? { feePercentage: link.feePercentage, feeAddress: link.feeAddress as `0x${string}` }
    : {}
  if (link.paymentType === 'batch') {
    if (query.chain)
      throw new SecurePaymentRequestError(
        'A batch secure payment is paid on its own network: chain and token do not apply',
      )
    const batch = await buildFundedBatchPayout(ctx, {
      requestIds: link.requestIds,
      ...(query.wallet ? { payer: query.wallet } : {}),
      ...fee,
    })
    return withFeeTransfers(
      batch,
      orchestratorFeeTransfers(shared, link, unpaidRequestIds(shared, world, link)),
    )
  }
  const record = linkRequests(world, link)[0]!
  // a fee leg claimed by a call that never settled it: the chain says whether it is still due
  if (record.network === 'tron') link = await settledFeeClaim(shared, world, link)
  const now = world.clock.now()
  const platformFee = {
    percentage: link.feePercentage ?? '0',
    address: link.feeAddress ?? NO_FEE_ADDRESS,
  }
  const protocolFee = { percentage: '0', address: NO_FEE_ADDRESS }
  const tronBase = {
    platformFee,
    protocolFee,
    quoteFetchedAt: now.toISOString(),
    quoteExpiresAt: new Date(now.getTime() + QUOTE_TTL_MS).toISOString(),
  }
  // a Tron link whose payment executed still owes its resource-fee leg: only that leg is left to send
  if (record.network === 'tron' && remainingUnits(shared, record) <= 0n)
    return tronLinkCalldata(shared, link, record, null, query.wallet, tronBase)
  const built = await buildPayment(ctx, record, {
    ...(query.wallet ? { wallet: query.wallet } : {}),
    ...(query.chain
      ? { chain: query.chain, token: query.token, feeLegs: crosschainFeeLegs(shared, link) }
      : {}),
    ...fee,
  })
  if (!('transactions' in built)) {
    // cross-chain: the sandbox's intent, with the secure-payments metadata beside it
    return {
      paymentType: 'single' as const,
      transactions: [],
      ...built,
      feeBundle: feeBundle(shared, world, link),
      metadata: {
        ...built.metadata,
        stepsRequired: 1,
        needsApproval: !!built.approvalCalldata || !!built.approvalPermitPayload,
        paymentTransactionIndex: 0,
        platformFee,
        protocolFee,
        routeType: 'crosschain' as const,
        quoteFetchedAt: now.toISOString(),
        quoteExpiresAt: new Date(now.getTime() + QUOTE_TTL_MS).toISOString(),
      },
    }
  }
  if (record.network === 'tron')
    return tronLinkCalldata(shared, link, record, built as never, query.wallet, tronBase)
  const currency = shared.currencies.byId(record.paymentCurrency)!
  const chain = shared.chains.get(record.network)
  const gasPrice = chain ? await currentGasPrice(chain) : 0n
  const { needsApproval, hasEnoughBalance } = built.metadata
  // a Safe pays its gas through the owner who executes: no native-gas balance check (safe-multisig-payments.mdx)
  const hasEnoughGas = isSafe || built.metadata.hasEnoughGas
  const paymentGas = (currency.type === 'ETH' ? GAS.nativePayment : GAS.payment) * gasPrice
  const approvalGas = needsApproval ? GAS.approve * gasPrice : 0n
  const eth = (v: bigint) => fromBaseUnits(v, 18)
  const amount = fromBaseUnits(
    toBaseUnits(record.amount, currency.decimals) +
      (link.feePercentage
        ? percentageOf(toBaseUnits(record.amount, currency.decimals), link.feePercentage)
        : 0n) +
      (link.orchestratorFees ?? [])
        .filter((f) => f.requestId === record.requestId)
        .reduce((sum, f) => sum + toBaseUnits(f.amount, currency.decimals), 0n),
    currency.decimals,
  )
  const { approvalTransactionIndex, ...metadata } = built.metadata
  // the orchestrator fees go out first, the payment stays the last transaction
  const feeTransfers =
    remainingUnits(shared, record) > 0n ? orchestratorFeeTransfers(shared, link, [record.requestId]) : []
  const transactions = [...built.transactions.slice(0, -1), ...feeTransfers, ...built.transactions.slice(-1)]
  // gasless approval (gasless.ts): a permit the payer may sign instead of sending the approval transaction; not
  // for a Safe (an EIP-2612 permit needs an EOA signature: the Safe executes the approval transaction)
  const approvalPermitPayload =
    needsApproval && query.wallet && !isSafe
      ? await gaslessApproval(shared, world, record, query.wallet as Address)
      : null
  return {
    paymentType: 'single' as const,
    transactions,
    ...(approvalPermitPayload ? { approvalPermitPayload } : {}),
    feeBundle: feeBundle(shared, world, link),
    metadata: {
      ...metadata,
      hasEnoughGas,
      ...(approvalPermitPayload ? { supportsEIP2612: true } : {}),
      ...(approvalTransactionIndex === null
        ? {}
        : { approvalTransactionIndex, approvalTransactionsCount: 1 }),
      stepsRequired: transactions.length,
      paymentTransactionIndex: transactions.length - 1,
      platformFee,
      protocolFee,
      requiredAmount: amount,
      estimatedNetworkFee: eth(paymentGas + approvalGas),
      estimatedApprovalNetworkFee: eth(approvalGas),
      estimatedPaymentNetworkFee: eth(paymentGas),
      sourceAmount: amount,
      routeType: 'samechain' as const,
      quoteFetchedAt: now.toISOString(),
      quoteExpiresAt: new Date(now.getTime() + QUOTE_TTL_MS).toISOString(),
      costBreakdown: {
        ...(needsApproval
          ? {
              approvalFee: {
                required: true,
                currency: 'ETH',
                amountNative: eth(approvalGas),
                hasEnoughBalance: hasEnoughGas,
              },
            }
          : {}),
        paymentGasFee: {
          required: true,
          currency: 'ETH',
          amountNative: eth(paymentGas),
          hasEnoughBalance: hasEnoughGas,
        },
        totalGasFee: {
          required: true,
          currency: 'ETH',
          amountNative: eth(paymentGas + approvalGas),
          hasEnoughBalance: hasEnoughGas,
        },
        fundingStatus: {
          hasEnoughPaymentToken: hasEnoughBalance,
          hasEnoughApprovalGas: hasEnoughGas,
          hasEnoughOverall: hasEnoughBalance && hasEnoughGas,
        },
        totals: { paymentAmount: amount, paymentCurrency: currency.symbol, sourceAmount: amount },
      },
    },
  }
}

/**
 * A multicall payout's calldata: the sandbox runs no smart accounts, so its pending children are paid by one
 * batchPayments transaction (approvals first), like a batch link; a tron_batch by the Tron batch contract.
 */
export async function multicallCalldata(
  shared: SecureServices,
  found: { world: World; record: MulticallRecord },
  query: TokenQuery,
) {
  if (query.chain)
    throw new SecurePaymentRequestError(
      'A multicall payout is paid on its own network: chain and token do not apply',
    )
  if (found.record.executionKind === 'tron_batch') return tronBatchCalldata(shared, found, query)
  const ctx = inWorld(shared, found.world)
  const requestIds = multicallRequestIds(ctx, found.record)
  if (requestIds.length === 0) throw new SecurePaymentCompletedError()
  const first = securePaymentState(found.world).securePayments.get(found.record.childTokens[0]!)!
  const batch = await buildFundedBatchPayout(ctx, {
    requestIds,
    ...(query.wallet ? { payer: query.wallet } : {}),
    ...(first.feePercentage
      ? { feePercentage: first.feePercentage, feeAddress: first.feeAddress as `0x${string}` }
      : {}),
  })
  // the documented multicall fields: the execution kind, each child with its own reference, the references in order
  const children = found.record.childTokens.flatMap((childToken, position) => {
    const link = securePaymentState(found.world).securePayments.get(childToken)!
    return linkRequests(found.world, link)
      .filter((r) => requestIds.includes(r.requestId))
      .map((r) => ({
        securePaymentToken: childToken,
        requestId: r.requestId,
        position,
        paymentReference: r.paymentReference,
        network: r.network,
        paymentCurrency: r.paymentCurrency,
        amount: r.amount,
        payee: r.paymentAddress,
      }))
  })
  const childLinks = found.record.childTokens.map(
    (t) => securePaymentState(found.world).securePayments.get(t)!,
  )
  const multicall = {
    paymentType: 'multicall' as const,
    executionKind: 'evm_same_chain' as const,
    token: found.record.token,
    ...batch,
    children,
    references: children.map((c) => c.paymentReference),
  }
  return withFeeTransfers(
    multicall,
    childLinks.flatMap((child) => orchestratorFeeTransfers(shared, child, requestIds)),
  )
}

/** `POST /{token}/refresh-step-transaction`: the link's payment transaction again, with a new 30-minute deadline. */
export async function refreshStep(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  step: { action: { toChainId: number } },
) {
  const currency = shared.currencies.byId(link.currency)!
  if (step.action.toChainId !== currency.chainId)
    throw new SecurePaymentRequestError(
      `Route no longer available: step targets chain ${step.action.toChainId}, the payment is on chain ${currency.chainId}`,
    )
  const calldata = await securePaymentCalldata(shared, world, link, {})
  const tx = 'transactions' in calldata ? calldata.transactions?.at(-1) : undefined
  if (!tx) throw new SecurePaymentRequestError('Route no longer available or invalid step')
  const now = world.clock.now().getTime()
  const transactionRequest = { ...tx, chainId: currency.chainId }
  return {
    step: { ...step, transactionRequest },
    transactionRequest,
    executionDeadline: Math.floor(now / 1000) + 30 * 60,
    quoteExpiresAt: new Date(now + QUOTE_TTL_MS).toISOString(),
  }
}
