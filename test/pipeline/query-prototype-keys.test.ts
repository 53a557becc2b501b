// A query parameter's name is the caller's: one named after an object's prototype key (`constructor`, `toString`,
// `hasOwnProperty`) is read as sent, like any other name, by both transports (the journal keeps what was read).
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

describeTransports(
  'query parameters named after prototype keys through %s',
  () => t,
  (client) => {
    it('keeps constructor, toString and hasOwnProperty as parameters (the first value of each)', async () => {
      const apiKey = newApiKey()
      const called = await client().call(
        'GET',
        '/v2/client-ids?constructor=a&toString=b&hasOwnProperty=c&constructor=d&__proto__=e',
        { apiKey },
      )
      expect(called.status).toBe(200)
      const journal = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'call' } })
      expect(journal.status).toBe(200)
      const entries = journal.body.entries ?? journal.body
      const call = (entries as { path: string; query: Record<string, string> }[]).find(
        (e) => e.path === '/v2/client-ids',
      )
      expect(call?.query).toEqual({ constructor: 'a', toString: 'b', hasOwnProperty: 'c' })
    })
  },
)
