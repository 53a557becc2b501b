import { describe, expect, it } from 'vitest'
import { deliveryRecord } from '../../test/support/delivery-record.ts'
import type { DeliveryRecord } from './format.ts'
import { RecordBudget, recordBytes } from './record-budget.ts'

let n = 0
const record = (tenant: string, bodyBytes = 1000) =>
  deliveryRecord(tenant, `d${n++}`, { body: 'x'.repeat(bodyBytes), state: 'pending' })

describe('RecordBudget', () => {
  const claimed = (tenant: string) => tenant.startsWith('claimed')

  it("drops claimed keys' oldest records past half of the total, and keeps the other keys'", () => {
    const size = recordBytes(record('x'))
    const dropped: DeliveryRecord[] = []
    const budget = new RecordBudget(size * 6, claimed, (r) => dropped.push(r))
    const operator = [record('operator'), record('operator')]
    for (const r of operator) budget.count(r)
    const mine = Array.from({ length: 5 }, () => record('claimed-a'))
    for (const r of mine) budget.count(r)
    // half of 6 records' bytes: the two oldest claimed records went, none of the operator's
    expect(dropped).toEqual(mine.slice(0, 2))
    expect(budget.bytes).toEqual({ all: size * 5, claimed: size * 3 })
  })

  it('counts a record again as its attempts grow it, and drops the oldest of all past the total', () => {
    const dropped: DeliveryRecord[] = []
    const size = recordBytes(record('x'))
    const budget = new RecordBudget(size * 3 + 100, claimed, (r) => dropped.push(r))
    const [a, b, c] = [record('k1'), record('k2'), record('k3')]
    for (const r of [a, b, c]) budget.count(r)
    expect(dropped).toEqual([])
    c.attempts.push({
      retryCount: 0,
      at: '2026-12-06T00:00:00Z',
      status: 500,
      error: null,
      durationMs: 1,
      response: { headers: { 'x-pad': 'y'.repeat(500) }, body: 'z'.repeat(1024) },
    })
    expect(budget.count(c)).toEqual([a, b])
    expect(dropped).toEqual([a, b])
    // forgotten records are no longer counted
    budget.forget(c)
    expect(budget.bytes).toEqual({ all: 0, claimed: 0 })
  })
})
