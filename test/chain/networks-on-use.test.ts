// Every documented network works without flags: a call naming a network the sandbox is not running starts that
// network (anvil and contracts) and proceeds with the real answer; with `--only-networks` (networksOnUse 'refuse')
// the list is fixed and such a call answers 400 naming the flag.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { NetworkName } from '../../src/chain/index.ts'
import type { SandboxState } from '../../src/control/services.ts'
import { missingNetworks } from '../../src/pipeline/index.ts'
import { loadCatalogs } from '../../src/sandbox/catalogs.ts'
import { startableOf } from '../../src/sandbox/dispatcher.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
let fixed: RunningServer
// a shared demo: a listener taken as exposed, whose operator lets calls start base only
let shared: RunningServer
beforeAll(async () => {
  ;[t, fixed, shared] = await Promise.all([
    startTransports(newApiKey, { networksOnUse: 'start' }),
    startServer({ port: 0, networksOnUse: 'refuse' }),
    startServer({ port: 0, networksOnUse: 'start', exposed: true, startableNetworks: ['base'] }),
  ])
})
afterAll(async () => Promise.all([t?.close(), fixed?.close(), shared?.close()]))

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const wallet = '0x00000000000000000000000000000000000000b0'

describeTransports(
  'networks on first use through %s',
  () => t,
  (client) => {
    it('starts base on the first request in USDC-base, and /pay reads the real chain', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '10', invoiceCurrency: 'USDC-base', paymentCurrency: 'USDC-base', payee },
      })
      expect(created.status).toBe(201)
      expect(t.sandbox.chains.has('base')).toBe(true)
      const pay = await client().call('GET', `/v2/request/${created.body.requestId}/pay`, {
        apiKey,
        query: { wallet },
      })
      expect(pay.status, JSON.stringify(pay.body)).toBe(200)
      // an empty wallet on a chain that runs: not enough balance (a chain that is not there answered true)
      expect(pay.body.metadata.hasEnoughBalance).toBe(false)
      const chain = await client().call('GET', '/__sandbox/chain', { apiKey: null })
      expect(chain.body.chains.map((c: { network: string }) => c.network)).toContain('base')
      // set up as the chains started with the sandbox are: supervised, watched, its port kept from webhooks
      expect(t.sandbox.shared.supervisors.has('base')).toBe(true)
      expect(t.sandbox.detectors.has('base')).toBe(true)
      const port = new URL(t.sandbox.chains.get('base')!.rpcUrl).port
      await expect(
        t.sandbox.shared.webhooks.policy.check(new URL(`http://127.0.0.1:${port}/hook`)),
      ).rejects.toThrow(/sandbox's own/)
    })

    it('starts bsc (chain id 56, resources/supported-chains-and-currencies.mdx) on the first request in USDT-bsc', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '1', invoiceCurrency: 'USDT-bsc', paymentCurrency: 'USDT-bsc', payee },
      })
      expect(created.status).toBe(201)
      const bsc = t.sandbox.chains.get('bsc')!
      expect(bsc.chainId).toBe(56)
      expect(bsc.tokens['USDT-bsc']).toBe('0x55d398326f99059fF775485246999027B3197955')
      expect(bsc.contracts.ERC20FeeProxy).toBe('0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9')
    })
  },
)

it('answers 400 naming --only-networks for a network outside the fixed list', async () => {
  const res = await fetch(`${fixed.url}/v2/request`, {
    method: 'POST',
    headers: { 'x-api-key': newApiKey(), 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '10', invoiceCurrency: 'USDC-base', paymentCurrency: 'USDC-base', payee }),
  })
  expect(res.status).toBe(400)
  const body = (await res.json()) as { statusCode: number; message: string; error: string }
  expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
  expect(body.message).toMatch(/base is not running.*--only-networks sepolia/)
  expect(fixed.sandbox.chains.has('base')).toBe(false)
  // the networks it runs answer as always
  const ok = await fetch(`${fixed.url}/v2/request`, {
    method: 'POST',
    headers: { 'x-api-key': newApiKey(), 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
    }),
  })
  expect(ok.status).toBe(201)
})

