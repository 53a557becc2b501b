// Secure payments on Tron: the link's steps in the Tron form plus the fixed resource fee's leg, and
// `POST /{token}/tron/broadcast`, which rebuilds the steps the link expects of the signer, forwards the signed
// transaction only when it is one of them, and broadcasts it sponsored (the service's resource providers pay energy
// and bandwidth: the payer needs no TRX; the $3.99 fee leg pays for it). The two legs are separate transactions:
// the link records its fee leg once it executed (a second one is refused, so the payer never pays it twice), /pay
// answers only the legs still to send, and the link completes when both have executed, in either order. A paired
// link's orchestrator fees are legs of the same kind, before the payment (tron-orchestrator-fees.ts).

import { encodeFunctionData } from 'viem'
import { erc20Abi } from '../../chain/index.ts'
import { fromBaseUnits, percentageOf, toBaseUnits } from '../../contract/amounts.ts'
import type { World } from '../../contract/world.ts'
import { readTrc20Call, signStepWith, toEvmAddress, tronExecuted, tronStep } from '../../tron/index.ts'
import { isFullyPaid, type RequestRecord } from '../requests/index.ts'
import type { SecureServices } from './context.ts'
import {
  SecurePaymentCompletedError,
  SecurePaymentNotFoundError,
  SecurePaymentRequestError,
  SecurePaymentUnavailableError,
} from './errors.ts'
import { TRON_RESOURCE_FEE_USD, TRON_RESOURCE_TREASURY } from './fee-plan.ts'
import { checkPayer, completeLink, findLink, linkRequests, linkStatus } from './model.ts'
import { orchestratorFeeLines } from './orchestrator-fees.ts'
import type { SecurePaymentRecord } from './schema.ts'
import { securePaymentState } from './tables.ts'
import {
  dueOrchestratorLegs,
  legClaim,
  legKey,
  setLegClaim,
  settleOrchestratorClaims,
  tronOrchestratorLegs,
} from './tron-orchestrator-fees.ts'

/** What the pay builder answered for the link's Tron request (see pay/tron.ts). */
interface TronBuilt {
  transactions: ReturnType<typeof tronStep>[]
  metadata: Record<string, unknown> & { needsApproval: boolean; hasEnoughBalance: boolean }
}

/** The resource fee in the payment currency's base units (a stablecoin: $3.99 = 3.99 tokens). */
function resourceFeeUnits(decimals: number): bigint {
  return toBaseUnits(TRON_RESOURCE_FEE_USD, decimals)
}

/** The fee leg: a TRC-20 transfer of the resource fee to the sandbox's treasury. */
function resourceFeeLeg(token: string, decimals: number) {
  return tronStep(
    toEvmAddress(token),
    'transfer(address,uint256)',
    encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [toEvmAddress(TRON_RESOURCE_TREASURY), resourceFeeUnits(decimals)],
    }),
  )
}

/**
 * `GET /{token}/pay` of a Tron link: approvals, the orchestrator fee legs still due, the payment, then the resource-fee
 * leg; sponsored resources.
 */
