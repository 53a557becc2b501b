import { describe, expect, it } from 'vitest'
import { worldRules } from '../../contract/rules.ts'
import { createWorld } from '../../store/world.ts'
import { faultResponse, RateWindows, requestedFaults } from './faults.ts'

describe('faults', () => {
  it('counts calls in fixed windows of the tenant clock and names the seconds left', async () => {
    const world = createWorld('k', 'rate-limited', () => undefined)
    world.rules = worldRules({ rateLimit: { limit: 2, windowSeconds: 60 } })
    const windows = new RateWindows()
    expect(windows.take(world)).toBeNull()
    expect(windows.take(world)).toBeNull()
    expect(windows.take(world)).toBe(60)
    await world.clock.advance(45_000)
    expect(windows.take(world)).toBe(15)
    await world.clock.advance(15_000)
    expect(windows.take(world)).toBeNull()
    world.clock.dispose()
  })

  it('lets every call through a world without a rate limit', () => {
    const world = createWorld('k', 'default', () => undefined)
    const windows = new RateWindows()
    for (let i = 0; i < 100; i++) expect(windows.take(world)).toBeNull()
  })

  it('reads the fault headers and bounds the delay', () => {
    expect(requestedFaults({ 'x-sandbox-delay': '250', 'x-sandbox-status': '502' }, 1000)).toEqual({
      delayMs: 250,
      status: 502,
    })
    expect(requestedFaults({}, 1000)).toEqual({})
    expect(() => requestedFaults({ 'x-sandbox-delay': '1001' }, 1000)).toThrow(/0 to 1000/)
  })

  it('answers 429 with the throttler body and Retry-After', () => {
    expect(faultResponse(429, 7)).toEqual({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { statusCode: 429, message: 'ThrottlerException: Too Many Requests' },
    })
    expect(faultResponse(418).body).toEqual({ statusCode: 418, message: "I'm a Teapot" })
  })
})
