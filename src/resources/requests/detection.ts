// Differences from the real service: payments are read from the sandbox's own chains only (no TheGraph, no
// LiFi fallback); a payment counts as soon as its block is mined (anvil has no reorgs but evm_revert, which
// rolls payments back). A payment made after the request is already paid emits payment.confirmed again.
import type { Hex } from 'viem'
import type { DetectedTransfer, DetectorSink } from '../../chain/index.ts'
import { fromBaseUnits } from '../../contract/amounts.ts'
import { divWad, formatWad, formatWadFixed, unitsToWad } from '../../contract/decimal.ts'
import type { FlowTracing } from '../../contract/tracing.ts'
import type { World } from '../../contract/world.ts'
import type { Services } from '../services.ts'
import { paymentEventPayload } from './events.ts'
import { isConversion, isFullyPaid } from './model.ts'
import { isOfframpRequest, startOfframp } from './offramp.ts'
import type { DetectedPayment, RequestRecord } from './schema.ts'
import { requestState } from './tables.ts'
import { isTronConversion, tronCreditedUnits } from './tron-conversion.ts'

type Shared = Services<
  | 'conversion'
  | 'currencies'
  | 'events'
  | 'ids'
  | 'log'
  | 'offrampAddress'
  | 'paymentReferences'
  | 'tracing'
  | 'worlds'
>

const same = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase()

/**
 * Whether a log pays this request, by Request Network's rules: the request's network, its payment address
 * as `to`, its token (ERC-20), the proxy of its payment network (fee proxy for same-currency requests,
 * conversion proxy for the others) and, for conversions, the invoice currency as the path's first hop. Tron has no
 * conversion proxy: a Tron request invoiced in fiat is paid through ERC20FeeProxy (tron-conversion.ts).
 */
export function paysRequest(shared: Shared, record: RequestRecord, t: DetectedTransfer): boolean {
  const toOfframp = record.offramp !== null && same(t.to, shared.offrampAddress)
  if (record.network !== t.network || !(same(t.to, record.paymentAddress) || toOfframp)) return false
  const paid = shared.currencies.byId(record.paymentCurrency)
  const invoice = shared.currencies.byId(record.invoiceCurrency)
  if (!paid || !invoice) return false
  const conversion = isConversion(record)
  switch (t.kind) {
    case 'erc20-fee':
      return (
        (!conversion || isTronConversion(record)) &&
        (paid.type === 'ERC20' || paid.type === 'TRC20') &&
        same(t.tokenAddress, paid.address)
      )
    case 'eth-fee':
      return !conversion && paid.type === 'ETH'
    case 'erc20-conversion':
      return (
        conversion &&
        paid.type === 'ERC20' &&
        same(t.tokenAddress, paid.address) &&
        same(t.conversion?.currency, invoice.hash)
      )
    case 'eth-conversion':
      return conversion && paid.type === 'ETH' && same(t.conversion?.currency, invoice.hash)
  }
}

/** What a log counts for, in the invoice currency's base units (conversion events pad fiat to 8 decimals). */
function creditedUnits(shared: Shared, world: World, record: RequestRecord, t: DetectedTransfer): bigint {
  if (isTronConversion(record)) return tronCreditedUnits(shared, world, record, t)
  if (!t.conversion) return t.amount
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  return invoice.type === 'ISO4217'
    ? t.conversion.requestAmount / 10n ** BigInt(8 - invoice.decimals)
    : t.conversion.requestAmount
}

function toPayment(
  shared: Shared,
  world: World,
  record: RequestRecord,
  t: DetectedTransfer,
): DetectedPayment {
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  const paid = shared.currencies.byId(record.paymentCurrency)!
  const credited = creditedUnits(shared, world, record, t)
  const converted = t.conversion !== null || isTronConversion(record)
  const creditedWad = unitsToWad(credited, invoice.decimals)
  const paidWad = unitsToWad(t.amount, paid.decimals)
  const usd = shared.conversion.usdValue(world, invoice.id, credited, invoice.decimals)
  // the chains follow the furthest key's clock: a block far ahead of this key's clock was dated by another key's
  // time travel, so the payment is dated on this key's own clock
  const now = world.clock.now()
  const at = t.timestamp.getTime() - now.getTime() > 3_600_000 ? now : t.timestamp
  return {
    id: shared.ids.ulid(at.getTime()),
    key: `${t.chainId}:${t.txHash}:${t.logIndex}`,
    type: converted ? 'conversion' : record.originalRequestId || record.recurrence ? 'recurring' : 'direct',
    amount: fromBaseUnits(credited, invoice.decimals),
    amountRaw: credited.toString(),
    paidAmount: fromBaseUnits(t.amount, paid.decimals),
    paidAmountRaw: t.amount.toString(),
    feeAmount: fromBaseUnits(t.feeAmount, paid.decimals),
    feeAmountRaw: t.feeAmount.toString(),
    feeAddress: t.feeAddress,
    gasFee: fromBaseUnits(t.gasFee, 18),
    txHash: t.txHash,
    blockNumber: Number(t.blockNumber),
    blockHash: t.blockHash,
    logIndex: t.logIndex,
    chainId: t.chainId,
    network: t.network,
    proxy: t.proxy,
    timestamp: at.toISOString(),
    from: t.from,
    payer: t.payer,
    to: t.to,
    conversionRate: converted && paidWad > 0n ? formatWad(divWad(creditedWad, paidWad), 12) : null,
    amountInUsd: usd === null ? null : formatWadFixed(usd, 2),
  }
}

