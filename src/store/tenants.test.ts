import { describe, expect, it } from 'vitest'
import { Tenants } from './tenants.ts'

describe('Tenants', () => {
  it('evicts the least recently used world past the cap and tells the drop listeners', () => {
    const tenants = new Tenants(() => {}, { maxWorlds: 3 })
    const dropped: string[] = []
    tenants.attach({
      dropped: (world, reason, last) => dropped.push(`${world.tenant}/${world.scenario}:${reason}:${last}`),
    })
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
    tenants.attach({ dropped: (world, reason) => dropped.push(`${world.tenant}:${reason}`) })
    const a = tenants.get('a')
    tenants.get('b')
    expect(() => tenants.get('c')).toThrow('full at 2')
    expect(dropped).toEqual([])
    expect(tenants.get('a')).toBe(a)
    expect(tenants.size).toBe(2)
    tenants.reset('b')
    expect(tenants.get('c').tenant).toBe('c')
  })

  it('tells each lifecycle what happens to the worlds, in the order they were given', () => {
    const told: string[] = []
    const saved = new Map([['a', ['kept']]])
    const tenants = new Tenants(() => {}, {
      maxWorlds: 2,
      lifecycles: [{ created: (world) => told.push(`first created ${world.tenant}/${world.scenario}`) }],
    })
    tenants.attach({
      created: (world) => told.push(`created ${world.tenant}/${world.scenario}`),
      stateCreated: (world, name) => told.push(`state ${name} of ${world.tenant}`),
      revive: (world) => {
        told.push(`revive ${world.tenant}/${world.scenario}`)
        return saved.get(world.tenant)?.includes(world.scenario) ?? false
      },
      dropped: (world, reason, last) =>
        told.push(`dropped ${world.tenant}/${world.scenario} ${reason} ${last}`),
      reset: (tenant) => {
        told.push(`reset ${tenant}`)
        saved.delete(tenant)
      },
      beforeAll: () => told.push('before all'),
      inOneCommit: (run) => {
        told.push('commit opens')
        try {
          return run()
        } finally {
          told.push('commit closes')
        }
      },
      savedScenarios: (tenant) => saved.get(tenant) ?? [],
    })
    tenants.get('a').state({ name: 'things', slot: 900, create: () => ({}) })
    // the key's world kept outside memory comes back with the ones in memory
    expect(tenants.worldsOf('a').map((world) => world.scenario)).toEqual(['default', 'kept'])
    tenants.get('b')
    expect([...tenants.all()].map((world) => `${world.tenant}/${world.scenario}`)).toEqual([
      'a/kept',
      'b/default',
    ])
    const filled = tenants.replace('a', () => tenants.get('a', 'fresh').scenario)
    expect(filled).toBe('fresh')
    expect(told).toEqual([
      'first created a/default',
      'created a/default',
      'revive a/default',
      'state things of a',
      'first created a/kept',
      'created a/kept',
      'revive a/kept',
      'first created b/default',
      'created b/default',
      'revive b/default',
      'dropped a/default evict false',
      'before all',
      'commit opens',
      'dropped a/kept reset true',
      'reset a',
      'first created a/fresh',
      'created a/fresh',
      'revive a/fresh',
      'commit closes',
    ])
  })
})
