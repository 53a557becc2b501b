// What a world of this resource takes up again when its records came back (--state-dir revival, a snapshot's
// restore); registered beside its state, run by the persistence layer's `resumeWorld`.

import type { CallScope } from '../../contract/route-context.ts'
import { onResume } from '../../contract/world.ts'
import { resumeSettlements } from './settle.ts'
import { intentsDef } from './tables.ts'

// payment intents accepted but not settled: settled now, without redoing what the chains already hold
onResume(intentsDef, (ctx: Parameters<typeof resumeSettlements>[0] & CallScope) =>
  resumeSettlements(ctx, ctx.world),
)
