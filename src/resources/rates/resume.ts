// What a world of this resource takes up again when its records came back (--state-dir revival, a snapshot's
// restore); registered beside its state, run by the persistence layer's `resumeWorld`.
import { onResume } from '../../contract/world.ts'
import { restoreWorldRates } from './model.ts'
import { ratesDef } from './tables.ts'

// the key's own conversion stack (its rates are in the world's tables; the stack's registration was in memory), before
// the other resources' hooks: a recurring request's next occurrence or an off-ramp's step may convert
onResume(ratesDef, restoreWorldRates, { first: true })
