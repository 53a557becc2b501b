// Differences from the real service: no fiat moves. Once the crypto leg is detected at the sandbox's off-ramp
// deposit address, the off-ramp walks through the documented sub-statuses on the tenant clock
// (world.rules.offrampStepSeconds apart, so tests advance the clock instead of waiting) and ends as
// world.rules.offrampOutcome says: fiat_sent (then payment.confirmed with isCryptoToFiat), failed or bounced.
import type { World } from '../../contract/world.ts'
import { paymentDetailState } from '../payment-details/index.ts'
import type { Services } from '../services.ts'
import { paymentEventPayload, requestEventFields } from './events.ts'
import type { DetectedPayment, OfframpState, RequestRecord } from './schema.ts'
import { requestState } from './tables.ts'

type Shared = Services<'currencies' | 'events' | 'ids' | 'offrampAddress'>

type SubStatus = OfframpState['subStatus']

/** The sub-statuses an off-ramp goes through for each outcome, after `initiated`. */
const PATHS: Record<World['rules']['offrampOutcome'], SubStatus[]> = {
  fiat_sent: ['pending_internal_assessment', 'ongoing_checks', 'sending_fiat', 'fiat_sent'],
  failed: ['pending_internal_assessment', 'ongoing_checks', 'failed'],
  bounced: ['pending_internal_assessment', 'ongoing_checks', 'sending_fiat', 'bounced'],
}

/** Whether payments of this request go to the sandbox's off-ramp (crypto-to-fiat). */
export function isOfframpRequest(shared: Shared, record: RequestRecord): boolean {
  if (!record.isCryptoToFiatAvailable) return false
  return (
    record.offramp !== null || record.paymentAddress.toLowerCase() === shared.offrampAddress.toLowerCase()
  )
}

function processingPayload(
  world: World,
  record: RequestRecord,
  state: OfframpState,
  payment: DetectedPayment,
  currency: string,
) {
  const detail = state.paymentDetailsId
    ? paymentDetailState(world).paymentDetails.get(state.paymentDetailsId)
    : undefined
  return {
    ...requestEventFields(record),
    offrampId: state.id,
    timestamp: state.updatedAt,
    subStatus: state.subStatus,
    paymentProcessor: 'request-tech',
    rawPayload: {
      id: state.id,
      status: state.subStatus,
      clientUserId: state.clientUserId,
      paymentDetailsId: state.paymentDetailsId,
      cryptoAmount: payment.paidAmount,
      cryptoCurrency: currency,
      fiatCurrency: detail?.currency ?? null,
      txHash: payment.txHash,
    },
  }
}

async function moveTo(
  shared: Shared,
  world: World,
  requestId: string,
  subStatus: SubStatus,
  payment: DetectedPayment,
) {
  const updated = await requestState(world).requests.update(requestId, (draft) => {
    if (!draft.offrampState) return
    draft.offrampState.subStatus = subStatus
    draft.offrampState.updatedAt = world.clock.now().toISOString()
  })
  if (!updated?.offrampState) return
  const currency = shared.currencies.byId(updated.paymentCurrency)?.symbol ?? updated.paymentCurrency
  shared.events.emit(
    world,
    'payment.processing',
    processingPayload(world, updated, updated.offrampState, payment, currency),
  )
  if (subStatus === 'fiat_sent') {
    shared.events.emit(
      world,
      'payment.confirmed',
      paymentEventPayload(shared, updated, updated.payments.at(-1) ?? payment, {
        isCryptoToFiat: true,
        subStatus,
      }),
    )
  } else if (subStatus === 'failed' || subStatus === 'bounced') {
    shared.events.emit(world, 'payment.failed', {
      ...requestEventFields(updated),
      offrampId: updated.offrampState.id,
      timestamp: updated.offrampState.updatedAt,
      subStatus,
      paymentProcessor: 'request-tech',
    })
  }
}

/** The order sub-statuses come in (the three endings share the last rank). */
const RANK: Record<SubStatus, number> = {
  initiated: 0,
  pending_internal_assessment: 1,
  ongoing_checks: 2,
  sending_fiat: 3,
  fiat_sent: 4,
  failed: 4,
  bounced: 4,
}

/** Schedules the steps of `path` after `from` on the tenant clock: step i of the path at `startedAt + (i + 1) * step`. */
function scheduleSteps(
  shared: Shared,
  world: World,
  requestId: string,
  startedAt: number,
  from: SubStatus,
  payment: DetectedPayment,
) {
  const step = world.rules.offrampStepSeconds * 1000
  PATHS[world.rules.offrampOutcome].forEach((subStatus, i) => {
    if (RANK[subStatus] <= RANK[from]) return
    world.clock.schedule(new Date(startedAt + (i + 1) * step), `offramp ${requestId} ${subStatus}`, () =>
      moveTo(shared, world, requestId, subStatus, payment),
    )
  })
}

/**
 * Arms again the remaining steps of an off-ramp that was under way when the process stopped (--state-dir): each
 * at the time it had (from the off-ramp's start, or from its last step for a state saved without `startedAt`);
 * the ones already due run at once, in order. Nothing to do for a finished off-ramp.
 */
export function resumeOfframp(shared: Shared, world: World, record: RequestRecord): void {
  const state = record.offrampState
  if (!state || RANK[state.subStatus] === RANK.fiat_sent) return
  const payment = record.payments.at(-1)
  if (!payment) return
  const step = world.rules.offrampStepSeconds * 1000
  const startedAt = state.startedAt
    ? Date.parse(state.startedAt)
    : // without the start, the last step's time stands for its due time
      Date.parse(state.updatedAt) -
      Math.max(0, PATHS[world.rules.offrampOutcome].indexOf(state.subStatus) + 1) * step
  scheduleSteps(shared, world, record.requestId, startedAt, state.subStatus, payment)
}

/** Starts the off-ramp of a fully paid crypto-to-fiat request: `initiated` now, the rest on the tenant clock. */
export async function startOfframp(
  shared: Shared,
  world: World,
  requestId: string,
  payment: DetectedPayment,
) {
  const record = requestState(world).requests.get(requestId)
  if (!record || record.offrampState) return
  const now = world.clock.now()
  await requestState(world).requests.update(requestId, (draft) => {
    draft.offrampState = {
      id: `offramp_${shared.ids.ulid(now.getTime())}`,
      clientUserId: draft.offramp?.clientUserId ?? null,
      paymentDetailsId: draft.offramp?.paymentDetailsId ?? null,
      subStatus: 'initiated',
      updatedAt: now.toISOString(),
      startedAt: now.toISOString(),
    }
  })
  await moveTo(shared, world, requestId, 'initiated', payment)
  scheduleSteps(shared, world, requestId, now.getTime(), 'initiated', payment)
}
