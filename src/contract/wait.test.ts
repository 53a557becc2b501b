import { describe, expect, it } from 'vitest'
import { until, waitFor } from './wait.ts'

describe('waitFor', () => {
  it('resolves with the first defined answer, sync or async', async () => {
    let calls = 0
    expect(await waitFor(() => (++calls >= 3 ? `after ${calls}` : undefined), { intervalMs: 1 })).toBe(
      'after 3',
    )
    expect(await waitFor(async () => 0, { intervalMs: 1 })).toBe(0)
  })
  it('rejects after the timeout, naming what it waited for', async () => {
    await expect(
      waitFor(() => undefined, { timeoutMs: 30, intervalMs: 5, what: 'the payment' }),
    ).rejects.toThrow('timed out after 30 ms waiting for the payment')
  })
})

describe('until', () => {
  it('resolves with the value once the condition holds, and the time it took', async () => {
    let n = 0
    const { value, ms } = await until(
      async () => ++n,
      (v) => v === 4,
      { intervalMs: 1 },
    )
    expect(value).toBe(4)
    expect(ms).toBeGreaterThanOrEqual(0)
  })
  it('rejects with the last value read (bigints included)', async () => {
    await expect(
      until(
        () => ({ amount: 1n }),
        () => false,
        { timeoutMs: 20, intervalMs: 5 },
      ),
    ).rejects.toThrow('timed out after 20 ms; last value: {"amount":"1"}')
  })
})
