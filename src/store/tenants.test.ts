import { describe, expect, it } from 'vitest'
import { Tenants } from './tenants.ts'

describe('Tenants', () => {
  it('evicts the least recently used world past the cap and tells the drop listeners', () => {
    const tenants = new Tenants(() => {}, { maxWorlds: 3 })
    const dropped: string[] = []
    tenants.onDrop((world, reason, last) =>
      dropped.push(`${world.tenant}/${world.scenario}:${reason}:${last}`),
    )
    const a = tenants.get('a')
    tenants.get('b')
    tenants.get('a', 'other')
    expect(tenants.get('a')).toBe(a) // a is used again: b is now the oldest
    tenants.get('c')
    expect(dropped).toEqual(['b/default:evict:true'])
    expect(tenants.peek('b')).toBeUndefined()
    expect(tenants.size).toBe(3)
    tenants.get('d')
    // a/other was used before a/default: it goes, and a keeps a world
    expect(dropped.at(-1)).toBe('a/other:evict:false')
    tenants.reset('a')
    expect(dropped.at(-1)).toBe('a/default:reset:true')
    expect([...tenants.all()].map((w) => w.tenant).sort()).toEqual(['c', 'd'])
  })

  it('with `full` (no state dir to keep an evicted world) evicts nothing and refuses a new world past the cap', () => {
    const tenants = new Tenants(() => {}, { maxWorlds: 2, full: (max) => new Error(`full at ${max}`) })
    const dropped: string[] = []
    tenants.onDrop((world, reason) => dropped.push(`${world.tenant}:${reason}`))
    const a = tenants.get('a')
    tenants.get('b')
    expect(() => tenants.get('c')).toThrow('full at 2')
    expect(dropped).toEqual([])
    expect(tenants.get('a')).toBe(a)
    expect(tenants.size).toBe(2)
    tenants.reset('b')
    expect(tenants.get('c').tenant).toBe('c')
  })
})
