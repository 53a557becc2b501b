import { describe, expect, it } from 'vitest'
import { deliveryRecord as record } from '../../test/support/delivery-record.ts'
import { MAX_DELIVERIES_PER_KEY } from './limits.ts'
import { DeliveryRecords } from './records.ts'

/** Ids that sort as their numbers do. */
const id = (n: number) => `d${String(n).padStart(6, '0')}`

describe('DeliveryRecords', () => {
  it("tells each record a key's bound drops, oldest first", () => {
    const records = new DeliveryRecords()
    const dropped: string[] = []
    records.onDrop((r) => dropped.push(r.id))
    for (let n = 0; n < MAX_DELIVERIES_PER_KEY + 2; n++) records.add(record('k', id(n)))
    expect(dropped).toEqual([id(0), id(1)])
    expect(records.of('k')).toHaveLength(MAX_DELIVERIES_PER_KEY)
  })

  it("puts saved records back among the key's by id and keeps the newest, the one in memory for an id", () => {
    const records = new DeliveryRecords()
    const dropped: string[] = []
    records.onDrop((r) => dropped.push(r.id))
    // made since the start: newer than every saved one, and one saved under the same id
    const live = [record('k', id(900)), record('k', id(901))]
    for (const r of live) records.add(r)
    const saved = Array.from({ length: MAX_DELIVERIES_PER_KEY }, (_, n) => record('k', id(n)))
    const again = record('k', id(901))
    const other = record('other', id(5))
    const kept = records.restore([...saved].reverse().concat(again, other))
    // the two oldest saved ones go (told, so their rows go), the live ones stay
    expect(dropped).toEqual([id(0), id(1)])
    expect(kept.filter((r) => r.tenant === 'k')).toEqual(saved.slice(2))
    expect(kept).toContain(other)
    expect(records.of('k').map((r) => r.id)).toEqual([...saved.slice(2).map((r) => r.id), id(900), id(901)])
    expect(records.get('k', id(901))).toBe(live[1])
    expect(records.of('other')).toHaveLength(1)
  })

  it('keeps saved records within the byte budget, dropping the oldest', () => {
    const records = new DeliveryRecords(2_000)
    const dropped: string[] = []
    records.onDrop((r) => dropped.push(r.id))
    const kept = records.restore(Array.from({ length: 20 }, (_, n) => record('k', id(n))))
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(20)
    expect(kept.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, n) => id(n)).slice(20 - kept.length))
    expect(dropped).toHaveLength(20 - kept.length)
  })

  it('drops saved records before the newer ones made since the start when the byte budget is full', () => {
    const records = new DeliveryRecords(2_000)
    const dropped: string[] = []
    records.onDrop((r) => dropped.push(r.id))
    // made since the start, by another key and by the same key: newer than every saved record
    const live = [record('other', 'e000001'), record('k', 'e000002')]
    for (const r of live) records.add(r)
    const kept = records.restore(Array.from({ length: 20 }, (_, n) => record('k', id(n))))
    expect(records.get('other', 'e000001')).toBe(live[0])
    expect(records.get('k', 'e000002')).toBe(live[1])
    expect(dropped).not.toContain('e000001')
    expect(dropped).not.toContain('e000002')
    // the saved ones that fit are the newest of them
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, n) => id(n)).slice(20 - kept.length))
    expect(dropped).toHaveLength(20 - kept.length)
  })
})