export async function tronLinkCalldata(
  shared: SecureServices,
  link: SecurePaymentRecord,
  record: RequestRecord,
  /** the payment's steps; null once the payment executed (only the fee leg is left) */
  paymentBuilt: TronBuilt | null,
  wallet: string | undefined,
  base: { platformFee: unknown; protocolFee: unknown; quoteFetchedAt: string; quoteExpiresAt: string },
) {
  const currency = shared.currencies.byId(record.paymentCurrency)!
  const fee = resourceFeeUnits(currency.decimals)
  const amountUnits = toBaseUnits(record.amount, currency.decimals)
  const platform = link.feePercentage ? percentageOf(amountUnits, link.feePercentage) : 0n
  const built: TronBuilt = paymentBuilt ?? {
    transactions: [],
    metadata: {
      network: 'tron',
      needsApproval: false,
      hasEnoughBalance: true,
      approvalTransactionIndex: null,
    },
  }
  // the legs still to send: the payment unless it executed, the fee leg unless it executed (or is on its way)
  const feeDue = !link.resourceFee
  const paymentDue = paymentBuilt !== null
  const orchestratorDue = dueOrchestratorLegs(shared, link)
  const orchestratorUnits = orchestratorDue.reduce((sum, leg) => sum + leg.units, 0n)
  // the approvals, then the orchestrator fee legs, then the payment (the payment stays after the fees, as on EVM)
  const transactions = [
    ...built.transactions.slice(0, -1),
    ...orchestratorDue.map((leg) => leg.step),
    ...built.transactions.slice(-1),
    ...(feeDue ? [resourceFeeLeg(currency.address, currency.decimals)] : []),
  ]
  const due = (paymentDue ? amountUnits + platform : 0n) + (feeDue ? fee : 0n) + orchestratorUnits
  const legs = tronOrchestratorLegs(shared, link)
  const payerBorne = legs.filter((l) => l.feeBearer === 'payer').reduce((sum, l) => sum + l.units, 0n)
  const payeeBorne = legs.filter((l) => l.feeBearer === 'recipient').reduce((sum, l) => sum + l.units, 0n)
  const chain = shared.chains.get('tron')
  let hasEnoughBalance = built.metadata.hasEnoughBalance
  if (chain && wallet)
    hasEnoughBalance = (await chain.balanceOf(toEvmAddress(currency.address), toEvmAddress(wallet))) >= due
  const fmt = (v: bigint) => fromBaseUnits(v, currency.decimals)
  const fees = [
    ...(platform > 0n
      ? [
          {
            requestId: record.requestId,
            feeComponentId: null,
            feeType: 'platform',
            feeLabel: 'Platform fee',
            feeBearer: 'payer' as const,
            amount: fmt(platform),
            paymentCurrencyId: record.paymentCurrency,
            network: 'tron',
            chainId: String(currency.chainId),
            recipient: link.feeAddress!,
          },
        ]
      : []),
    {
      requestId: record.requestId,
      feeComponentId: null,
      feeType: 'tron_resource',
      feeLabel: 'Tron resource fee',
      feeBearer: 'payer' as const,
      amount: fmt(fee),
      paymentCurrencyId: record.paymentCurrency,
      network: 'tron',
      chainId: String(currency.chainId),
      recipient: TRON_RESOURCE_TREASURY,
    },
    ...orchestratorFeeLines(shared, link),
  ]
  const { approvalTransactionIndex, ...metadata } = built.metadata as typeof built.metadata & {
    approvalTransactionIndex: number | null
  }
  // the fee leg alone: its one transaction stands where the payment would
  const approvals = Math.max(built.transactions.length - 1, 0)
  const paymentIndex = paymentDue ? approvals + orchestratorDue.length : 0
  return {
    paymentType: 'single' as const,
    transactions,
    feeBundle: {
      bundleId: null,
      defaultFeeBearer: link.feePlan.defaultFeeBearer,
      amountSummary: {
        // the request is for the net amount: the gross is what the recipient would get before its fees
        grossAmount: fmt(amountUnits + payeeBorne),
        netRecipientAmount: fmt(amountUnits),
        totalFees: fmt(platform + fee + payerBorne + payeeBorne),
        payeeBorneFees: fmt(payeeBorne),
        payerBorneFees: fmt(platform + fee + payerBorne),
        payerTotal: fmt(amountUnits + payeeBorne + platform + fee + payerBorne),
      },
      fees,
    },
    metadata: {
      ...metadata,
      ...(approvalTransactionIndex === null
        ? {}
        : { approvalTransactionIndex, approvalTransactionsCount: approvals }),
      stepsRequired: transactions.length,
      paymentTransactionIndex: paymentIndex,
      hasEnoughBalance,
      // the resources are sponsored when the steps go through /tron/broadcast: no TRX needed
      hasEnoughGas: true,
      transactionSponsorshipFeeUsd: TRON_RESOURCE_FEE_USD,
      requiredAmount: fmt(due),
      sourceAmount: fmt(paymentDue ? amountUnits + platform : 0n),
      routeType: 'samechain' as const,
      platformFee: base.platformFee,
      protocolFee: base.protocolFee,
      quoteFetchedAt: base.quoteFetchedAt,
      quoteExpiresAt: base.quoteExpiresAt,
    },
  }
}

/** The signed transaction's owner and call, read from its raw_data_hex; 400 when it is not a TRC-20 call. */
export function readSigned(signed: { raw_data_hex: string }) {
  try {
    return readTrc20Call(signed)
  } catch (error) {
    throw new SecurePaymentRequestError(`Invalid TRON transaction: ${(error as Error).message}`)
  }
}

/**
 * `POST /{token}/tron/broadcast`: the signed transaction must be one of the steps the link still expects of its
 * signer: a payment step while the payment has not executed, the resource-fee leg or one of its orchestrator fee legs
 * while it has not been sent (each once per link: a second one is refused before it reaches the chain); then it is
 * broadcast, sponsored. A fee leg is recorded as executed only when its receipt says SUCCESS; the link completes when
 * the payment and every fee leg have executed.
 */
