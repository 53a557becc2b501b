// Keeps one of Node's tick objects (what `process.nextTick` and Node's own streams queue) alive for the life of the
// process. Imported first by request-sandbox.mjs.
//
// Node 20 builds each tick object from an object literal whose first two keys are computed (its async id symbols).
// V8 defines a computed key through a cache that remembers one map and, on seeing another, gives up for good: from
// then on every tick object is built in V8's runtime, about 3 µs more per API call here (a dozen tick objects each).
// The cache holds its maps weakly. A full garbage collection that runs while no tick object is alive frees them
// (after a minute idle it always does; so could the file walk below, at the start), the next tick object gets new
// maps, and the cache gives up. A tick object kept alive keeps its maps alive, and the cache stays on them.
// Record: docs/decisions/2026-12-07-tick-object-maps.md.
import { createHook } from 'node:async_hooks'

let kept
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject') kept ??= resource
  },
}).enable()
process.nextTick(() => {})
hook.disable()

/** The tick object kept (undefined should a future Node queue no TickObject). */
export const keptTickObject = kept
