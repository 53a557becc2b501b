import { describe, expect, it } from 'vitest'
import { WebhookLimits } from './limits.ts'

describe('WebhookLimits.admit', () => {
  it('holds the attempts under way to --webhook-total, claimed keys to half of it; an ended one gives its place back', () => {
    const limits = new WebhookLimits({ attemptsTotal: 4, claimed: (key) => key.startsWith('claimed') })
    const a = limits.admit('claimed-a')
    const b = limits.admit('claimed-b')
    expect(typeof a).toBe('function')
    expect(typeof b).toBe('function')
    expect(limits.admit('claimed-c')).toMatch(
      /claimable sandboxes together hold at most 2 of them.*--webhook-total/,
    )
    const operator = [limits.admit('operator'), limits.admit('operator')]
    expect(operator.every((end) => typeof end === 'function')).toBe(true)
    expect(limits.admit('teammate')).toMatch(/4 delivery attempts of every key under way.*--webhook-total/)
    ;(a as () => void)()
    // ended twice counts once
    ;(a as () => void)()
    expect(typeof limits.admit('claimed-c')).toBe('function')
    expect(limits.admit('teammate')).toMatch(/4 delivery attempts/)
    ;(operator[0] as () => void)()
    expect(limits.admit('claimed-d')).toMatch(/at most 2 of them/)
    expect(typeof limits.admit('teammate')).toBe('function')
  })

  it("refuses past a key's own rate before counting it under way", () => {
    const limits = new WebhookLimits({ attemptsPerMinute: 1, attemptsTotal: 1 })
    const first = limits.admit('a')
    expect(typeof first).toBe('function')
    ;(first as () => void)()
    expect(limits.admit('a')).toMatch(/the key made 1 delivery attempts this minute \(--webhook-rate\)/)
    expect(typeof limits.admit('b')).toBe('function')
  })
})
