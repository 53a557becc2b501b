// Recurring requests (invoices created with `recurrence` through POST /v1|v2/request): on the tenant clock, each
// period produces a child request with its own requestId and paymentReference, linked to the original
// (originalRequestId, originalRequestPaymentReference), announced by `request.recurring`.
// Differences from the real service (whose schedule is not published): the original request stands for the
// occurrence at `startDate`; child k falls due at startDate + k periods, in calendar days, months and years (a
// month-end start keeps to the last day of shorter months). Periods missed while the recurrence was stopped are
// skipped when it resumes. Recurring payouts (POST /v2/payouts) run their own schedule (payouts/execution.ts).
import { parseDateOrTimestamp } from '../../contract/primitives.ts'
import { inWorld, type Uses } from '../services.ts'
import { NotRecurringError, RecurrenceAlreadyStoppedError } from './errors.ts'
import { requestEventFields } from './events.ts'
import { createRequest } from './model.ts'
import type { RecurringRequestRecord, RequestRecord } from './schema.ts'
import { requestState } from './tables.ts'

type Ctx = Uses<'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'>

/** When occurrence `index` falls due (0 = the original, at startDate). */
export function occurrenceDate(
  startDate: Date,
  frequency: RecurringRequestRecord['frequency'],
  index: number,
) {
  const y = startDate.getUTCFullYear()
  const m = startDate.getUTCMonth()
  const d = startDate.getUTCDate()
  const time = startDate.getTime() - Date.UTC(y, m, d)
  if (frequency === 'DAILY' || frequency === 'WEEKLY') {
    return new Date(startDate.getTime() + index * (frequency === 'DAILY' ? 1 : 7) * 86_400_000)
  }
  const months = m + index * (frequency === 'MONTHLY' ? 1 : 12)
  const lastDay = new Date(Date.UTC(y, months + 1, 0)).getUTCDate()
  return new Date(Date.UTC(y, months, Math.min(d, lastDay)) + time)
}

/** A context that outlives the call that made it (the clock runs the children after the call returned). */
function timedContext(ctx: Ctx): Ctx {
  return inWorld(ctx, ctx.world)
}

/** Starts the schedule of a request created with a recurrence: its record, and the timer of its first child. */
export async function startRecurringSchedule(ctx: Ctx, record: RequestRecord): Promise<void> {
  if (!record.recurrence) return
  await requestState(ctx.world).recurringRequests.insert({
    requestId: record.requestId,
    frequency: record.recurrence.frequency,
    startDate: parseDateOrTimestamp(record.recurrence.startDate)!.toISOString(),
    nextIndex: 1,
    nextDate: null,
    timerId: null,
    childCount: 0,
  })
  await scheduleNextChild(timedContext(ctx), record.requestId)
}

/** Arms a restored schedule again (its timer died with the process: --state-dir): the next child at its due date. */
export async function resumeRecurringSchedule(ctx: Ctx, requestId: string): Promise<void> {
  await requestState(ctx.world).recurringRequests.update(requestId, (draft) => {
    draft.timerId = null
  })
  await scheduleNextChild(timedContext(ctx), requestId)
}

/** Arms the one timer of a schedule: the next child at its due date (`skipPast`: never one already due). */
async function scheduleNextChild(ctx: Ctx, requestId: string, skipPast = false): Promise<void> {
  const { world } = ctx
  const schedule = requestState(world).recurringRequests.get(requestId)
  if (!schedule) return
  const start = new Date(schedule.startDate)
  let index = schedule.nextIndex
  const now = world.clock.now().getTime()
  while (skipPast && occurrenceDate(start, schedule.frequency, index).getTime() <= now) index++
  const at = occurrenceDate(start, schedule.frequency, index)
  if (schedule.timerId !== null) world.clock.cancel(schedule.timerId)
  const timerId = world.clock.schedule(at, `recurring request ${requestId}: child ${index}`, () =>
    createChild(ctx, requestId, index),
  )
  await requestState(world).recurringRequests.update(requestId, (draft) => {
    draft.nextIndex = index
    draft.nextDate = at.toISOString()
    draft.timerId = timerId
  })
}

