// What a world of this resource takes up again when its records came back (--state-dir revival, a snapshot's
// restore); registered beside its state, run by the persistence layer's `resumeWorld`.
import { onResume } from '../../contract/world.ts'
import { resumeDetailReview } from './model.ts'
import { paymentDetailState, paymentDetailsDef } from './tables.ts'

// pending payment-detail reviews are decided (their old timers died with the process)
onResume(paymentDetailsDef, async (ctx: Parameters<typeof resumeDetailReview>[0]) => {
  for (const detail of paymentDetailState(ctx.world).paymentDetails.all())
    await resumeDetailReview(ctx, detail)
})
