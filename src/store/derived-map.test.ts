// DerivedMap queues what `set` gives it; every read (of any kind) sees every entry set before, in order, as a Map would.
import { describe, expect, it } from 'vitest'
import { DerivedMap } from './derived-map.ts'

describe('DerivedMap', () => {
  it('answers every read as a Map given the same calls would', () => {
    const derived = new DerivedMap<string, number>()
    const plain = new Map<string, number>()
    const both = (run: (m: Map<string, number>) => unknown) => {
      const a = run(derived)
      const b = run(plain)
      expect(a).toEqual(b)
      return a
    }
    both((m) => m.set('a', 1).set('b', 2).set('a', 3) && null)
    expect(both((m) => m.get('a'))).toBe(3)
    both((m) => m.set('c', 4) && null)
    expect(both((m) => m.size)).toBe(3)
    both((m) => m.set('d', 5) && null)
    expect(both((m) => m.has('d'))).toBe(true)
    both((m) => m.set('e', 6) && null)
    expect(both((m) => m.delete('e'))).toBe(true)
    both((m) => m.set('f', 7) && null)
    expect(both((m) => [...m])).toEqual([
      ['a', 3],
      ['b', 2],
      ['c', 4],
      ['d', 5],
      ['f', 7],
    ])
    both((m) => m.set('g', 8) && null)
    both((m) => [...m.keys()])
    both((m) => m.set('h', 9) && null)
    both((m) => [...m.values()])
    both((m) => m.set('i', 10) && null)
    both((m) => [...m.entries()])
    both((m) => m.set('j', 11) && null)
    const seen: string[] = []
    derived.forEach((_, k) => {
      seen.push(k)
    })
    expect(seen).toEqual([...plain.keys()])
    both((m) => m.set('k', 12) && m.clear())
    expect(both((m) => m.size)).toBe(0)
    expect(derived.get('k')).toBeUndefined()
  })

  it('takes entries in its constructor and is still a Map', () => {
    const derived = new DerivedMap([['x', 1]])
    expect(derived.get('x')).toBe(1)
    expect(derived).toBeInstanceOf(Map)
    expect(new Map(derived.set('y', 2))).toEqual(
      new Map([
        ['x', 1],
        ['y', 2],
      ]),
    )
  })
})
