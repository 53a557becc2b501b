// The middlewares stage: the chain of middlewares around the rest of a call.
import type { MaybePromise } from '../contract/maybe-promise.ts'
import type { CallInfo, Middleware } from '../contract/middleware.ts'
import type { NeutralResponse } from '../contract/neutral.ts'

/** Runs `middleware` outermost first around `rest`; each middleware calls `next` at most once. */
export function middlewareChain(
  middleware: readonly Middleware[],
): (call: CallInfo, rest: () => MaybePromise<NeutralResponse>) => MaybePromise<NeutralResponse> {
  if (middleware.length === 0) return (_call, rest) => rest()
  return (call, rest) => {
    // one `next` for the whole chain: middleware i runs, then i + 1, then the rest
    let step = 0
    const next = (): MaybePromise<NeutralResponse> =>
      step < middleware.length ? middleware[step++]!(call, next) : rest()
    return next()
  }
}
