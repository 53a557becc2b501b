// The documented rate limit counts client-ID calls per client ID and address on the tenant clock, blocks a breach
// for its block time, and never limits API-key or control calls.
import { describe, expect, it } from 'vitest'
import type { Caller } from '../../contract/caller.ts'
import type { CallInfo } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import type { SandboxState } from '../../control/services.ts'
import { createWorld } from '../../store/world.ts'
import { documentedRateLimitMiddleware } from './rate-limit.ts'

const byClientId = (clientId: string) =>
  ({ tenant: 'k', via: 'client-id', clientId: { clientId } }) as unknown as Caller

const call = (caller: Caller, address = '10.0.0.1', surface: 'api' | 'control' = 'api'): CallInfo => ({
  request: {
    method: 'GET',
    path: '/v2/request/r',
    query: {},
    headers: { 'x-forwarded-for': `1.1.1.1, ${address}` },
    rawBody: undefined,
  },
  route: { surface } as CallInfo['route'],
  caller,
  scenario: 'default',
})

describe('documented rate limit middleware', () => {
  const setup = (limit = 2, maxBuckets = 1000) => {
    const world = createWorld('k', 'default', () => undefined)
    const shared = { tenants: { get: () => world } } as unknown as SandboxState
    const middleware = documentedRateLimitMiddleware(shared, {
      limit,
      windowMs: 60_000,
      blockMs: 300_000,
      maxBuckets,
    })
    const rest = async (): Promise<NeutralResponse> => ({ status: 200, headers: {}, body: undefined })
    return { world, middleware, rest }
  }

  it('answers 429 past the limit and blocks the client ID and address for the block time', async () => {
    const { world, middleware, rest } = setup()
    const caller = byClientId('client_1')
    expect((await middleware(call(caller), rest)).status).toBe(200)
    expect((await middleware(call(caller), rest)).status).toBe(200)
    const breach = await middleware(call(caller), rest)
    expect(breach).toMatchObject({
      status: 429,
      headers: { 'retry-after': '300', 'x-sandbox-fault': 'rate-limit-documented' },
    })
    // another address of the same client ID has its own bucket
    expect((await middleware(call(caller, '10.0.0.2'), rest)).status).toBe(200)
    await world.clock.advance(60_000)
    expect((await middleware(call(caller), rest)).status).toBe(429)
    await world.clock.advance(240_000)
    expect((await middleware(call(caller), rest)).status).toBe(200)
    world.clock.dispose()
  })

  it('never limits API-key or control calls', async () => {
    const { world, middleware, rest } = setup()
    for (let i = 0; i < 5; i++) {
      expect((await middleware(call({ tenant: 'k', via: 'api-key' }), rest)).status).toBe(200)
      expect((await middleware(call(byClientId('client_1'), '10.0.0.1', 'control'), rest)).status).toBe(200)
    }
    world.clock.dispose()
  })

  it('keeps at most maxBuckets addresses per world: past it, the oldest is forgotten without a scan per call', async () => {
    const { world, middleware, rest } = setup(1, 3)
    const caller = byClientId('client_1')
    expect((await middleware(call(caller, '10.0.0.1'), rest)).status).toBe(200)
    expect((await middleware(call(caller, '10.0.0.1'), rest)).status).toBe(429)
    for (const address of ['10.0.0.2', '10.0.0.3', '10.0.0.4'])
      expect((await middleware(call(caller, address), rest)).status).toBe(200)
    // 10.0.0.1's bucket made room for 10.0.0.4: it counts from nothing again
    expect((await middleware(call(caller, '10.0.0.1'), rest)).status).toBe(200)
    world.clock.dispose()
  })

  it('drops the buckets whose window and block are over before a live one', async () => {
    const { world, middleware, rest } = setup(1, 3)
    const caller = byClientId('client_1')
    expect((await middleware(call(caller, '10.0.0.1'), rest)).status).toBe(200)
    expect((await middleware(call(caller, '10.0.0.1'), rest)).status).toBe(429)
    expect((await middleware(call(caller, '10.0.0.2'), rest)).status).toBe(200)
    await world.clock.advance(61_000)
    expect((await middleware(call(caller, '10.0.0.3'), rest)).status).toBe(200)
    // full: 10.0.0.2's window is over, so it goes; 10.0.0.1 is still blocked and stays so
    expect((await middleware(call(caller, '10.0.0.4'), rest)).status).toBe(200)
    expect((await middleware(call(caller, '10.0.0.1'), rest)).status).toBe(429)
    expect((await middleware(call(caller, '10.0.0.3'), rest)).status).toBe(429)
    world.clock.dispose()
  })
})