/** Creates child `index` of a recurring request, announces it, and arms the next one. */
async function createChild(ctx: Ctx, requestId: string, index: number): Promise<void> {
  const { world } = ctx
  const schedule = requestState(world).recurringRequests.get(requestId)
  const original = requestState(world).requests.get(requestId)
  if (!schedule || !original || original.isRecurrenceStopped || schedule.nextIndex !== index) return
  const child = await createRequest(ctx, {
    amount: original.amount,
    invoiceCurrency: original.invoiceCurrency,
    paymentCurrency: original.paymentCurrency,
    ...(original.payee ? { payee: original.payee as `0x${string}` } : {}),
    ...(original.payer ? { payer: original.payer as `0x${string}` } : {}),
    ...(original.isCryptoToFiatAvailable ? { isCryptoToFiatAvailable: true } : {}),
    ...(original.customerInfo ? { customerInfo: original.customerInfo } : {}),
    ...(original.reference ? { reference: original.reference } : {}),
    originalRequestId: original.requestId,
    originalRequestPaymentReference: original.paymentReference,
  })
  // a child of a request made with a client ID is that client ID's sale too, with the orchestrator fees the series
  // captured when it was created (orchestrators/fees.mdx: "captured when a payment is created"; the series is)
  if (original.clientId) {
    await requestState(world).requests.update(child.requestId, (draft) => {
      draft.clientId = original.clientId
      draft.origin = original.origin
      draft.orchestratorFees = original.orchestratorFees
    })
  }
  await requestState(world).recurringRequests.update(requestId, (draft) => {
    draft.childCount += 1
    draft.nextIndex = index + 1
  })
  // the next child, unless the series was stopped while this one was being made (a resume arms it then)
  if (!requestState(world).requests.get(requestId)?.isRecurrenceStopped)
    await scheduleNextChild(ctx, requestId)
  ctx.events.emit(world, 'request.recurring', {
    ...requestEventFields(child),
    originalRequestId: original.requestId,
    originalRequestPaymentReference: original.paymentReference,
    timestamp: occurrenceDate(new Date(schedule.startDate), schedule.frequency, index).toISOString(),
  })
}

/** The request that carries the recurrence of `record`: itself, or the original of a child. */
function recurringRoot(ctx: Ctx, record: RequestRecord): RequestRecord {
  if (record.recurrence) return record
  const original = record.originalRequestId
    ? requestState(ctx.world).requests.get(record.originalRequestId)
    : undefined
  if (original?.recurrence) return original
  throw new NotRecurringError()
}

/**
 * Stops (`stopped` true) or resumes the recurrence of `record` or of the series it belongs to. `strict` (the v1
 * stop-recurrence) refuses a recurrence already stopped; the v2 PATCH sets the flag and is idempotent.
 */
export async function setRecurrence(
  ctx: Ctx,
  record: RequestRecord,
  stopped: boolean,
  options: { strict?: boolean } = {},
): Promise<void> {
  const { world } = ctx
  const root = recurringRoot(ctx, record)
  if (options.strict && stopped && root.isRecurrenceStopped) throw new RecurrenceAlreadyStoppedError()
  const schedule = requestState(world).recurringRequests.get(root.requestId)
  const series = requestState(world)
    .requests.all()
    .filter((r) => r.requestId === root.requestId || r.originalRequestId === root.requestId)
  for (const { requestId } of series) {
    await requestState(world).requests.update(requestId, (draft) => {
      draft.isRecurrenceStopped = stopped
    })
  }
  if (!schedule) return // a recurring payout's original: the payout runs its own schedule
  if (stopped) {
    if (schedule.timerId !== null) world.clock.cancel(schedule.timerId)
    await requestState(world).recurringRequests.update(root.requestId, (draft) => {
      draft.timerId = null
      draft.nextDate = null
    })
  } else if (schedule.timerId === null) {
    await scheduleNextChild(timedContext(ctx), root.requestId, true)
  }
}
