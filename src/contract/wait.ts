// Waiting for something to happen, the one helper src and tests share: poll a probe until it answers.
// Pure: no imports, timers only.

/** How long to wait and how often to look. */
export interface WaitOptions {
  /** give up after this many ms (default 5000) */
  timeoutMs?: number
  /** ms between two looks (default 20) */
  intervalMs?: number
  /** what is awaited, for the timeout message */
  what?: string
}

function timeoutError(timeoutMs: number, what: string | undefined, last?: string): Error {
  const waiting = what ? ` waiting for ${what}` : ''
  return new Error(
    `timed out after ${timeoutMs} ms${waiting}${last === undefined ? '' : `; last value: ${last}`}`,
  )
}

/** Calls `probe` until it returns something other than undefined, and resolves with that. */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 5_000, intervalMs = 20, what } = options
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (performance.now() > deadline) throw timeoutError(timeoutMs, what)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** Calls `read` until `ok` holds for its value; resolves with the value and how many ms it took. */
export async function until<T>(
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  options: WaitOptions = {},
): Promise<{ value: T; ms: number }> {
  const { timeoutMs = 5_000, intervalMs = 20, what } = options
  const start = performance.now()
  for (;;) {
    const value = await read()
    if (ok(value)) return { value, ms: performance.now() - start }
    if (performance.now() - start > timeoutMs) {
      let last: string
      try {
        last = String(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))).slice(
          0,
          600,
        )
      } catch {
        last = String(value)
      }
      throw timeoutError(timeoutMs, what, last)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
