// What a world of this resource takes up again when its records came back (--state-dir revival, a snapshot's
// restore); registered beside its state, run by the persistence layer's `resumeWorld`.
import { onResume } from '../../contract/world.ts'
import { scheduleNext } from './execution.ts'
import { payoutState, payoutsDef } from './tables.ts'

// active recurring payouts go on on their clocks (their old timers died with the process)
onResume(payoutsDef, async (ctx: Parameters<typeof scheduleNext>[0]) => {
  const payouts = payoutState(ctx.world).recurringPayouts
  for (const payout of payouts.all()) {
    if (payout.status !== 'active') continue
    await payouts.update(payout.id, (draft) => {
      draft.timerId = null
    })
    await scheduleNext(ctx, payout.id, ctx.world.clock.now())
  }
})
