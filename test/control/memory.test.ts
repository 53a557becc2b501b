// A reset frees everything of its key, and worlds past --max-worlds leave memory with what other pieces kept for
// them (payment reference index, credential directory, journal).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

const MAX_WORLDS = 6
let t: Transports
beforeAll(async () => {
  t = await startTransports(newApiKey, { chain: false, maxWorlds: MAX_WORLDS })
})
afterAll(async () => t?.close())

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

    it(`keeps at most ${MAX_WORLDS} worlds: the least recently used goes, its key starts afresh`, async () => {
      const first = newApiKey()
      const created = await client().call('POST', '/v2/request', { apiKey: first, body })
      for (let i = 0; i < MAX_WORLDS; i++) await client().call('GET', '/v2/payments', { apiKey: newApiKey() })
      expect(shared().tenants.size).toBeLessThanOrEqual(MAX_WORLDS)
      expect(shared().tenants.peek(first)).toBeUndefined()
      const journal = await client().call('GET', '/__sandbox/journal', { apiKey: first })
      expect(journal.body.entries).toEqual([])
      const gone = await client().call('GET', `/v2/request/${created.body.requestId}`, { apiKey: first })
      expect(gone.status).toBe(404)
    })
  },
)
