import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DuplicateKeyError, Table } from './table.ts'

const Thing = z.object({ id: z.string(), n: z.number(), tags: z.array(z.string()) })

describe('Table', () => {
  it('takes at most its bound of new records (507), always what --state-dir restores, and room again after a delete', async () => {
    const table = new Table(Thing, 'id', 2)
    await table.insert({ id: 'a', n: 1, tags: [] })
    table.add({ id: 'b', n: 2, tags: [] })
    await expect(table.insert({ id: 'c', n: 3, tags: [] })).rejects.toMatchObject({
      status: 507,
      message: expect.stringMatching(/holds 2 records of this kind/),
    })
    expect(() => table.add({ id: 'c', n: 3, tags: [] })).toThrow(/holds 2 records/)
    expect(table.get('c')).toBeUndefined()
    // acknowledged state read back is never refused
    table.restore({ id: 'r', n: 0, tags: [] })
    expect(table.get('r')).toBeDefined()
    table.delete('a')
    table.delete('b')
    await table.insert({ id: 'c', n: 3, tags: [] })
    expect(table.get('c')).toEqual({ id: 'c', n: 3, tags: [] })
  })

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

  it('keeps secondary indexes as records change: where() in entry order, whereNewest() a page from the newest end', async () => {
    const table = new Table(Thing, 'id')
    const firstTag = (t: z.infer<typeof Thing>) => t.tags[0]
    for (let i = 0; i < 100; i++) await table.insert({ id: `r${i}`, n: i, tags: [i % 2 ? 'odd' : 'even'] })
    expect(table.where(firstTag, 'odd').map((t) => t.n)).toEqual(
      Array.from({ length: 50 }, (_, i) => i * 2 + 1),
    )
    // a change of the indexed value moves the record; a delete removes it
    await table.update('r1', (d) => {
      d.tags = ['even']
    })
    for (let i = 3; i < 90; i += 2) table.delete(`r${i}`)
    await table.insert({ id: 'late', n: 1000, tags: ['odd'] })
    expect(table.whereNewest(firstTag, 'odd', 0, 3)).toEqual({
      total: 6,
      page: [
        expect.objectContaining({ id: 'late' }),
        expect.objectContaining({ id: 'r99' }),
        expect.objectContaining({ id: 'r97' }),
      ],
    })
    expect(table.whereNewest(firstTag, 'odd', 4, 10).page.map((t) => t.id)).toEqual(['r93', 'r91'])
    expect(table.where(firstTag, 'even').at(-1)!.id).toBe('r1')
    expect(table.whereNewest(firstTag, 'none', 0, 5)).toEqual({ total: 0, page: [] })
  })

  it('drops a value from a secondary index once nothing holds it, and takes it again when a record does', async () => {
    const table = new Table(Thing, 'id')
    const firstTag = (t: z.infer<typeof Thing>) => t.tags[0]
    await table.insert({ id: 'a', n: 1, tags: ['k1'] })
    await table.insert({ id: 'b', n: 2, tags: ['k1'] })
    expect(table.where(firstTag, 'k1')).toHaveLength(2)
    table.delete('a')
    table.delete('b')
    expect(table.whereNewest(firstTag, 'k1', 0, 5)).toEqual({ total: 0, page: [] })
    await table.insert({ id: 'c', n: 3, tags: ['k1'] })
    expect(table.where(firstTag, 'k1').map((t) => t.id)).toEqual(['c'])
  })
})
