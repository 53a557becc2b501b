// Polling until something shows up: the one wait helper of the harness, the scenario seeds and the tests.
// No Node built-ins: the browser harness uses it too.

/** Options of waitFor. */
export interface WaitForOptions {
  /** give up after this long (default 10 s) */
  timeoutMs?: number
  /** between two probes (default 20 ms) */
  intervalMs?: number
  /** what is awaited, for the timeout error */
  what?: string
}

/**
 * Calls `probe` (sync or async) until it returns something other than `undefined`, and returns that; throws
 * `timed out after <timeoutMs> ms waiting for <what>` when it never does.
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 20, what = 'a condition' } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
