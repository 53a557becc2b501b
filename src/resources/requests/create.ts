// The create path of POST /v1|v2/request (and of the seed API's createRequest): the request, then, when it has a
// recurrence, its schedule (recurring.ts).
import type { Uses } from '../services.ts'
import { createRequest } from './model.ts'
import { startRecurringSchedule } from './recurring.ts'
import type { CreateRequestBody, RequestRecord } from './schema.ts'

type Ctx = Uses<'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'>

/**
 * Creates a request and, when it has a recurrence, starts its schedule. `complete` finishes the record before any
 * child can copy it (the orchestrator fees it captures).
 */
export async function createRequestAndSchedule(
  ctx: Ctx,
  body: CreateRequestBody,
  complete: (record: RequestRecord) => Promise<RequestRecord> = async (record) => record,
): Promise<RequestRecord> {
  const record = await complete(await createRequest(ctx, body))
  await startRecurringSchedule(ctx, record)
  return record
}
