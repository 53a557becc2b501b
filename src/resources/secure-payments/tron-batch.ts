// Multicall payouts on Tron, the `tron_batch` execution kind (api-features/payouts.mdx: "all recipients on Tron,
// settled via the Tron batch contract"; api-reference/secure-payments.mdx: derived when every child is on Tron, same
// token). The pending children are paid by one call of Request Network's Tron batch contract (ERC20BatchPayments at
// its published address; the sandbox's SandboxTronBatchPayments), each child through ERC20FeeProxy with its own
// payment reference and platform fee, so each is detected as a single payment is. The children's $3.99 resource fees
// are one more entry of the same call, to the sandbox's treasury (reference: the bundle's own). The payer signs the
// Tron steps (approve the batch contract, then the batch) with TronWeb and sends them through
// `POST /v2/secure-payments/{token}/tron/broadcast`, sponsored, as a Tron link's; once the batch executed, each
// child's fee leg is recorded as executed by it and the children complete as their payments are detected.
import { createHash } from 'node:crypto'
import { encodeFunctionData, maxUint256, parseAbi } from 'viem'
import { erc20Abi } from '../../chain/index.ts'
import { fromBaseUnits, percentageOf, toBaseUnits } from '../../contract/amounts.ts'
import type { World } from '../../contract/world.ts'
import { TRON_NETWORK, toEvmAddress, tronStep } from '../../tron/index.ts'
import { NO_FEE_ADDRESS } from '../pay/index.ts'
import { remainingUnits } from '../requests/index.ts'
import { inWorld } from '../services.ts'
import type { SecureServices } from './context.ts'
import { SecurePaymentCompletedError, SecurePaymentRequestError } from './errors.ts'
import { TRON_RESOURCE_FEE_USD, TRON_RESOURCE_TREASURY } from './fee-plan.ts'
import { checkPayer, completeLink, linkRequests, linkStatus } from './model.ts'
import type { MulticallRecord, SecurePaymentRecord, TokenQuery } from './schema.ts'
import { securePaymentState } from './tables.ts'
import { executed, readSigned } from './tron.ts'
import { dueOrchestratorLegs, legKey, setLegClaim } from './tron-orchestrator-fees.ts'

type Kind = MulticallRecord['executionKind']

const BATCH_FUNCTION =
  'batchERC20PaymentsWithReference(address,address[],uint256[],bytes[],uint256[],address)'
const batchAbi = parseAbi([
  'function batchERC20PaymentsWithReference(address token, address[] recipients, uint256[] amounts, bytes[] paymentReferences, uint256[] feeAmounts, address feeAddress)',
])
const APPROVE = 'approve(address,uint256)'

/**
 * The execution kind of a multicall payout over `children` (one network, checked before): `tron_batch` when they are
 * on Tron (400 for another kind asked, or for children in more than one token), else the kind asked or
 * `evm_same_chain`; `tron_batch` asked for EVM children is refused.
 */
export function multicallKind(children: SecurePaymentRecord[], requested: Kind | undefined): Kind {
  if (children.every((c) => c.network === TRON_NETWORK)) {
    if (requested && requested !== 'tron_batch')
      throw new SecurePaymentRequestError(
        `Payouts on TRON are bundled with the tron_batch execution kind, not ${requested}`,
      )
    if (new Set(children.map((c) => c.currency)).size > 1)
      throw new SecurePaymentRequestError('A tron_batch multicall pays children of one token')
    return 'tron_batch'
  }
  if (requested === 'tron_batch') throw new SecurePaymentRequestError('tron_batch needs every child on TRON')
  return requested ?? 'evm_same_chain'
}

/** The bundle's own payment reference (its resource-fee entry): 8 bytes of sha256 of its token. */
function bundleReference(token: string): `0x${string}` {
  return `0x${createHash('sha256').update(`tron_batch:${token}`).digest('hex').slice(0, 16)}`
}

/**
 * The children of a tron_batch still to pay (not paid, and no payment of theirs sent and executed that the detector
 * has yet to see), and those whose resource fee is still due.
 */
