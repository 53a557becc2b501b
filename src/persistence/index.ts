// Persistence (--state-dir): the sandbox's state kept in state.db across restarts and kills. The state dir
// (state-dir.ts) observes every change, the writer (writer.ts) commits them in group commits, revival
// (revival.ts, reviver.ts) brings worlds back, quarantine and salvage keep bad data to its key.

export { resumeWorld } from './revival.ts'
export { openStateDb } from './schema.ts'
export { StateDir } from './state-dir.ts'
export { ensureWritableDir } from './writable.ts'
export { StateWriter, type WriteOp } from './writer.ts'
