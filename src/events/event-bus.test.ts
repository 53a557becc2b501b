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

describe('EventBus topics', () => {
  type Topics = { journal: [tenant: string, entry: string]; payment: [n: number] }

  it('tells every listener of a topic in the publisher turn, then those of its first argument only', () => {
    const bus = new EventBus<Topics>(createIdGenerator(1), () => {})
    const heard: string[] = []
    expect(bus.listens('journal')).toBe(false)
    const stopAll = bus.on('journal', (tenant, entry) => heard.push(`all ${tenant} ${entry}`))
    const stopA = bus.on('journal', (tenant, entry) => heard.push(`a ${tenant} ${entry}`), 'a')
    bus.on('payment', (n) => heard.push(`payment ${n}`))
    expect(bus.listens('journal')).toBe(true)
    bus.publish('journal', 'a', 'one')
    bus.publish('journal', 'b', 'two')
    bus.publish('payment', 3)
    expect(heard).toEqual(['all a one', 'a a one', 'all b two', 'payment 3'])
    stopAll()
    expect(bus.listens('journal')).toBe(true)
    stopA()
    expect(bus.listens('journal')).toBe(false)
    bus.publish('journal', 'a', 'three')
    expect(heard).toHaveLength(4)
  })

  it("keeps a listener's failure from the publisher and the other listeners", () => {
    const bus = new EventBus<Topics>(createIdGenerator(1), () => {})
    const heard: number[] = []
    bus.on('payment', () => {
      throw new Error('a closed terminal')
    })
    bus.on('payment', (n) => heard.push(n))
    expect(() => bus.publish('payment', 7)).not.toThrow()
    expect(heard).toEqual([7])
  })
})
