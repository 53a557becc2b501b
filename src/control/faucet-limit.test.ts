import { describe, expect, it } from 'vitest'
import { FaucetLimit } from './faucet-limit.ts'

const refusal = (run: () => void) => {
  try {
    run()
  } catch (error) {
    return error as { status: number; message: string; headers?: Record<string, string> }
  }
  throw new Error('not refused')
}

describe('FaucetLimit', () => {
  const claimed = (key: string) => key.startsWith('claimed')

  it('counts every key together in slices of 10 seconds, claimed keys at most half of each', () => {
    const limit = new FaucetLimit(30, 60, claimed)
    expect(limit.perSlice).toBe(10)
    const t = 1_000_000
    for (let i = 0; i < 5; i++) limit.count(`claimed-${i}`, t + i)
    const share = refusal(() => limit.count('claimed-5', t + 100))
    expect(share.status).toBe(429)
    expect(share.message).toMatch(/at most 5 of them every 10 seconds \(half of --faucet-total/)
    expect(share.headers?.['retry-after']).toBe('10')
    // the other keys get the rest of the slice
    for (let i = 0; i < 5; i++) limit.count('operator', t + 200 + i)
    const total = refusal(() => limit.count('teammate', t + 4_000))
    expect(total.status).toBe(429)
    expect(total.message).toMatch(
      /Every key together made 10 faucet calls these 10 seconds.*60 a minute.*--faucet-total/,
    )
    expect(total.headers?.['retry-after']).toBe('6')
    // the next slice: claimed keys have their share again
    limit.count('claimed-5', t + 10_000)
    limit.count('teammate', t + 10_001)
  })

  it("keeps a key's own window of a minute: past it 429 for that key only", () => {
    const limit = new FaucetLimit(3, 600)
    for (let i = 0; i < 3; i++) limit.count('a', i * 20_000)
    expect(refusal(() => limit.count('a', 50_000)).message).toMatch(
      /This key made 3 faucet calls this minute/,
    )
    limit.count('b', 50_000)
    limit.count('a', 60_000)
  })
})
