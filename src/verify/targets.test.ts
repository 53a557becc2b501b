import { describe, expect, it } from 'vitest'
import { paced } from './targets.ts'
import type { Target } from './types.ts'

describe('paced', () => {
  it('spaces the calls to a target at the given rate', async () => {
    const times: number[] = []
    const target: Target = async () => {
      times.push(Date.now())
      return { status: 200, headers: {}, body: '' }
    }
    const slow = paced(target, 10)
    await Promise.all(Array.from({ length: 5 }, () => slow({ method: 'GET', url: '/', headers: {} })))
    expect(times).toHaveLength(5)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(95)
  })
})
