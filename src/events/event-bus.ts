import type { EventType, SandboxEvent } from '../contract/events.ts'
import type { EventSink } from '../contract/ports.ts'
import type { World } from '../contract/world.ts'
import type { IdGenerator } from '../store/ids.ts'

/** How many events a world keeps (the oldest go first). */
export const MAX_EVENTS_PER_WORLD = 10_000

/** Receives every event of every world (webhook delivery, test harness). */
export type EventListener = (event: SandboxEvent, world: World) => void | Promise<void>

/**
 * What the bus tells besides domain events, by topic: each topic's arguments (e.g. `journal: [tenant, entry]`). A
 * topic whose first argument is a tenant can be heard for one tenant only (`on(topic, listener, tenant)`).
 */
export type Topics<T> = { [K in keyof T]: unknown[] }

type TopicListener = (...args: unknown[]) => void

/**
 * The one channel for "something happened". Domain events (`emit`): recorded in their world and handed to the
 * subscribers after the emitting call (webhook delivery, the journal, secure payments' checkout variants). Topics
 * (`publish`): told synchronously, as they happen, to whoever listens (the journal's entries to the terminal log,
 * --state-dir and the live streams; the detector's payments to the terminal log); nobody listening costs one lookup.
 */
export class EventBus<T extends Topics<T> = Record<never, never>> implements EventSink {
  readonly #listeners = new Set<EventListener>()
  /** topic -> listeners of every publication */
  readonly #topics = new Map<keyof T, Set<TopicListener>>()
  /** topic -> first argument (a tenant) -> listeners of that tenant's publications */
  readonly #keyed = new Map<keyof T, Map<unknown, Set<TopicListener>>>()
  readonly #ids: IdGenerator
  readonly #log: (message: string, error: unknown) => void

  constructor(ids: IdGenerator, log: (message: string, error: unknown) => void) {
    this.#ids = ids
    this.#log = log
  }

  /** Emits an event in `world` at the world's clock time. `payload.event` is set to the type. */
  emit(
    world: World,
    type: EventType,
    payload: Record<string, unknown>,
    options?: { clientId?: string | null },
  ): SandboxEvent {
    const at = world.clock.now()
    const event: SandboxEvent = {
      id: this.#ids.ulid(at.getTime()),
      type,
      tenant: world.tenant,
      scenario: world.scenario,
      at: at.toISOString(),
      payload: { event: type, ...payload },
      // a payment of a request made with a client ID names it in its payload; other events say it here
      clientId: options?.clientId ?? (typeof payload.clientId === 'string' ? payload.clientId : null),
    }
    world.events.push(event)
    // bounded, like the journal: a long-running sandbox keeps the newest events of each world
    if (world.events.length > MAX_EVENTS_PER_WORLD)
      world.events.splice(0, world.events.length - MAX_EVENTS_PER_WORLD)
    for (const listener of this.#listeners) {
      Promise.resolve()
        .then(() => listener(event, world))
        .catch((error) => this.#log(`event listener failed on ${type}`, error))
    }
    return event
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Calls `listener` with each publication of `topic` (with `key`: only those whose first argument is `key`), in
   * the publisher's turn; returns the function that stops it.
   */
  on<K extends keyof T>(topic: K, listener: (...args: T[K]) => void, key?: T[K][0]): () => void {
    const heard = listener as unknown as TopicListener
    if (key === undefined) {
      let set = this.#topics.get(topic)
      if (!set) {
        set = new Set()
        this.#topics.set(topic, set)
      }
      set.add(heard)
      return () => {
        set.delete(heard)
        if (set.size === 0 && this.#topics.get(topic) === set) this.#topics.delete(topic)
      }
    }
    let byKey = this.#keyed.get(topic)
    if (!byKey) {
      byKey = new Map()
      this.#keyed.set(topic, byKey)
    }
    let set = byKey.get(key)
    if (!set) {
      set = new Set()
      byKey.set(key, set)
    }
    set.add(heard)
    return () => {
      set.delete(heard)
      if (set.size === 0 && byKey.get(key) === set) byKey.delete(key)
      if (byKey.size === 0 && this.#keyed.get(topic) === byKey) this.#keyed.delete(topic)
    }
  }

  /** Whether anyone listens to `topic` (a publisher skips building what nobody would read). */
  listens(topic: keyof T): boolean {
    return this.#topics.has(topic) || this.#keyed.has(topic)
  }

  /**
   * Tells `topic`'s listeners, those of every publication first, then those of its first argument. A listener's
   * failure (a closed terminal or stream) is its own: it never reaches the publisher nor the other listeners.
   */
  publish<K extends keyof T>(topic: K, ...args: T[K]): void {
    const all = this.#topics.get(topic)
    if (all) for (const listener of all) tell(listener, args)
    const keyed = this.#keyed.get(topic)?.get(args[0])
    if (keyed) for (const listener of keyed) tell(listener, args)
  }
}

function tell(listener: TopicListener, args: unknown[]): void {
  try {
    listener(...args)
  } catch {
    // the listener's failure stays with it
  }
}
