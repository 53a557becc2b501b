import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DuplicateKeyError, Table } from './table.ts'

const Thing = z.object({ id: z.string(), n: z.number(), tags: z.array(z.string()) })

describe('Table', () => {
  it('validates on insert and refuses a duplicate key, even inserted in the same tick', async () => {
    const table = new Table(Thing, 'id')
    await expect(table.insert({ id: 'a', n: 'x' as never, tags: [] })).rejects.toThrow()
    const [first, second] = await Promise.allSettled([
      table.insert({ id: 'a', n: 1, tags: [] }),
      table.insert({ id: 'a', n: 2, tags: [] }),
    ])
    expect(first.status).toBe('fulfilled')
    expect(second.status === 'rejected' && second.reason).toBeInstanceOf(DuplicateKeyError)
    expect(table.get('a')).toEqual({ id: 'a', n: 1, tags: [] })
  })

  it('puts every inserted record in the collection before a query, and updates records not yet there', async () => {
    const table = new Table(Thing, 'id')
    for (let i = 0; i < 5; i++) await table.insert({ id: `r${i}`, n: i, tags: [] })
    const updated = await table.update('r3', (d) => {
      d.tags.push('seen')
    })
    expect(updated).toEqual({ id: 'r3', n: 3, tags: ['seen'] })
    expect(table.get('r3')!.tags).toEqual(['seen'])
    await table.insert({ id: 'r5', n: 5, tags: [] })
    const collection = await table.collection()
    expect(
      collection
        .findMany(undefined)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5'])
    expect(collection.findFirst((q) => q.where({ id: 'r3' }))!.tags).toEqual(['seen'])
  })

  it('deletes records whether or not they reached the collection', async () => {
    const table = new Table(Thing, 'id')
    await table.insert({ id: 'kept', n: 1, tags: [] })
    await table.insert({ id: 'early', n: 2, tags: [] })
    expect(table.delete('early')).toBe(true)
    await table.collection()
    await table.insert({ id: 'late', n: 3, tags: [] })
    await table.update('late', (d) => {
      d.n = 4
    })
    expect(table.delete('late')).toBe(true)
    expect(table.delete('nope')).toBe(false)
    expect(table.all().map((r) => r.id)).toEqual(['kept'])
    expect((await table.collection()).findMany(undefined).map((r) => r.id)).toEqual(['kept'])
  })
})
