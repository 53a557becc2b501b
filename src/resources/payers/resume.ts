// What a world of this resource takes up again when its records came back (--state-dir revival, a snapshot's
// restore); registered beside its state, run by the persistence layer's `resumeWorld`.
import { onResume } from '../../contract/world.ts'
import { resumeKycReview } from './model.ts'
import { payerState, payersDef } from './tables.ts'

// pending KYC reviews are decided (their old timers died with the process)
onResume(payersDef, async (ctx: Parameters<typeof resumeKycReview>[0]) => {
  for (const payer of payerState(ctx.world).payers.all()) await resumeKycReview(ctx, payer)
})
