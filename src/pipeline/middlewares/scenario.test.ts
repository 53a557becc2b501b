// The scenario middleware picks the call's world (the header, else the key's choice), seeds it before an API call
// that needs it, never before a control call, and answers an unknown scenario in the service's error shape.
import { describe, expect, it } from 'vitest'
import type { CallInfo } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import { BadRequestError } from '../../contract/sandbox-error.ts'
import type { SandboxState } from '../../control/services.ts'
import { scenarioMiddleware } from './scenario.ts'

function setup(seeded: boolean) {
  const seeds: string[] = []
  const shared = {
    scenarios: {
      selected: () => 'chosen',
      resolve: (name: string) => {
        if (name === 'nope') throw new BadRequestError('Unknown scenario nope')
        return { name }
      },
      isSeeded: () => seeded,
      world: async (tenant: string, name: string) => {
        seeds.push(`${tenant}/${name}`)
      },
    },
    tenants: { get: (tenant: string, name: string) => ({ tenant, name }) },
    log: () => {},
  } as unknown as SandboxState
  return { seeds, middleware: scenarioMiddleware(shared) }
}

const call = (surface: 'api' | 'control', headers: Record<string, string> = {}): CallInfo => ({
  request: { method: 'POST', path: '/v2/request', query: {}, headers, rawBody: undefined },
  route: { surface } as CallInfo['route'],
  caller: { tenant: 'k', via: 'api-key' },
  scenario: 'default',
})

const rest = (seen: string[]) => (info: CallInfo) => async (): Promise<NeutralResponse> => {
  seen.push(info.scenario)
  return { status: 200, headers: {}, body: {} }
}

describe('scenario middleware', () => {
  it("uses the key's chosen scenario, or the x-sandbox-scenario header's", async () => {
    const { middleware } = setup(true)
    const seen: string[] = []
    const plain = call('api')
    await middleware(plain, rest(seen)(plain))
    const named = call('api', { 'x-sandbox-scenario': ' other ' })
    await middleware(named, rest(seen)(named))
    expect(seen).toEqual(['chosen', 'other'])
  })

  it('seeds an unseeded world before an API call, not before a control call', async () => {
    const api = setup(false)
    const seen: string[] = []
    const info = call('api')
    await api.middleware(info, rest(seen)(info))
    expect(api.seeds).toEqual(['k/chosen'])
    const control = setup(false)
    const controlCall = call('control')
    await control.middleware(controlCall, rest(seen)(controlCall))
    expect(control.seeds).toEqual([])
    expect(seen).toEqual(['chosen', 'chosen'])
  })

  it('answers an unknown scenario with 400 and never runs the call', async () => {
    const { middleware } = setup(true)
    const seen: string[] = []
    const info = call('api', { 'x-sandbox-scenario': 'nope' })
    const response = await middleware(info, rest(seen)(info))
    expect(response.status).toBe(400)
    expect(seen).toEqual([])
  })

  it('passes a public call through', async () => {
    const { middleware, seeds } = setup(false)
    const info = { ...call('api'), caller: null }
    const response = await middleware(info, async () => ({ status: 204, headers: {}, body: undefined }))
    expect(response.status).toBe(204)
    expect(seeds).toEqual([])
  })
})