/** Records one transfer on one request (once per log) and announces it. */
/** Told of each payment the detector records, once, with the request it pays (the terminal log's line). */
export type PaymentListener = (world: World, request: RequestRecord, payment: DetectedPayment) => void

async function applyTo(
  shared: Shared,
  world: World,
  requestId: string,
  t: DetectedTransfer,
  onPayment?: PaymentListener,
): Promise<void> {
  const record = requestState(world).requests.get(requestId)
  if (!record || !paysRequest(shared, record, t)) return
  const payment = toPayment(shared, world, record, t)
  if (record.payments.some((p) => p.key === payment.key)) return
  const wasPaid = isFullyPaid(shared, record)
  const updated = (await requestState(world).requests.update(requestId, (draft) => {
    draft.payments.push(payment)
    draft.payments.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex)
    draft.isListening = !isFullyPaid(shared, draft) && draft.payRequestedAt !== null
  }))!
  onPayment?.(world, updated, payment)
  const paidNow = isFullyPaid(shared, updated)
  // A recurring payout's execution is announced by the relayer that sent it (with recurringPayment.id).
  if (requestState(world).announcedElsewhere.has(requestId)) return
  if (isOfframpRequest(shared, updated)) {
    if (!paidNow) shared.events.emit(world, 'payment.partial', paymentEventPayload(shared, updated, payment))
    else if (!wasPaid) await startOfframp(shared, world, requestId, payment)
    return
  }
  const type = paidNow ? 'payment.confirmed' : 'payment.partial'
  const payload = paymentEventPayload(shared, updated, payment)
  shared.events.emit(world, type, payload)
  // DOCS: requests made with a client ID also get the `.client_id` variant, sent in addition to the base event
  if (updated.clientId) shared.events.emit(world, `${type}.client_id`, payload)
}

/** Drops payments of `chainId` from block `fromBlock` on, in every live world; listening resumes where it applies. */
async function rollback(shared: Shared, chainId: number, fromBlock: bigint): Promise<void> {
  for (const world of shared.worlds.all()) {
    for (const record of requestState(world).requests.all()) {
      const gone = record.payments.filter((p) => p.chainId === chainId && BigInt(p.blockNumber) >= fromBlock)
      if (gone.length === 0) continue
      await requestState(world).requests.update(record.requestId, (draft) => {
        draft.payments = draft.payments.filter((p) => !gone.some((g) => g.key === p.key))
        draft.isListening = !isFullyPaid(shared, draft) && draft.payRequestedAt !== null
      })
    }
  }
}

/** The detector's sink: matches logs to the requests of every tenant through shared.paymentReferences. */
export function createDetectionSink(shared: Shared, onPayment?: PaymentListener): DetectorSink {
  return {
    watches: (hash: Hex) => shared.paymentReferences.has(hash),
    ready: () => shared.paymentReferences.complete(),
    async apply(transfers) {
      const live = new Set(shared.worlds.all())
      for (const t of transfers) {
        for (const entry of shared.paymentReferences.lookup(t.referenceHash, live, { revive: true })) {
          try {
            const apply = () => applyTo(shared, entry.world, entry.requestId, t, onPayment)
            await (shared.tracing ? traced(shared.tracing, entry.requestId, t, apply) : apply())
          } catch (error) {
            shared.log(`recording payment ${t.txHash}:${t.logIndex} failed`, error)
          }
        }
      }
    },
    rollback: (chainId, fromBlock) => rollback(shared, chainId, fromBlock),
  }
}

/**
 * With tracing on: the transfer's transaction and its detection as spans of the request's flow (the trace of the call
 * that created it); the webhook deliveries the detection starts nest under it.
 */
function traced(tracing: FlowTracing, requestId: string, t: DetectedTransfer, apply: () => Promise<void>) {
  const hash = t.txHash.toLowerCase()
  const where = { 'sandbox.network': t.network, 'sandbox.request.id': requestId }
  tracing.transaction(requestId, hash, {
    ...where,
    'sandbox.tx.block': Number(t.blockNumber),
    'sandbox.tx.from': t.from,
  })
  return tracing.inFlow(
    requestId,
    'payment.detected',
    {
      ...where,
      'sandbox.tx.hash': hash,
      'sandbox.tx.log_index': t.logIndex,
      'sandbox.payment.amount': t.amount.toString(),
    },
    apply,
    [hash],
  )
}
