import { describe, expect, it } from 'vitest'
import { createIdGenerator } from '../store/ids.ts'
import { createWorld } from '../store/world.ts'
import { EventBus, MAX_EVENTS_PER_WORLD } from './event-bus.ts'

describe('EventBus', () => {
  it('records events in their world, hands them to listeners, and keeps only the newest', async () => {
    const bus = new EventBus(createIdGenerator(1), () => {})
    const world = createWorld('tenant', 'default', () => {})
    const heard: string[] = []
    bus.subscribe((event) => {
      heard.push(event.type)
    })
    const first = bus.emit(world, 'payment.partial', { requestId: 'r1' })
    expect(first.payload).toEqual({ event: 'payment.partial', requestId: 'r1' })
    for (let i = 0; i < MAX_EVENTS_PER_WORLD + 5; i++) bus.emit(world, 'payment.confirmed', { n: i })
    expect(world.events).toHaveLength(MAX_EVENTS_PER_WORLD)
    expect(world.events[0]!.payload.n).toBe(5)
    expect(world.events.includes(first)).toBe(false)
    await new Promise((r) => setTimeout(r, 0))
    expect(heard).toHaveLength(MAX_EVENTS_PER_WORLD + 6)
    world.clock.dispose()
  })
})