function dueChildren(shared: SecureServices, world: World, record: MulticallRecord) {
  const ctx = inWorld(shared, world)
  const links = record.childTokens.map((t) => securePaymentState(world).securePayments.get(t)!)
  const pending = links.filter((l) => linkStatus(shared, world, l) === 'pending')
  const { tronFeeLegsInFlight: inFlight, tronPaymentsSent: sent } = securePaymentState(world)
  const payments = pending
    .filter((link) => !sent.has(link.token))
    .flatMap((link) =>
      linkRequests(world, link)
        .map((request) => ({ link, request, units: remainingUnits(ctx, request) }))
        .filter((p) => p.units > 0n),
    )
  const feesDue = pending.filter((l) => !l.resourceFee && !inFlight.has(l.token))
  // the children's orchestrator fees not yet paid: entries of the batch too
  const orchestratorDue = pending.flatMap((link) =>
    dueOrchestratorLegs(shared, link)
      .filter((leg) => !inFlight.has(legKey(link.token, leg)))
      .map((leg) => ({ link, leg })),
  )
  return { links, payments, feesDue, orchestratorDue }
}

/**
 * `GET /{token}/pay` of a tron_batch multicall: the Tron steps (approve 0 then max over a short allowance of the batch
 * contract, then the one batch call), the documented multicall fields (`executionKind`, `children`, `references`)
 * and readiness (sponsored: no TRX needed). 409 once nothing is left to pay.
 */
export async function tronBatchCalldata(
  shared: SecureServices,
  found: { world: World; record: MulticallRecord },
  query: Pick<TokenQuery, 'wallet'>,
) {
  const { world, record } = found
  const { links, payments, feesDue, orchestratorDue } = dueChildren(shared, world, record)
  if (payments.length === 0 && feesDue.length === 0 && orchestratorDue.length === 0)
    throw new SecurePaymentCompletedError()
  const first = links[0]!
  const currency = shared.currencies.byId(first.currency)!
  const chain = shared.chains.get(TRON_NETWORK)
  const batchAddress =
    chain?.contracts.ERC20BatchPayments ?? shared.networks[TRON_NETWORK]?.contracts.ERC20BatchPayments
  if (!batchAddress) throw new SecurePaymentRequestError('The Tron batch contract is not deployed on tron')
  const batch = toEvmAddress(batchAddress)
  const token = toEvmAddress(currency.address)
  const resourceFee = toBaseUnits(TRON_RESOURCE_FEE_USD, currency.decimals)
  const fees = payments.map((p) => (first.feePercentage ? percentageOf(p.units, first.feePercentage) : 0n))
  const entries = [
    ...payments.map((p, i) => ({
      to: toEvmAddress(p.request.paymentAddress),
      amount: p.units,
      reference: p.request.paymentReference as `0x${string}`,
      fee: fees[i]!,
    })),
    ...orchestratorDue.map(({ leg }) => ({
      to: toEvmAddress(leg.address),
      amount: leg.units,
      reference: bundleReference(record.token),
      fee: 0n,
    })),
    ...(feesDue.length
      ? [
          {
            to: toEvmAddress(TRON_RESOURCE_TREASURY),
            amount: resourceFee * BigInt(feesDue.length),
            reference: bundleReference(record.token),
            fee: 0n,
          },
        ]
      : []),
  ]
  const total = entries.reduce((s, e) => s + e.amount + e.fee, 0n)
  const feeAddress = first.feeAddress ? toEvmAddress(first.feeAddress) : NO_FEE_ADDRESS
  const call = tronStep(
    batch,
    BATCH_FUNCTION,
    encodeFunctionData({
      abi: batchAbi,
      functionName: 'batchERC20PaymentsWithReference',
      args: [
        token,
        entries.map((e) => e.to),
        entries.map((e) => e.amount),
        entries.map((e) => e.reference),
        entries.map((e) => e.fee),
        feeAddress,
      ],
    }),
  )
  const approve = (value: bigint) =>
    tronStep(
      token,
      APPROVE,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [batch, value] }),
    )
  let approvals = [approve(maxUint256)]
  let hasEnoughBalance = true
  if (chain && query.wallet) {
    const wallet = toEvmAddress(query.wallet)
    const [balance, allowance] = await Promise.all([
      chain.balanceOf(token, wallet),
      chain.allowance(token, wallet, batch),
    ])
    if (allowance >= total) approvals = []
    else if (allowance > 0n) approvals = [approve(0n), approve(maxUint256)]
    hasEnoughBalance = balance >= total
  }
  const transactions = [...approvals, call]
  const fmt = (v: bigint) => fromBaseUnits(v, currency.decimals)
  const children = record.childTokens.flatMap((childToken, position) =>
    payments
      .filter((p) => p.link.token === childToken)
      .map((p) => ({
        securePaymentToken: childToken,
        requestId: p.request.requestId,
        position,
        paymentReference: p.request.paymentReference,
        network: p.request.network,
        paymentCurrency: p.request.paymentCurrency,
        amount: fmt(p.units),
        payee: p.request.paymentAddress,
      })),
  )
  return {
    paymentType: 'multicall' as const,
    executionKind: 'tron_batch' as const,
    token: record.token,
    transactions,
    metadata: {
      network: TRON_NETWORK,
      stepsRequired: transactions.length,
      needsApproval: approvals.length > 0,
      approvalTransactionIndex: approvals.length ? 0 : null,
      paymentTransactionIndex: transactions.length - 1,
      hasEnoughBalance,
      // sponsored through /tron/broadcast: no TRX needed; the resource fees are entries of the batch
      hasEnoughGas: true,
      transactionSponsorshipFeeUsd: fmt(resourceFee * BigInt(feesDue.length)),
      requiredAmount: fmt(total),
    },
    children,
    references: children.map((c) => c.paymentReference),
  }
}

