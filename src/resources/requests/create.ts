// The create path of POST /v1|v2/request (and of the seed API's createRequest): the request, then, when it has a
// recurrence, its schedule (recurring.ts).
import { isPromise, type MaybePromise } from '../../contract/maybe-promise.ts'
import type { Uses } from '../services.ts'
import { createRequest } from './model.ts'
import { startRecurringSchedule } from './recurring.ts'
import type { CreateRequestBody, RequestRecord } from './schema.ts'

type Ctx = Uses<'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'>

/**
 * Creates a request and, when it has a recurrence, starts its schedule. `complete` finishes the record before any
 * child can copy it (the orchestrator fees it captures). The record at once when nothing waited (no `complete` that
 * waits, no recurrence), a promise of it otherwise.
 */
export function createRequestAndSchedule(
  ctx: Ctx,
  body: CreateRequestBody,
  complete?: (record: RequestRecord) => MaybePromise<RequestRecord>,
): MaybePromise<RequestRecord> {
  const created = createRequest(ctx, body)
  const completed = complete ? complete(created) : created
  if (!isPromise(completed) && !completed.recurrence) return completed
  return schedule(ctx, completed)
}

async function schedule(ctx: Ctx, completed: MaybePromise<RequestRecord>): Promise<RequestRecord> {
  const record = await completed
  await startRecurringSchedule(ctx, record)
  return record
}
