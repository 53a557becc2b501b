// What a world of this resource takes up again when its records came back (--state-dir revival, a snapshot's
// restore); registered beside its state, run by the persistence layer's `resumeWorld`.
import { onResume } from '../../contract/world.ts'
import { resumeOfframp } from './offramp.ts'
import { resumeRecurringSchedule } from './recurring.ts'
import { requestState, requestsDef } from './tables.ts'

type Ctx = Parameters<typeof resumeRecurringSchedule>[0] & Parameters<typeof resumeOfframp>[0]

onResume(requestsDef, async (ctx: Ctx) => {
  // recurring requests go on on their clocks
  for (const schedule of requestState(ctx.world).recurringRequests.all())
    await resumeRecurringSchedule(ctx, schedule.requestId)
  // off-ramps under way take their remaining steps at the times they had (the due ones at once, in order)
  for (const request of requestState(ctx.world).requests.all()) resumeOfframp(ctx, ctx.world, request)
})