/** Tron multicalls whose batch step is being broadcast (by world and token): a second one is refused meanwhile. */
const batchesInFlight = new WeakMap<World, Set<string>>()

/**
 * `POST /{token}/tron/broadcast` of a tron_batch multicall: the signed transaction must be one of the steps the bundle
 * still expects of its signer (an approval, or the batch), signed by a payer every child allows; the batch goes out
 * one at a time and never again for children already sent. Broadcast sponsored; once the batch executed, the
 * children's resource fees are recorded as paid by it and each child paid completes.
 */
export async function broadcastTronBatchStep(
  shared: SecureServices,
  found: { world: World; record: MulticallRecord },
  signed: Record<string, unknown> & { raw_data_hex: string },
) {
  const { world, record } = found
  if (record.executionKind !== 'tron_batch')
    throw new SecurePaymentRequestError(
      'This multicall payout is not a tron_batch: send its transactions on its network',
    )
  const call = readSigned(signed)
  const links = record.childTokens.map((t) => securePaymentState(world).securePayments.get(t)!)
  for (const link of links) checkPayer(link, call.owner)
  const isBatch = !call.data.startsWith('0x095ea7b3')
  const inFlight = batchesInFlight.get(world) ?? new Set<string>()
  batchesInFlight.set(world, inFlight)
  const sent = securePaymentState(world).tronPaymentsSent
  // a batch in flight; children it already paid are left out of the steps rebuilt below, so it cannot match again
  if (isBatch && inFlight.has(record.token))
    throw new SecurePaymentRequestError('The batch of this multicall payout has already been sent')
  if (isBatch) inFlight.add(record.token)
  try {
    const built = await tronBatchCalldata(shared, found, { wallet: call.owner })
    const { feesDue, orchestratorDue } = dueChildren(shared, world, record)
    const expected = built.transactions
    if (!expected.some((t) => toEvmAddress(t.to) === call.contract && t.data === call.data))
      throw new SecurePaymentRequestError('The signed TRON transaction does not match this multicall payout')
    const chain = shared.chains.get(TRON_NETWORK)
    if (!chain?.tron)
      throw new SecurePaymentRequestError('No TRON chain: start the sandbox with --networks …,tron')
    const reply = (await chain.tron.broadcast(signed, { sponsored: true })).body as {
      result?: boolean
      txid?: string
      code?: string
      message?: string
    }
    if (!reply.result) {
      const message = reply.message ? Buffer.from(reply.message, 'hex').toString('utf8') : 'broadcast refused'
      throw new SecurePaymentRequestError(`TRON broadcast refused (${reply.code}): ${message}`)
    }
    if (isBatch && (await executed(shared, reply.txid!))) {
      for (const link of links) if (linkStatus(shared, world, link) === 'pending') sent.add(link.token)
      const table = securePaymentState(world).securePayments
      // the orchestrator fees the batch paid, then the resource fees; each child paid completes
      for (const { link, leg } of orchestratorDue) {
        const updated = await setLegClaim(world, link.token, leg, { txId: reply.txid!, executed: true })
        if (linkStatus(shared, world, updated) === 'completed') await completeLink(world, updated, call.owner)
      }
      for (const link of feesDue) {
        const updated = (await table.update(link.token, (d) => {
          d.resourceFee = { txId: reply.txid!, executed: true }
        }))!
        if (linkStatus(shared, world, updated) === 'completed') await completeLink(world, updated, call.owner)
      }
    }
    return { result: true, txid: reply.txid!, code: 'SUCCESS', message: '' }
  } finally {
    if (isBatch) inFlight.delete(record.token)
  }
}
