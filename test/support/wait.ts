// The tests wait with the sandbox's own poll-until (src/harness/wait.ts, which the harness and the scenario seeds
// use): switching to another shared helper is this one line.
export { type WaitForOptions, waitFor } from '../../src/harness/wait.ts'

import { waitFor } from '../../src/harness/wait.ts'

/** Calls `read` until `ok` holds (every 5 ms, up to `timeoutMs`); returns the value and how long it took. */
export async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<{ value: T; ms: number }> {
  const start = performance.now()
  let last: T | undefined
  const value = await waitFor(
    async () => {
      last = await read()
      return ok(last) ? last : undefined
    },
    { timeoutMs, intervalMs: 5, what: 'the condition' },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last value: ${JSON.stringify(last).slice(0, 600)}`)
  })
  return { value, ms: performance.now() - start }
}
