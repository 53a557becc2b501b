// Strict mode is strict for partners too: with --api-keys and no --orchestrator-keys, no x-orchestrator-key passes
// (before, a stranger's own orc_… key was its own orchestrator on a sandbox that accepted only the listed API keys).
import { expect, it } from 'vitest'
import { describeTransports, useTransports } from '../support/clients.ts'

const t = useTransports(() => 'key-a', { chain: false, apiKeys: ['key-a'] })

describeTransports(
  'strict mode without --orchestrator-keys through %s',
  () => t,
  (client) => {
    it('accepts no orchestrator key, while the listed API key still works', async () => {
      const res = await client().call('GET', '/v2/orchestrators/client-ids', {
        apiKey: null,
        headers: { 'x-orchestrator-key': 'orc_stranger' },
      })
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ statusCode: 401 })
      expect((await client().call('GET', '/v2/client-ids')).status).toBe(200)
    })
  },
)
