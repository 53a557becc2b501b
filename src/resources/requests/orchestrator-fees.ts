// Orchestrator fees of a request (orchestrators/fees.mdx): a request created under a client ID that an orchestrator
// linked carries that orchestrator's `incoming` fees ("payments you receive"), resolved per bearer (the client ID's
// config, else the orchestrator's default) and captured at creation: later config changes apply only to requests
// created after them. `/v2/request/{id}/pay` adds the payer-borne ones to the payer's transactions (pay/).
import type { MaybePromise } from '../../contract/maybe-promise.ts'
import { activeLinkOf, resolveOrchestratorFees } from '../orchestrators/index.ts'
import type { Uses } from '../services.ts'
import type { RequestRecord } from './schema.ts'
import { requestState } from './tables.ts'

/** Captures the orchestrator fees of a request just created under a linked client ID (none otherwise). */
export function captureOrchestratorFees(
  ctx: Uses<'worlds'>,
  record: RequestRecord,
): MaybePromise<RequestRecord> {
  const clientId = record.clientId
  if (!clientId) return record
  const link = activeLinkOf(ctx.world, clientId)
  if (!link) return record
  const orchestrator = ctx.worlds.get(link.orchestratorKey, ctx.world.scenario)
  const fees = orchestrator ? resolveOrchestratorFees(orchestrator, clientId, 'incoming') : []
  if (fees.length === 0) return record
  const captured = fees.map(({ orchestratorId: _, ...fee }) => fee)
  return requestState(ctx.world)
    .requests.update(record.requestId, (draft) => {
      draft.orchestratorFees = captured
    })
    .then((updated) => updated ?? record)
}
