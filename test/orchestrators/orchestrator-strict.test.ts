// Strict mode for orchestrators (--orchestrator-keys): only the configured x-orchestrator-keys pass, on the
// orchestrator routes and in paired authentication; without it any orc_… key is its own orchestrator.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports(newApiKey, { chain: false, orchestratorKeys: ['orc_partner_one'] })
})
afterAll(async () => t?.close())

describeTransports(
  'orchestrator strict mode through %s',
  () => t,
  (client) => {
    it('accepts only the configured orchestrator keys', async () => {
      const as = (key: string) =>
        client().call('GET', '/v2/orchestrators/client-ids', {
          apiKey: null,
          headers: { 'x-orchestrator-key': key },
        })
      expect((await as('orc_partner_one')).status).toBe(200)
      expect((await as('orc_partner_two')).status).toBe(401)
      const created = await client().call('POST', '/v2/client-ids', {
        body: { label: 'Shop', allowedDomains: [] },
      })
      const clientId = created.body.clientId
      const paired = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-orchestrator-key': 'orc_partner_two', 'x-client-id': clientId },
        body: {
          requests: [
            { payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7', currency: 'FAU-sepolia', amount: '1' },
          ],
        },
      })
      expect(paired.status).toBe(401)
    })
  },
)