export async function broadcastTronStep(
  shared: SecureServices,
  token: string,
  signed: Record<string, unknown> & { raw_data_hex: string },
  calldata: (world: World, link: SecurePaymentRecord, wallet: string) => Promise<object>,
) {
  const found = findLink(shared, token)
  if (!found) throw new SecurePaymentNotFoundError()
  const { world } = found
  let { link } = found
  if (link.network !== 'tron')
    throw new SecurePaymentRequestError(
      'This secure payment is not on TRON: send its transactions on its network',
    )
  const call = readSigned(signed)
  checkPayer(link, call.owner)
  link = await settledFeeClaim(shared, world, link)
  const status = linkStatus(shared, world, link)
  const currency = shared.currencies.byId(link.currency)!
  const feeLeg = resourceFeeLeg(currency.address, currency.decimals)
  const isFeeLeg = toEvmAddress(feeLeg.to) === call.contract && feeLeg.data === call.data
  const feeLegsInFlight = securePaymentState(world).tronFeeLegsInFlight
  // one of the link's orchestrator fee legs: exactly its transfer, to the fee's Tron address, for its amount (two
  // fees with the same transfer are two legs: the first not yet sent)
  const matching = isFeeLeg
    ? []
    : tronOrchestratorLegs(shared, link).filter(
        (leg) => toEvmAddress(leg.step.to) === call.contract && leg.step.data === call.data,
      )
  const orchestratorLeg =
    matching.find((leg) => !legClaim(link, leg) && !feeLegsInFlight.has(legKey(link.token, leg))) ??
    matching[0]
  const isLeg = isFeeLeg || orchestratorLeg !== undefined
  if (status === 'completed') throw new SecurePaymentCompletedError()
  if (status !== 'pending') throw new SecurePaymentUnavailableError()
  if (isFeeLeg && (link.resourceFee || feeLegsInFlight.has(link.token)))
    throw new SecurePaymentRequestError(
      `The resource fee of this secure payment has already been sent (transaction ${link.resourceFee?.txId ?? 'on its way'})`,
    )
  const orchestratorKey = orchestratorLeg ? legKey(link.token, orchestratorLeg) : null
  if (orchestratorLeg && (legClaim(link, orchestratorLeg) || feeLegsInFlight.has(orchestratorKey!)))
    throw new SecurePaymentRequestError(
      `This orchestrator fee of the secure payment has already been sent (transaction ${legClaim(link, orchestratorLeg)?.txId ?? 'on its way'})`,
    )
  const paymentsSent = securePaymentState(world).tronPaymentsSent
  if (
    !isLeg &&
    (paymentsSent.has(link.token) || linkRequests(world, link).every((r) => isFullyPaid(shared, r)))
  )
    throw new SecurePaymentRequestError(
      'The payment of this secure payment has executed: only its resource-fee leg remains to send',
    )
  // the payment step (not an approval): it moves the amount, so one at a time, and none once one executed
  const isPayment = !isLeg && !call.data.startsWith(APPROVE_SELECTOR)
  // marked before anything is awaited: a leg sent meanwhile sees it (the fee claim below is written after a wait)
  if (isFeeLeg) feeLegsInFlight.add(link.token)
  if (orchestratorKey) feeLegsInFlight.add(orchestratorKey)
  if (isPayment) paymentsSent.add(link.token)
  let paymentExecuted = false
  try {
    if (!isLeg) {
      const built = (await calldata(world, link, call.owner)) as {
        transactions?: { to: string; data: string }[]
      }
      const expected = built.transactions ?? []
      if (!expected.some((t) => toEvmAddress(t.to) === call.contract && t.data === call.data))
        throw new SecurePaymentRequestError('The signed TRON transaction does not match this secure payment')
    }
    const chain = shared.chains.get('tron')
    if (!chain?.tron)
      throw new SecurePaymentRequestError('No TRON chain: start the sandbox with --networks …,tron')
    const links = securePaymentState(world).securePayments
    const txId = String(signed.txID ?? '')
    const release = async () => {
      if (isFeeLeg)
        await links.update(link.token, (d) => {
          d.resourceFee = null
        })
      if (orchestratorLeg) await setLegClaim(world, link.token, orchestratorLeg, null)
    }
    // the fee leg is claimed before it goes out, so a second one sent meanwhile is refused
    if (isFeeLeg)
      await links.update(link.token, (d) => {
        d.resourceFee = { txId, executed: false }
      })
    if (orchestratorLeg) await setLegClaim(world, link.token, orchestratorLeg, { txId, executed: false })
    let reply: { result?: boolean; txid?: string; code?: string; message?: string }
    try {
      reply = (await chain.tron.broadcast(signed, { sponsored: true })).body as typeof reply
    } catch (error) {
      await release()
      throw error
    }
    if (!reply.result) {
      await release()
      const message = reply.message ? Buffer.from(reply.message, 'hex').toString('utf8') : 'broadcast refused'
      throw new SecurePaymentRequestError(`TRON broadcast refused (${reply.code}): ${message}`)
    }
    if (isFeeLeg) await recordFeeLeg(shared, world, link.token, reply.txid!, call.owner)
    if (orchestratorLeg) {
      // executed: recorded (the link completes if everything else did); reverted: released, to be sent again
      const done = await executed(shared, reply.txid!)
      const updated = await setLegClaim(
        world,
        link.token,
        orchestratorLeg,
        done ? { txId: reply.txid!, executed: true } : null,
      )
      if (done && linkStatus(shared, world, updated) === 'completed')
        await completeLink(world, updated, call.owner)
    }
    if (isPayment) paymentExecuted = await executed(shared, reply.txid!)
    return { result: true, txid: reply.txid!, code: 'SUCCESS', message: '' }
  } finally {
    if (isFeeLeg) feeLegsInFlight.delete(link.token)
    if (orchestratorKey) feeLegsInFlight.delete(orchestratorKey)
    // a payment that executed stays marked (the detector marks its request paid soon); one refused or reverted frees it
    if (isPayment && !paymentExecuted) paymentsSent.delete(link.token)
  }
}

