// What a middleware that waits (a seed, a delay) runs its rest in: an error thrown while it waits is answered in the
// service's shape, as the dispatcher would.
import type { MaybePromise } from '../../contract/maybe-promise.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import type { SandboxState } from '../../control/services.ts'
import { renderError } from '../../errors/render-error.ts'

export async function guarded(
  log: SandboxState['log'],
  run: () => MaybePromise<NeutralResponse>,
): Promise<NeutralResponse> {
  try {
    return await run()
  } catch (error) {
    return renderError(error, log)
  }
}
