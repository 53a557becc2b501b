// A 401 tells a newcomer what to send, in the x-sandbox-hint header; the body stays the service's.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports(undefined, { chain: false })
})
afterAll(async () => t?.close())

describeTransports(
  'the 401 hint through %s',
  () => t,
  (client) => {
    it('says that any x-api-key works when the key is missing, and the body is the service 401', async () => {
      for (const headers of [{}, { 'x-api-key': '' }] as Record<string, string>[]) {
        const res = await client().call('GET', '/v1/currencies', { apiKey: null, headers })
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
        expect(res.headers.get('x-sandbox-hint')).toMatch(/any non-empty x-api-key/)
      }
    })

    it('names the session routes what they need', async () => {
      const res = await client().call('GET', '/v2/client-ids', { apiKey: null })
      expect(res.status).toBe(401)
      expect(res.headers.get('x-sandbox-hint')).toBeTruthy()
    })

    it('is readable by a browser page (exposed to CORS)', async () => {
      const res = await client().call('GET', '/v1/currencies', {
        apiKey: null,
        headers: { origin: 'http://localhost:5173' },
      })
      expect(res.headers.get('access-control-expose-headers')).toContain('x-sandbox-hint')
    })
  },
)
