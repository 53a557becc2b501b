// A reset frees everything of its key, and worlds past --max-worlds leave memory with what other pieces kept for
// them (payment reference index, credential directory, journal).
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const MAX_WORLDS = 6
const t = useTransports(newApiKey, { chain: false, maxWorlds: MAX_WORLDS })

const body = {
  amount: '5',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}

describeTransports(
  'memory of keys through %s',
  () => t,
  (client) => {
    const shared = () => t.sandbox.shared

    it('frees a key’s requests, references, client IDs and journal on reset', async () => {
      const apiKey = newApiKey()
      const before = shared().paymentReferences.size
      for (let i = 0; i < 5; i++)
        expect((await client().call('POST', '/v2/request', { apiKey, body })).status).toBe(201)
      const cid = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'shop', allowedDomains: ['https://shop.example'] },
      })
      expect(shared().paymentReferences.size).toBe(before + 5)
      expect(shared().directory.clientIdToTenant.has(cid.body.clientId)).toBe(true)

      expect((await client().call('POST', '/__sandbox/reset', { apiKey })).status).toBeLessThan(300)
      expect(shared().paymentReferences.size).toBe(before)
      expect(shared().directory.clientIdToTenant.has(cid.body.clientId)).toBe(false)
      expect(shared().tenants.peek(apiKey)).toBeUndefined()
      expect((await client().call('GET', '/__sandbox/journal', { apiKey })).body).toMatchObject({
        entries: [],
      })
      // the client ID is gone with its world: using it is refused as unknown
      const used = await client().call('GET', '/v2/currencies', {
        apiKey: null,
        headers: { 'x-client-id': cid.body.clientId, origin: 'https://shop.example' },
      })
      expect(used.status).toBe(401)
    })

    it(`keeps at most ${MAX_WORLDS} worlds and drops none of them: a new key past it answers 507`, async () => {
      const first = newApiKey()
      const created = await client().call('POST', '/v2/request', { apiKey: first, body })
      expect(created.status).toBe(201)
      const statuses: number[] = []
      const others = Array.from({ length: MAX_WORLDS }, () => newApiKey())
      for (const apiKey of others)
        statuses.push((await client().call('POST', '/v2/request', { apiKey, body })).status)
      expect(shared().tenants.size).toBeLessThanOrEqual(MAX_WORLDS)
      expect(statuses).toContain(507)
      // the first key keeps its world, its request and its journal
      expect(shared().tenants.peek(first)).toBeDefined()
      const kept = await client().call('GET', `/v2/request/${created.body.requestId}`, { apiKey: first })
      expect(kept.status).toBe(200)
      const journal = await client().call('GET', '/__sandbox/journal', { apiKey: first })
      expect(journal.body.entries.length).toBeGreaterThan(0)
      // a reset frees a world: a new key fits again
      expect((await client().call('POST', '/__sandbox/reset', { apiKey: first })).status).toBeLessThan(300)
      const next = newApiKey()
      expect((await client().call('POST', '/v2/request', { apiKey: next, body })).status).toBe(201)
      for (const apiKey of [...others, next]) await client().call('POST', '/__sandbox/reset', { apiKey })
    })
  },
)

it('keeps a long test suite’s key per test without --max-worlds: 1,200 keys in a library sandbox, none refused', async () => {
  const { createSandbox } = await import('../../src/sandbox.ts')
  const { defaultMaxWorlds } = await import('../../src/sandbox/build-services.ts')
  expect(defaultMaxWorlds({})).toBe(100_000)
  expect(defaultMaxWorlds({ exposed: true })).toBe(1000)
  expect(defaultMaxWorlds({ stateDir: '/tmp/x' })).toBe(1000)
  const sandbox = await createSandbox({ chain: false })
  try {
    const keys = Array.from({ length: 1200 }, () => newApiKey())
    for (const apiKey of keys) {
      const answer = await sandbox.dispatch({
        method: 'GET',
        path: '/__sandbox/clock',
        query: {},
        headers: { 'x-api-key': apiKey },
        rawBody: undefined,
      })
      expect(answer.status).toBe(200)
    }
    expect(sandbox.shared.tenants.size).toBe(1200)
  } finally {
    await sandbox.close()
  }
})
