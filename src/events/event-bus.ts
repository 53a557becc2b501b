import type { EventType, SandboxEvent } from '../contract/events.ts'
import type { EventSink } from '../contract/ports.ts'
import type { World } from '../contract/world.ts'
import type { IdGenerator } from '../store/ids.ts'

/** How many events a world keeps (the oldest go first). */
export const MAX_EVENTS_PER_WORLD = 10_000

/** Receives every event of every world (webhook delivery, test harness). */
export type EventListener = (event: SandboxEvent, world: World) => void | Promise<void>

/** Records each event in its world's log and hands it to the listeners (webhook delivery subscribes here). */
export class EventBus implements EventSink {
  readonly #listeners = new Set<EventListener>()
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
}
