// The networks-on-use middleware's text scan never misses a network the parsed body names: a JSON escape
// (`USDC-\u0062ase`) spells a currency id that the body's text does not hold as such.
import { expect, it } from 'vitest'
import type { CallInfo } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import type { SandboxState } from '../../control/services.ts'
import { networkMiddleware } from './networks-on-use.ts'

const shared = {
  networks: { sepolia: {}, base: {} },
  currencies: { byId: (id: string) => (id.toLowerCase() === 'usdc-base' ? { network: 'base' } : undefined) },
  log: () => {},
} as unknown as SandboxState

function callWith(rawBody: string): CallInfo {
  return {
    request: { method: 'POST', path: '/v2/request', query: {}, headers: {}, rawBody },
    route: { surface: 'api' },
    caller: { tenant: 'k', via: 'api-key' },
    scenario: 'default',
  } as unknown as CallInfo
}

it.each([
  '{"paymentCurrency":"USDC-base"}',
  '{"paymentCurrency":"USDC-\\u0062ase"}',
  '{"paymentCurrency":"\\u0055SDC-BAS\\u0045"}',
])('starts the network %s names before the call goes on', async (body) => {
  const started: string[] = []
  const live = new Set(['sepolia'])
  const middleware = networkMiddleware(shared, {
    live: (n) => live.has(n),
    start: async (n) => {
      started.push(n)
      live.add(n)
    },
  })
  const ok: NeutralResponse = { status: 201, headers: {}, body: {} }
  const response = await middleware(callWith(body), async () => ok)
  expect(response).toBe(ok)
  expect(started).toEqual(['base'])
})
