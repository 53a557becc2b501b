// Runs a recurring payout on the tenant clock: one timer for the next payment at a time. When it fires, the
// payment gets its own child request (linked by originalRequestId) and the relayer triggers it on chain with
// that request's reference; the next payment is then scheduled, or the payout completes. A failed trigger
// pauses the payout; unpausing schedules the missed payment at once and the rest follow in order.
import type { Address, Hex } from 'viem'
import { RelayFailure, type SchedulePermitValues } from '../../chain/index.ts'
import { fromBaseUnits } from '../../contract/amounts.ts'
import type { World } from '../../contract/world.ts'
import { createRequest, requestState, startListening } from '../requests/index.ts'
import { inWorld, type Uses } from '../services.ts'
import type { RecurringPayoutRecord } from './schema.ts'
import { payoutState } from './tables.ts'

type Ctx = Uses<
  'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'relayers'
>

/** Seconds between two payments of each frequency (the proxy takes a fixed period: a month is 30 days). */
export const PERIOD_SECONDS = {
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
  MONTHLY: 30 * 86_400,
  YEARLY: 365 * 86_400,
} as const

/** When payment `index` (1-based) falls due, as the proxy computes it. */
export function dueDate(payout: RecurringPayoutRecord, index: number): Date {
  return new Date((payout.permit.firstPayment + (index - 1) * payout.permit.periodSeconds) * 1000)
}

/** The recurring payout and payment index a child request was created for (for payment detection). */
export function payoutOfChildRequest(
  world: World,
  requestId: string,
): { id: string; index: number } | undefined {
  for (const payout of payoutState(world).recurringPayouts.all()) {
    const child = payout.requests.find((r) => r.requestId === requestId)
    if (child) return { id: payout.id, index: child.index }
  }
  return undefined
}

/** A context that outlives the call that created it (timed tasks run after the HTTP call has returned). */
export function worldContext(ctx: Ctx): Ctx {
  return inWorld(ctx, ctx.world)
}

/**
 * Schedules the payout's next payment at its due time, or at `notBefore` when that is later (a payment is
 * never recorded before the one it follows, nor before the payout was (re)activated).
 */
export async function scheduleNext(ctx: Ctx, id: string, notBefore: Date): Promise<void> {
  const { world } = ctx
  const payout = payoutState(world).recurringPayouts.get(id)
  if (payout?.status !== 'active' || payout.processedPayments >= payout.totalPayments) return
  const index = payout.processedPayments + 1
  const due = dueDate(payout, index)
  const at = due > notBefore ? due : notBefore
  if (payout.timerId !== null) world.clock.cancel(payout.timerId)
  const timerId = world.clock.schedule(at, `recurring payout ${id}: payment ${index}`, () =>
    runPayment(ctx, id, index, at),
  )
  await payoutState(world).recurringPayouts.update(id, (draft) => {
    draft.timerId = timerId
    draft.nextPaymentDate = at.toISOString()
  })
}

/** The child request of payment `index`: created on its first attempt (and announced), reused on a retry. */
async function childRequest(ctx: Ctx, payout: RecurringPayoutRecord, index: number) {
  const existing = payout.requests.find((r) => r.index === index)
  if (existing) return existing
  const record = await createRequest(ctx, {
    amount: payout.amount,
    invoiceCurrency: payout.invoiceCurrency,
    paymentCurrency: payout.paymentCurrency,
    payee: payout.payee as Address,
    payer: payout.payer as Address,
    originalRequestId: payout.originalRequestId,
    originalRequestPaymentReference: payout.originalRequestPaymentReference,
  })
  // Its payment.confirmed is the relayer's (with recurringPayment), not the detector's.
  requestState(ctx.world).announcedElsewhere.add(record.requestId)
  // The service watches each execution's reference, as it does once a request's calldata was asked for.
  await startListening(ctx, record)
  const child = { index, requestId: record.requestId, paymentReference: record.paymentReference }
  await payoutState(ctx.world).recurringPayouts.update(payout.id, (draft) => {
    draft.requests.push(child)
  })
  ctx.events.emit(ctx.world, 'request.recurring', {
    originalRequestId: payout.originalRequestId,
    originalRequestPaymentReference: payout.originalRequestPaymentReference,
    requestId: child.requestId,
    paymentReference: child.paymentReference,
    recurringPayment: { id: payout.id },
  })
  return child
}

/** Triggers payment `index` on chain and records the outcome (payment and next timer, or pause). */
async function runPayment(ctx: Ctx, id: string, index: number, at: Date): Promise<void> {
  const { world } = ctx
  const payout = payoutState(world).recurringPayouts.get(id)
  if (payout?.status !== 'active' || payout.processedPayments + 1 !== index) return
  await payoutState(world).recurringPayouts.update(id, (draft) => {
    draft.timerId = null
  })
  const child = await childRequest(ctx, payout, index)
  const currency = ctx.currencies.byId(payout.paymentCurrency)!
  const base = {
    requestId: child.requestId,
    requestID: child.requestId,
    paymentReference: child.paymentReference,
    paymentProcessor: 'request-network',
    recurringPayment: { id },
  }
  try {
    const relayer = ctx.relayers.get(payout.network)
    if (!relayer) throw new RelayFailure(`No relayer runs on ${payout.network}`, 'failed')
    const paid = await relayer.trigger({
      permit: payout.permit as SchedulePermitValues,
      signature: payout.signature as Hex,
      index,
      paymentReference: child.paymentReference as Hex,
      dueAt: dueDate(payout, index),
    })
    const amount = fromBaseUnits(paid.amount, currency.decimals)
    const updated = await payoutState(world).recurringPayouts.update(id, (draft) => {
      draft.processedPayments = index
      draft.lastPaymentDate = at.toISOString()
      draft.nextPaymentDate = null
      draft.payments.push({
        id: ctx.ids.ulid(at.getTime()),
        index,
        amount,
        timestamp: at.toISOString(),
        txHash: paid.txHash,
        blockNumber: paid.blockNumber,
        requestId: child.requestId,
      })
      if (index === draft.totalPayments && draft.status === 'active') draft.status = 'completed'
    })
    ctx.events.emit(world, 'payment.confirmed', {
      ...base,
      explorer: `https://scan.request.network/request/${child.requestId}`,
      amount,
      totalAmountPaid: amount,
      expectedAmount: payout.amount,
      timestamp: at.toISOString(),
      txHash: paid.txHash,
      payerAddress: payout.payer,
      payerEoaAddress: payout.payer,
      network: payout.network,
      currency: ctx.currencies.byId(payout.invoiceCurrency)?.symbol ?? payout.invoiceCurrency,
      paymentCurrency: currency.symbol,
      isCryptoToFiat: false,
      subStatus: '',
      fees:
        paid.feeAmount > 0n
          ? [
              {
                type: 'platform',
                amount: fromBaseUnits(paid.feeAmount, currency.decimals),
                currency: currency.symbol,
              },
            ]
          : [],
    })
    if (updated?.status === 'active') await scheduleNext(ctx, id, at)
  } catch (error) {
    const failure =
      error instanceof RelayFailure ? error : new RelayFailure(`Payment failed: ${String(error)}`, 'failed')
    await payoutState(world).recurringPayouts.update(id, (draft) => {
      if (draft.status === 'active') draft.status = 'paused'
      draft.failureCount += 1
      draft.failureReason = failure.reason
      draft.nextPaymentDate = null
    })
    ctx.events.emit(world, 'payment.failed', {
      ...base,
      subStatus: failure.subStatus,
      failureReason: failure.reason,
    })
  }
}
