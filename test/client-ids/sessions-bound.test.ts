// Issue 29: every thing a caller can create has a per-key bound. A session token is a sandbox-wide directory entry
// (saved with --state-dir), so one key holds at most MAX_SESSIONS_PER_KEY live ones: past it 429, another key unhurt,
// an ended or expired one frees its place.
import { expect, it } from 'vitest'
import { MAX_SESSIONS_PER_KEY } from '../../src/resources/sessions/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

describeTransports(
  'session tokens per key through %s',
  () => t,
  (client) => {
    it(`holds at most ${MAX_SESSIONS_PER_KEY} live sessions a key: 429 past it, freed by DELETE and by expiry`, async () => {
      const apiKey = newApiKey()
      const tokens: string[] = []
      for (let i = 0; i < MAX_SESSIONS_PER_KEY; i++) {
        const made = await client().call('POST', '/__sandbox/sessions', { apiKey, body: { ttlSeconds: 60 } })
        expect(made.status).toBe(201)
        tokens.push(made.body.token)
      }
      const over = await client().call('POST', '/__sandbox/sessions', { apiKey, body: {} })
      expect(over.status).toBe(429)
      expect(over.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
      expect(over.body.message).toMatch(/at most 100 live session tokens/)
      // another key is not held by it
      expect(
        (await client().call('POST', '/__sandbox/sessions', { apiKey: newApiKey(), body: {} })).status,
      ).toBe(201)
      // an ended session frees its place
      expect((await client().call('DELETE', `/__sandbox/sessions/${tokens[0]}`, { apiKey })).status).toBe(200)
      expect(
        (await client().call('POST', '/__sandbox/sessions', { apiKey, body: { ttlSeconds: 60 } })).status,
      ).toBe(201)
      // expired ones too: past their minute on the key's clock every place is free again
      expect(
        (await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 120 } })).status,
      ).toBeLessThan(300)
      expect((await client().call('POST', '/__sandbox/sessions', { apiKey, body: {} })).status).toBe(201)
      // the expired tokens no longer authenticate, and are gone from the directory
      expect([...t.sandbox.shared.directory.sessionToTenant.keys()]).not.toContain(tokens[1])
    })
  },
)
