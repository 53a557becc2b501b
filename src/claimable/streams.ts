// The long-lived answers of claimed keys (server-sent events: /__sandbox/stream, /__sandbox/webhooks/listen): each one
// opened is held under its key, so that the key's expiry ends them all (the body ends, their sources stop, nothing
// more is sent). One that opens after its key expired ends at once, sending nothing.
import type { ResponseStream } from '../contract/neutral.ts'

export class ClaimedStreams {
  /** key -> the `end` of each of its streams open now */
  readonly #open = new Map<string, Set<() => void>>()

  /** `stream` of `key`, ended by `end(key)`, or at its opening when `expired()` says so then. */
  hold(key: string, stream: ResponseStream, expired: () => boolean): ResponseStream {
    return {
      open: (write, end) => {
        if (expired()) {
          end()
          // opened and stopped at once, sending nothing: its place among the streams is given back now
          stream.open(
            () => {},
            () => {},
          )()
          return () => {}
        }
        const ends = this.#open.get(key) ?? new Set<() => void>()
        this.#open.set(key, ends)
        ends.add(end)
        const forget = () => {
          ends.delete(end)
          if (ends.size === 0 && this.#open.get(key) === ends) this.#open.delete(key)
        }
        let stop: () => void
        try {
          stop = stream.open(write, end)
        } catch (error) {
          // never opened: nothing of it is held, its expiry has nothing to end
          forget()
          throw error
        }
        return () => {
          forget()
          stop()
        }
      },
    }
  }

  /** Ends every stream of `key` open now. */
  end(key: string): void {
    const ends = this.#open.get(key)
    if (!ends) return
    this.#open.delete(key)
    for (const end of [...ends]) end()
  }

  /** Streams of `key` open now. */
  count(key: string): number {
    return this.#open.get(key)?.size ?? 0
  }
}
