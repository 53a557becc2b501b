import { describe, expect, it } from 'vitest'
import { occurrenceDate } from './recurring.ts'

const iso = (d: Date) => d.toISOString()

describe('occurrenceDate', () => {
  it('counts days and weeks in exact periods from the start', () => {
    const start = new Date('2030-01-01T10:00:00.000Z')
    expect(iso(occurrenceDate(start, 'DAILY', 0))).toBe('2030-01-01T10:00:00.000Z')
    expect(iso(occurrenceDate(start, 'DAILY', 3))).toBe('2030-01-04T10:00:00.000Z')
    expect(iso(occurrenceDate(start, 'WEEKLY', 2))).toBe('2030-01-15T10:00:00.000Z')
  })

  it('counts calendar months and years, keeping a month-end start on the last day of shorter months', () => {
    const start = new Date('2030-01-31T00:00:00.000Z')
    expect([1, 2, 3, 13].map((k) => iso(occurrenceDate(start, 'MONTHLY', k)).slice(0, 10))).toEqual([
      '2030-02-28',
      '2030-03-31',
      '2030-04-30',
      '2031-02-28',
    ])
    const leap = new Date('2028-02-29T12:30:00.000Z')
    expect(iso(occurrenceDate(leap, 'YEARLY', 1))).toBe('2029-02-28T12:30:00.000Z')
    expect(iso(occurrenceDate(leap, 'YEARLY', 4))).toBe('2032-02-29T12:30:00.000Z')
  })
})
