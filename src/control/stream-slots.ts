// The bound on long-lived streams (server-sent events): a key holds at most `perKey` of each kind open (the live
// journal of /__sandbox/stream, the listen clients of /__sandbox/webhooks/listen), every key of every scenario
// counted under its key, and the sandbox at most `total` of all kinds together, so that no key (nor many keys of one
// stranger) holds the process's file descriptors; claimed keys (--claimable) together at most half of `total`. A
// stream counts from its admission until its client goes away.
import { readFileSync } from 'node:fs'
import { type ClaimedKeys, claimedShare, claimedShareNote } from '../contract/claimed-share.ts'
import type { ResponseStream } from '../contract/neutral.ts'
import { SandboxError } from '../contract/sandbox-error.ts'

/** The streams a caller can hold open. */
export type StreamKind = 'stream' | 'listen'

/** The bounds of StreamSlots. */
export interface StreamLimits {
  /** streams of one kind one key may hold open (--max-streams) */
  perKey: number
  /** streams of every key and kind the sandbox holds open (--max-streams-total) */
  total: number
}

/** How long an admitted stream's place is held for it to open (ms). */
const RESERVED_MS = 30_000

/** Default streams of each kind a key may hold open. */
export const DEFAULT_STREAMS_PER_KEY = 10
/** Default streams the sandbox holds open at most (lowered to half the process's file limit when that is smaller). */
export const DEFAULT_STREAMS_TOTAL = 1000

const WHAT: Record<StreamKind, string> = {
  stream: 'live journal streams (/__sandbox/stream)',
  listen: 'listen clients (/__sandbox/webhooks/listen)',
}

/** 429: a key (or the sandbox) holds the most streams it may; names the bound and the flag that raises it. */
export class StreamLimitError extends SandboxError {
  override name = 'StreamLimitError'
  constructor(message: string) {
    super(429, message, { headers: { 'retry-after': '5' } })
  }
}

/** The streams open now, per key and kind and in all. */
export class StreamSlots {
  readonly limits: StreamLimits
  /** `${kind} ${tenant}` -> streams open or admitted */
  readonly #open = new Map<string, number>()
  #total = 0
  /** streams of claimed keys open (or admitted) */
  #claimedTotal = 0
  readonly #claimed: ClaimedKeys

  /** `claimed`: the keys of claimable sandboxes, which together hold at most half of the total */
  constructor(limits: Partial<StreamLimits> = {}, claimed: ClaimedKeys = () => false) {
    this.limits = {
      perKey: limits.perKey ?? DEFAULT_STREAMS_PER_KEY,
      total: limits.total ?? defaultTotal(),
    }
    this.#claimed = claimed
  }

  /** Streams of `kind` the key holds open (or admitted, on their way to open). */
  count(tenant: string, kind: StreamKind): number {
    return this.#open.get(`${kind} ${tenant}`) ?? 0
  }

  /** Streams open in all. */
  get total(): number {
    return this.#total
  }

  /** Throws a 429 when the key may not open another stream of `kind` now, or the sandbox holds its most. */
  admit(tenant: string, kind: StreamKind): void {
    const { perKey, total } = this.limits
    if (this.count(tenant, kind) >= perKey)
      throw new StreamLimitError(
        `A key may hold at most ${perKey} ${WHAT[kind]} open at once: close one, or start the sandbox with a higher --max-streams`,
      )
    if (this.#total >= total)
      throw new StreamLimitError(
        `The sandbox holds its most streams open (${total}, every key's live journal streams and listen clients): try again later, or start the sandbox with a higher --max-streams-total`,
      )
    const share = claimedShare(total)
    if (this.#claimedTotal >= share && this.#claimed(tenant))
      throw new StreamLimitError(
        `This sandbox holds its most streams open: ${claimedShareNote(`${share} streams`, '--max-streams-total')}`,
      )
  }

  /** Counts one open stream of the key; the function returned gives its place back (once). */
  hold(tenant: string, kind: StreamKind): () => void {
    const slot = `${kind} ${tenant}`
    this.#open.set(slot, (this.#open.get(slot) ?? 0) + 1)
    this.#total++
    const claimed = this.#claimed(tenant)
    if (claimed) this.#claimedTotal++
    let held = true
    return () => {
      if (!held) return
      held = false
      this.#total--
      if (claimed) this.#claimedTotal--
      const left = (this.#open.get(slot) ?? 1) - 1
      if (left > 0) this.#open.set(slot, left)
      else this.#open.delete(slot)
    }
  }

  /**
   * A route's stream, admitted now (429 past a bound) and counted from now: its place is held while the answer makes
   * its way (the state dir's commit may come first), kept from its opening until its client goes away, and given
   * back after RESERVED_MS when the stream never opens (an answer replaced on its way, a client gone before).
   */
  bounded(tenant: string, kind: StreamKind, stream: ResponseStream): ResponseStream {
    this.admit(tenant, kind)
    let reserved: (() => void) | null = this.hold(tenant, kind)
    const expiry = setTimeout(() => {
      reserved?.()
      reserved = null
    }, RESERVED_MS)
    expiry.unref()
    return {
      open: (write, end) => {
        clearTimeout(expiry)
        // opened after its reservation lapsed: counted again (the answer was admitted)
        const release = reserved ?? this.hold(tenant, kind)
        reserved = null
        let stop: () => void
        try {
          stop = stream.open(write, end)
        } catch (error) {
          release()
          throw error
        }
        return () => {
          release()
          stop()
        }
      },
    }
  }
}

/** DEFAULT_STREAMS_TOTAL, or half the process's open-file limit when that is lower (Linux; elsewhere the default). */
function defaultTotal(): number {
  const limit = openFileLimit()
  return limit === null
    ? DEFAULT_STREAMS_TOTAL
    : Math.max(1, Math.min(DEFAULT_STREAMS_TOTAL, Math.floor(limit / 2)))
}

/** The soft limit of open files of this process, read from /proc/self/limits; null where it cannot be read. */
export function openFileLimit(read: () => string = readLimits): number | null {
  try {
    const line = read()
      .split('\n')
      .find((l) => l.startsWith('Max open files'))
    const soft = line ? Number(line.slice('Max open files'.length).trim().split(/\s+/)[0]) : Number.NaN
    return Number.isSafeInteger(soft) && soft > 0 ? soft : null
  } catch {
    return null
  }
}

function readLimits(): string {
  return readFileSync('/proc/self/limits', 'utf8')
}
