// On Node 20, keeps an object shaped as Node's tick objects (what `process.nextTick` and Node's own streams queue)
// alive for the life of the process. Imported first by request-sandbox.mjs.
//
// Node 20 builds each tick object from an object literal of four keys, the first two computed (its async id symbols).
// V8 defines each key, from the first computed one on, through a feedback slot that holds one map, weakly, and on
// seeing another map goes megamorphic for good: from then on every tick object is built in V8's runtime, about 3 µs
// more a `GET /v1/currencies` here. The first slot sees the empty literal's map, which always lives; the maps after it
// are held only by live objects of those maps (a map's back pointer holds its parents). A full garbage collection
// that runs while none is alive (at start-up, or when the process idles) frees them; the next tick object gets new
// maps, and the slots give up. An object of the
// same keys, in the same order, with values of the same kinds, has the same maps (a literal's first map is chosen by
// its number of keys), and keeps them alive.
// Node's current source adds a third symbol of its own (the async context frame) that user code cannot name: on a
// Node other than 20 this module keeps nothing. Record: docs/decisions/2026-12-07-tick-object-maps.md.
import { AsyncResource } from 'node:async_hooks'

// the two symbols, as an async resource holds them (an AsyncResource enables no hook), and its two ids: numbers of
// the kind nextTick stores (a number of another kind would change the maps instead of keeping them)
const resource = new AsyncResource('request-sandbox:tick-object-maps', { requireManualDestroy: true })
const symbols = Object.getOwnPropertySymbols(resource)
const asyncId = symbols.find((symbol) => symbol.description === 'async_id_symbol')
const triggerAsyncId = symbols.find((symbol) => symbol.description === 'trigger_async_id_symbol')

/** The object kept (undefined on a Node other than 20, or whose async resources hold other symbols). */
export const keptTickObject =
  process.versions.node.split('.')[0] === '20' && asyncId && triggerAsyncId
    ? {
        [asyncId]: resource[asyncId],
        [triggerAsyncId]: resource[triggerAsyncId],
        callback: () => {},
        args: undefined,
      }
    : undefined