it('on a shared listener whose operator lists networks, starts only those of --networks-on-use, and refuses others with 400 naming it', async () => {
  const create = (currency: string) =>
    fetch(`${shared.url}/v2/request`, {
      method: 'POST',
      headers: { 'x-api-key': newApiKey(), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '1', invoiceCurrency: currency, paymentCurrency: currency, payee }),
    })
  const refused = await create('USDT-bsc')
  expect(refused.status).toBe(400)
  const body = (await refused.json()) as { statusCode: number; message: string; error: string }
  expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
  expect(body.message).toMatch(/bsc is not running.*--networks .*--networks-on-use/)
  expect(shared.sandbox.chains.has('bsc')).toBe(false)
  expect((await create('USDC-base')).status).toBe(201)
  expect(shared.sandbox.chains.has('base')).toBe(true)
})

it('lets calls start any documented network by default (Docker and shared listeners too), unless the operator lists some', async () => {
  expect(startableOf({})('bsc')).toBe(true)
  expect(startableOf({ startableNetworks: 'all' })('bsc')).toBe(true)
  expect(startableOf({ startableNetworks: ['base'] })('base')).toBe(true)
  expect(startableOf({ startableNetworks: ['base'] })('bsc')).toBe(false)
  expect(startableOf({ startableNetworks: [] })('base')).toBe(false)
  // an unknown name is refused at start, naming the flag
  expect(() => loadCatalogs({ startableNetworks: ['atlantis' as NetworkName] })).toThrow(
    /unknown network "atlantis".*--networks-on-use/,
  )
})

it('takes no object property (constructor, __proto__, toString) for a network a caller named', () => {
  const shared = {
    networks: { sepolia: {} },
    currencies: { byId: () => undefined },
  } as unknown as Pick<SandboxState, 'currencies' | 'networks'>
  const missing = (query: Record<string, string>, rawBody?: string) =>
    missingNetworks(shared, () => false, { query, rawBody }, /./)
  expect(missing({ network: 'constructor', chain: 'constructor' })).toEqual([])
  expect(missing({}, '{"network":"__proto__","chain":"toString","x":{"network":"hasOwnProperty"}}')).toEqual(
    [],
  )
  expect(missing({ network: 'sepolia' })).toEqual(['sepolia'])
})

it('a network whose start fails midway (anvil dies during its set-up) answers 503, stays stopped, and starts on the next call', async () => {
  const conversion = t.sandbox.shared.conversion
  const install = vi
    .spyOn(conversion, 'installDefaultsOn')
    .mockRejectedValueOnce(new Error('anvil exited while the conversion stack was installed'))
  const create = () =>
    t.sandbox.dispatch({
      method: 'POST',
      path: '/v2/request',
      headers: { 'x-api-key': newApiKey(), 'content-type': 'application/json' },
      query: {},
      rawBody: JSON.stringify({
        amount: '1',
        invoiceCurrency: 'USDC-optimism',
        paymentCurrency: 'USDC-optimism',
        payee,
      }),
    })
  try {
    const failed = await create()
    expect(failed.status).toBe(503)
    expect(JSON.stringify(failed.body)).toMatch(/optimism could not be started/)
    // nothing half set up stays behind: not live, no supervisor restarting it, no relayer
    expect(t.sandbox.chains.has('optimism')).toBe(false)
    expect(t.sandbox.shared.supervisors.has('optimism')).toBe(false)
    const again = await create()
    expect(again.status, JSON.stringify(again.body)).toBe(201)
    expect(t.sandbox.chains.has('optimism')).toBe(true)
    expect(t.sandbox.detectors.has('optimism')).toBe(true)
  } finally {
    install.mockRestore()
  }
})
