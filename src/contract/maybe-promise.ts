// A value a step may give at once or later. The request path of a call that waits for nothing (nearly every call
// without --state-dir) stays synchronous from the transport to the handler and back: no promise, no microtask per
// stage. Record: docs/decisions/2026-12-06-synchronous-call-path.md.

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>

/** Whether `value` is a promise (or another thenable: one made in another realm, as under jest's module sandbox). */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')
  )
}
