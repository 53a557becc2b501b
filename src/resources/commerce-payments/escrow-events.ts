// Commerce payments' transitions: the escrow watcher's events, recorded once each on the payments that carry their
// reference, each announced by a webhook.
import type { EscrowEvent } from '../../chain/index.ts'
import { fromBaseUnits } from '../../contract/amounts.ts'
import type { EventType } from '../../contract/events.ts'
import { keccakHex } from '../../contract/keccak.ts'
import type { World } from '../../contract/world.ts'
import type { Services } from '../services.ts'
import { amountsOfTransitions, statusOf } from './model.ts'
import type { CommerceTransition } from './schema.ts'
import { commercePaymentState } from './tables.ts'

type Shared = Services<'chains' | 'events' | 'paymentReferences' | 'worlds' | 'log'>

const TRANSITION_OF: Record<EscrowEvent['name'], CommerceTransition['type']> = {
  PaymentAuthorized: 'authorize',
  PaymentCaptured: 'capture',
  PaymentVoided: 'void',
  PaymentReclaimed: 'reclaim',
  PaymentRefunded: 'refund',
}

const EVENT_OF: Record<CommerceTransition['type'], EventType> = {
  authorize: 'commerce_payment.authorized',
  capture: 'commerce_payment.captured',
  void: 'commerce_payment.voided',
  reclaim: 'commerce_payment.reclaimed',
  refund: 'commerce_payment.refunded',
}

/**
 * The escrow watcher's sink (its one writer, called in chain order, one call at a time per chain): records escrow
 * events on the commerce payments of every tenant that carry their reference (once per log) and emits one webhook
 * per transition.
 */
export async function applyEscrowEvents(
  shared: Pick<Shared, 'events' | 'paymentReferences' | 'worlds' | 'log'>,
  events: readonly EscrowEvent[],
): Promise<void> {
  if (events.length === 0) return
  // after a --state-dir restart, once every saved world is back (in the background): nothing is revived at once here
  await shared.paymentReferences.complete()
  const live = new Set(shared.worlds.all())
  for (const event of events) {
    for (const entry of shared.paymentReferences.lookup(keccakHex(event.paymentReference), live, {
      revive: true,
    })) {
      try {
        await applyTo(shared, entry.world, entry.requestId, event)
      } catch (error) {
        shared.log(`recording escrow event ${event.txHash}:${event.logIndex} failed`, error)
      }
    }
  }
}

async function applyTo(
  shared: Pick<Shared, 'events'>,
  world: World,
  requestId: string,
  event: EscrowEvent,
): Promise<void> {
  const table = commercePaymentState(world).commercePayments
  const record = table.get(requestId)
  if (!record || record.chainId !== event.chainId) return
  if (record.transitions.some((t) => t.txHash === event.txHash && t.logIndex === event.logIndex)) return
  const transition: CommerceTransition = {
    type: TRANSITION_OF[event.name],
    amount: fromBaseUnits(event.amount, record.decimals),
    feeAmount: fromBaseUnits(event.feeAmount, record.decimals),
    txHash: event.txHash,
    logIndex: event.logIndex,
    blockNumber: Number(event.blockNumber),
    timestamp: event.timestamp.toISOString(),
  }
  const updated = await table.update(requestId, (draft) => {
    draft.transitions.push(transition)
    draft.status = statusOf(amountsOfTransitions(draft), 0, draft.preApprovalExpiry)
    draft.updatedAt = world.clock.now().toISOString()
  })
  if (!updated) return
  const amounts = amountsOfTransitions(updated)
  const human = (units: bigint) => fromBaseUnits(units, updated.decimals)
  shared.events.emit(world, EVENT_OF[transition.type], {
    requestId: updated.requestId,
    paymentReference: updated.paymentReference,
    status: updated.status,
    amount: transition.amount,
    feeAmount: transition.feeAmount,
    ...(event.feeReceiver ? { feeReceiver: event.feeReceiver } : {}),
    ...(event.by ? { refundedBy: event.by } : {}),
    authorizedAmount: human(amounts.authorized),
    capturableAmount: human(amounts.capturable),
    capturedAmount: human(amounts.captured),
    refundedAmount: human(amounts.refunded),
    paymentCurrency: updated.paymentCurrency,
    network: updated.network,
    chainId: updated.chainId,
    escrowAddress: updated.escrowAddress,
    payer: updated.payer,
    merchant: updated.merchant,
    operator: updated.operator,
    txHash: transition.txHash,
    timestamp: transition.timestamp,
    ...(updated.clientId ? { clientId: updated.clientId } : {}),
  })
}
