// Differences from the real service: GET lists `requests` and `payments` in every state (the documents show them
// for `active` only); `failureCount` and `failureReason` appear while paused. Activating a paused, completed or
// cancelled payout answers 400 with the state (the documents only name the `already active` case).
import { type Address, type Hex, isAddressEqual, parseSignature, recoverTypedDataAddress } from 'viem'
import { permitStruct, SCHEDULE_PERMIT_TYPES, type SchedulePermitValues } from '../../chain/index.ts'
import { approveTransaction } from '../pay/index.ts'
import { setRecurrenceStopped } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import {
  InvalidActionError,
  InvalidPermitSignatureError,
  RecurringPaymentNotFoundError,
  RecurringPaymentStateError,
} from './errors.ts'
import { scheduleNext, worldContext } from './execution.ts'
import type { RecurringPayoutRecord } from './schema.ts'
import { payoutState } from './tables.ts'

type Ctx = Uses<
  'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'relayers'
>

/** Half the secp256k1 order: the proxy (like OpenZeppelin's ECDSA) refuses signatures with a larger `s`. */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/** The caller's recurring payout, or 404 `Recurring payment not found`. */
export function getPayout(ctx: Ctx, id: string): RecurringPayoutRecord {
  const payout = payoutState(ctx.world).recurringPayouts.get(id)
  if (!payout) throw new RecurringPaymentNotFoundError()
  return payout
}

/** `GET /v2/payouts/recurring/{id}`: the documented status body of each state. */
export function payoutStatus(payout: RecurringPayoutRecord) {
  return {
    processedPayments: payout.processedPayments,
    totalPayments: payout.totalPayments,
    lastPaymentDate: payout.lastPaymentDate,
    nextPaymentDate: payout.status === 'active' ? payout.nextPaymentDate : null,
    status: payout.status,
    ...(payout.status === 'paused'
      ? { failureCount: payout.failureCount, failureReason: payout.failureReason }
      : {}),
    requests: payout.requests.map((r) => ({ paymentReference: r.paymentReference, requestId: r.requestId })),
    payments: payout.payments.map((p) => ({
      id: p.id,
      amount: p.amount,
      timestamp: p.timestamp,
      txHash: p.txHash,
    })),
  }
}

/** Whether `signature` is the payer's 65-byte, low-s EIP-712 signature of the payout's permit. */
async function signedByPayer(payout: RecurringPayoutRecord, signature: string): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false
  try {
    if (BigInt(parseSignature(signature as Hex).s) > HALF_ORDER) return false
    const signer = await recoverTypedDataAddress({
      domain: { ...payout.domain, verifyingContract: payout.domain.verifyingContract as Address },
      types: SCHEDULE_PERMIT_TYPES,
      primaryType: 'SchedulePermit',
      message: permitStruct(payout.permit as SchedulePermitValues),
      signature: signature as Hex,
    })
    return isAddressEqual(signer, payout.payer as Address)
  } catch {
    return false
  }
}

/** `POST /v2/payouts/recurring/{id}`: checks the permit signature, activates, schedules the first payment. */
export async function activatePayout(ctx: Ctx, id: string, signature: string) {
  const payout = getPayout(ctx, id)
  if (payout.status === 'active') throw new RecurringPaymentStateError('Recurring payment is already active')
  if (payout.status !== 'pending') {
    throw new RecurringPaymentStateError(`Recurring payment is ${payout.status}`)
  }
  if (!(await signedByPayer(payout, signature))) throw new InvalidPermitSignatureError()
  await payoutState(ctx.world).recurringPayouts.update(id, (draft) => {
    draft.status = 'active'
    draft.signature = signature.toLowerCase()
  })
  await scheduleNext(worldContext(ctx), id, ctx.world.clock.now())
  return { message: 'Recurring payment activated successfully', id, status: 'active' as const }
}

async function cancel(ctx: Ctx, payout: RecurringPayoutRecord) {
  if (payout.status === 'cancelled')
    throw new RecurringPaymentStateError('Recurring payment is already cancelled')
  if (payout.status === 'completed') {
    throw new RecurringPaymentStateError('Cannot cancel a completed recurring payment')
  }
  if (payout.timerId !== null) ctx.world.clock.cancel(payout.timerId)
  const updated = (await payoutState(ctx.world).recurringPayouts.update(payout.id, (draft) => {
    draft.status = 'cancelled'
    draft.timerId = null
    draft.nextPaymentDate = null
  }))!
  await setRecurrenceStopped(ctx, payout.originalRequestId, true)
  const remaining = updated.totalPayments - updated.processedPayments
  const perPayment =
    BigInt(payout.permit.amount) + BigInt(payout.permit.feeAmount) + BigInt(payout.permit.relayerFee)
  // The allowance reset, with `value` as the documents write it for this endpoint (a hex string).
  const reset = approveTransaction(
    payout.permit.token as Address,
    payout.domain.verifyingContract as Address,
    0n,
  )
  return {
    id: payout.id,
    status: 'cancelled' as const,
    transactions: [{ to: reset.to, data: reset.data, value: '0x0' }],
    metadata: {
      remainingPayments: remaining,
      remainingAmount: (BigInt(remaining) * perPayment).toString(),
      processedPayments: updated.processedPayments,
      totalPayments: updated.totalPayments,
    },
  }
}

async function unpause(ctx: Ctx, payout: RecurringPayoutRecord) {
  if (payout.status !== 'paused') throw new RecurringPaymentStateError('Recurring payment is not paused')
  await payoutState(ctx.world).recurringPayouts.update(payout.id, (draft) => {
    draft.status = 'active'
  })
  // The missed payment is due now: it runs on the next clock tick, and the ones after it follow in order.
  await scheduleNext(worldContext(ctx), payout.id, ctx.world.clock.now())
  const updated = getPayout(ctx, payout.id)
  return {
    id: payout.id,
    status: 'active' as const,
    metadata: {
      processedPayments: updated.processedPayments,
      totalPayments: updated.totalPayments,
      nextPaymentDate: updated.nextPaymentDate,
    },
  }
}

/** `PATCH /v2/payouts/recurring/{id}` with `{action}`: cancel or unpause. */
export async function updatePayout(ctx: Ctx, id: string, action: string) {
  if (action !== 'cancel' && action !== 'unpause') throw new InvalidActionError(action)
  const payout = getPayout(ctx, id)
  return action === 'cancel' ? cancel(ctx, payout) : unpause(ctx, payout)
}