/**
 * A link whose fee leg was claimed but not settled by the call that claimed it (it is no longer in flight: the call
 * failed reading the receipt, or the process stopped, and --state-dir kept the claim): the chain decides. Executed,
 * the claim is recorded as such (and the link completes if its payment executed); otherwise the claim is released,
 * so /pay asks for the leg again and /tron/broadcast takes it, instead of the link staying pending for good.
 */
export async function settledFeeClaim(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
): Promise<SecurePaymentRecord> {
  if (!shared.chains.get('tron')?.tron) return link
  link = await settleOrchestratorClaims(world, link, (txId) => executed(shared, txId))
  const claim = link.resourceFee
  if (!claim || claim.executed || securePaymentState(world).tronFeeLegsInFlight.has(link.token)) {
    if (linkStatus(shared, world, link) === 'completed' && !link.completedAt)
      await completeLink(world, link, null)
    return link
  }
  const done = claim.txId ? await executed(shared, claim.txId).catch(() => false) : false
  // claimed again meanwhile (a broadcast started during the read): that call settles it
  if (securePaymentState(world).tronFeeLegsInFlight.has(link.token)) return link
  const updated = (await securePaymentState(world).securePayments.update(link.token, (d) => {
    d.resourceFee = done ? { txId: claim.txId, executed: true } : null
  }))!
  if (done && linkStatus(shared, world, updated) === 'completed') await completeLink(world, updated, null)
  return updated
}

/** The selector of `approve(address,uint256)`: a link's approval step, not its payment. */
const APPROVE_SELECTOR = '0x095ea7b3'

/** True when the Tron transaction `txId` executed (its receipt says SUCCESS). */
export function executed(shared: SecureServices, txId: string): Promise<boolean> {
  return tronExecuted(shared.chains.get('tron')!.tron!, txId)
}

/**
 * The fee leg's outcome on chain: executed (its receipt SUCCESS) completes the link when its payment executed
 * too; reverted (the payer lacked the tokens) frees the leg to be sent again, and counts for nothing.
 */
async function recordFeeLeg(
  shared: SecureServices,
  world: World,
  token: string,
  txId: string,
  payer: string,
) {
  const done = await executed(shared, txId)
  const links = securePaymentState(world).securePayments
  const link = (await links.update(token, (d) => {
    d.resourceFee = done ? { txId, executed: true } : null
  }))!
  if (done && linkStatus(shared, world, link) === 'completed') await completeLink(world, link, payer)
}

/**
 * The page's test wallet on Tron: builds the step on the sandbox's node as the test wallet, signs its id
 * server-side (the wallet is a funded default account) and hands it to the same checked, sponsored broadcast.
 */
export async function testWalletTronSend(
  shared: SecureServices,
  token: string,
  step: { to: string; data: string },
  privateKey: `0x${string}`,
  calldata: (world: World, link: SecurePaymentRecord, wallet: string) => Promise<object>,
) {
  const chain = shared.chains.get('tron')
  if (!chain?.tron)
    throw new SecurePaymentRequestError('No TRON chain: start the sandbox with --networks …,tron')
  const signed = await signStepWith(chain.tron, privateKey, step)
  if (!signed) throw new SecurePaymentRequestError('The test wallet could not build this TRON step')
  return broadcastTronStep(shared, token, signed, calldata)
}
