import { describe, expect, it } from 'vitest'
import type { CallInfo } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import { worldRules } from '../../contract/rules.ts'
import type { SandboxState } from '../../control/services.ts'
import { createWorld } from '../../store/world.ts'
import { faultMiddleware, faultResponse, RateWindows, requestedFaults } from './faults.ts'

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

describe('fault middleware', () => {
  const call = (surface: 'api' | 'control', headers: Record<string, string> = {}): CallInfo => ({
    request: { method: 'POST', path: '/v2/request', query: {}, headers, rawBody: undefined },
    route: { surface } as CallInfo['route'],
    caller: { tenant: 'k', via: 'api-key' },
    scenario: 'default',
  })
  const setup = () => {
    const world = createWorld('k', 'default', () => undefined)
    const shared = { tenants: { get: () => world }, log: () => {} } as unknown as SandboxState
    let runs = 0
    const rest = async (): Promise<NeutralResponse> => {
      runs++
      return { status: 201, headers: {}, body: undefined }
    }
    return { world, middleware: faultMiddleware(shared, { maxDelayMs: 1000 }), rest, runs: () => runs }
  }

  it('answers a forced status without running the call, tagged with its source', async () => {
    const { world, middleware, rest, runs } = setup()
    const forced = await middleware(call('api', { 'x-sandbox-status': '503' }), rest)
    expect(forced.status).toBe(503)
    expect(forced.headers['x-sandbox-fault']).toBe('x-sandbox-status')
    world.rules = worldRules({ failureStatus: 502 })
    const ruled = await middleware(call('api'), rest)
    expect(ruled).toMatchObject({ status: 502, headers: { 'x-sandbox-fault': 'rules' } })
    expect(runs()).toBe(0)
    world.clock.dispose()
  })

  it("applies the world's rate limit, then lets calls through when the window is over", async () => {
    const { world, middleware, rest, runs } = setup()
    world.rules = worldRules({ rateLimit: { limit: 1, windowSeconds: 60 } })
    expect((await middleware(call('api'), rest)).status).toBe(201)
    const limited = await middleware(call('api'), rest)
    expect(limited).toMatchObject({
      status: 429,
      headers: { 'x-sandbox-fault': 'rate-limit', 'retry-after': '60' },
    })
    await world.clock.advance(60_000)
    expect((await middleware(call('api'), rest)).status).toBe(201)
    expect(runs()).toBe(2)
    world.clock.dispose()
  })

  it('waits the asked delay, refuses one past the bound with 400, and never faults the control API', async () => {
    const { world, middleware, rest } = setup()
    const started = Date.now()
    expect((await middleware(call('api', { 'x-sandbox-delay': '50' }), rest)).status).toBe(201)
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    expect((await middleware(call('api', { 'x-sandbox-delay': '5000' }), rest)).status).toBe(400)
    world.rules = worldRules({ failureStatus: 500 })
    expect((await middleware(call('control', { 'x-sandbox-status': '503' }), rest)).status).toBe(201)
    world.clock.dispose()
  })

  it('holds at most maxDelayedPerKey delayed calls of a key and maxDelayedTotal in all: past them 429, then room again', async () => {
    const worlds = new Map<string, ReturnType<typeof createWorld>>()
    const shared = {
      tenants: {
        get: (tenant: string) =>
          worlds.get(tenant) ??
          worlds
            .set(
              tenant,
              createWorld(tenant, 'default', () => undefined),
            )
            .get(tenant),
      },
      log: () => {},
    } as unknown as SandboxState
    const middleware = faultMiddleware(shared, { maxDelayMs: 1000, maxDelayedPerKey: 2, maxDelayedTotal: 3 })
    const rest = async (): Promise<NeutralResponse> => ({ status: 201, headers: {}, body: undefined })
    const delayed = (tenant: string) =>
      middleware({ ...call('api', { 'x-sandbox-delay': '100' }), caller: { tenant, via: 'api-key' } }, rest)
    const first = [delayed('a'), delayed('a')]
    const refused = await delayed('a')
    expect(refused.status).toBe(429)
    expect(JSON.stringify(refused.body)).toMatch(/already has 2 calls waiting out a delay/)
    expect(refused.headers['retry-after']).toBe('1')
    // another key still has room, up to the total
    const other = delayed('b')
    const overTotal = await delayed('c')
    expect(overTotal.status).toBe(429)
    expect(JSON.stringify(overTotal.body)).toMatch(/sandbox already has 3 calls/)
    // a call without a delay is never held back
    expect((await middleware({ ...call('api'), caller: { tenant: 'a', via: 'api-key' } }, rest)).status).toBe(
      201,
    )
    expect((await Promise.all([...first, other])).map((r) => r.status)).toEqual([201, 201, 201])
    // their places are given back once they answered
    expect((await delayed('a')).status).toBe(201)
    expect((await delayed('c')).status).toBe(201)
    for (const world of worlds.values()) world.clock.dispose()
  })
})
