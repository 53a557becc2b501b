import { keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { Tenants } from '../../store/tenants.ts'
import { createWorld } from '../../store/world.ts'
import { PaymentReferenceIndex } from './reference-index.ts'

const log = () => {}

describe('PaymentReferenceIndex', () => {
  it('finds requests of any world by the log topic of their reference (keccak256 of the 8 bytes)', () => {
    const index = new PaymentReferenceIndex()
    const a = createWorld('a', 'default', log)
    const b = createWorld('b', 'default', log)
    index.add('0x0123456789ABCDEF', a, '01aa')
    index.add('0x0123456789abcdef', b, '01bb')
    const topic = keccak256('0x0123456789abcdef')
    expect(index.has(topic)).toBe(true)
    expect(index.lookup(topic, new Set([a, b]))).toEqual([
      { world: a, requestId: '01aa' },
      { world: b, requestId: '01bb' },
    ])
    a.clock.dispose()
    b.clock.dispose()
  })

  it('forgets requests of worlds that are gone', () => {
    const index = new PaymentReferenceIndex()
    const gone = createWorld('gone', 'default', log)
    index.add('0x0123456789abcdef', gone, '01aa')
    const topic = PaymentReferenceIndex.hashOf('0x0123456789abcdef')
    expect(index.lookup(topic, new Set())).toEqual([])
    expect(index.has(topic)).toBe(false)
    gone.clock.dispose()
  })

  it('keeps the requests of an evicted world and brings the world back for a lookup that revives', () => {
    const tenants = new Tenants(() => {})
    const index = new PaymentReferenceIndex()
    const revived: string[] = []
    index.setReviver((tenant, scenario) => {
      revived.push(tenant)
      const world = tenants.get(tenant, scenario)
      index.add('0x0011223344556677', world, 'req-1')
      return world
    })
    const first = tenants.get('a')
    index.add('0x0011223344556677', first, 'req-1')
    const hash = PaymentReferenceIndex.hashOf('0x0011223344556677')
    index.park(first)
    tenants.drop('a', 'default')
    expect(index.has(hash)).toBe(true)
    // a plain lookup (the dashboard's, by one key's worlds) neither finds nor revives it
    expect(index.lookup(hash, new Set())).toEqual([])
    expect(revived).toEqual([])
    const found = index.lookup(hash, new Set(), { revive: true })
    expect(revived).toEqual(['a'])
    expect(found).toHaveLength(1)
    expect(found[0]!.world).toBe(tenants.peek('a'))
    expect(found[0]!.requestId).toBe('req-1')
    // live again: not parked any more
    expect(index.lookup(hash, new Set([found[0]!.world]), { revive: true })).toHaveLength(1)
    expect(revived).toEqual(['a'])
  })

  it('forgets the parked requests of a key that is reset, and keeps those a reviver could not bring back', () => {
    const tenants = new Tenants(() => {})
    const index = new PaymentReferenceIndex()
    let fail = true
    index.setReviver((tenant, scenario) => {
      if (fail) throw new Error('not now')
      return tenants.get(tenant, scenario)
    })
    const world = tenants.get('b')
    index.add('0x8899aabbccddeeff', world, 'req-2')
    const hash = PaymentReferenceIndex.hashOf('0x8899aabbccddeeff')
    index.park(world)
    expect(index.lookup(hash, new Set(), { revive: true })).toEqual([])
    expect(index.has(hash)).toBe(true)
    fail = false
    index.forgetTenant('b')
    expect(index.has(hash)).toBe(false)
  })

  it("parks or forgets one world's requests only, those sharing a reference with another world's included", () => {
    const tenants = new Tenants(() => {})
    const index = new PaymentReferenceIndex()
    index.setReviver((tenant, scenario) => tenants.get(tenant, scenario))
    const [a, b, c] = ['a', 'b', 'c'].map((t) => tenants.get(t))
    index.add('0x1111111111111111', a!, 'a-1')
    index.add('0x1111111111111111', b!, 'b-1')
    index.add('0x2222222222222222', a!, 'a-2')
    index.add('0x3333333333333333', c!, 'c-3')
    const [shared, own, other] = ['0x1111111111111111', '0x2222222222222222', '0x3333333333333333'].map((r) =>
      PaymentReferenceIndex.hashOf(r),
    )
    const live = new Set([a!, b!, c!])
    index.park(a!)
    expect(index.lookup(shared!, live)).toEqual([{ world: b, requestId: 'b-1' }])
    expect(index.lookup(own!, live)).toEqual([])
    expect(index.has(own!)).toBe(true)
    index.forget(c!)
    expect(index.has(other!)).toBe(false)
    expect(index.lookup(shared!, live)).toEqual([{ world: b, requestId: 'b-1' }])
    // parked twice (evicted again before a payment came): still one parked entry, and b's stays live
    index.park(a!)
    // a world back in memory indexes its requests again, and parks them again when it leaves
    tenants.drop('a', 'default')
    const back = tenants.get('a')
    index.add('0x1111111111111111', back, 'a-1')
    index.add('0x2222222222222222', back, 'a-2')
    const liveAgain = new Set([back, b!])
    expect(index.lookup(own!, liveAgain)).toEqual([{ world: back, requestId: 'a-2' }])
    expect(index.lookup(shared!, liveAgain)).toEqual([
      { world: b, requestId: 'b-1' },
      { world: back, requestId: 'a-1' },
    ])
    index.park(back)
    expect(index.lookup(shared!, liveAgain)).toEqual([{ world: b, requestId: 'b-1' }])
    let revived = 0
    index.setReviver((tenant, scenario) => {
      revived++
      const world = tenants.get(tenant, scenario)
      index.add('0x2222222222222222', world, 'a-2')
      return world
    })
    const found = index.lookup(own!, new Set(), { revive: true })
    expect(revived).toBe(1)
    expect(found.map((e) => e.requestId)).toEqual(['a-2'])
    tenants.dispose()
  })
})
