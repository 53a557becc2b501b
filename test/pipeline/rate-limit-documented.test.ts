// `--rate-limit documented` (api-reference/authentication.mdx, "Rate limits"): 300 requests a minute per client ID
// and IP address, then 429 in the throttler's body and the client ID blocked on that address for 5 minutes; off by
// default (non-production environments run at a higher limit).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import {
  type ApiClient,
  describeTransports,
  newApiKey,
  startTransports,
  type Transports,
} from '../support/clients.ts'

/** A plain fetch client of a server URL, as the suite's clients call. */
function clientOn(baseUrl: string): ApiClient {
  return {
    transport: 'http',
    baseUrl,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers }
      if (options.apiKey) headers['x-api-key'] = options.apiKey
      let body: string | undefined
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers['content-type'] = 'application/json'
      }
      const res = await fetch(baseUrl + path, { method, headers, ...(body ? { body } : {}) })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers, text }
    },
  }
}

let t: Transports
/** a server without the flag (HTTP only: a second set of MSW handlers would answer the first one's base URL) */
let off: RunningServer
beforeAll(async () => {
  ;[t, off] = await Promise.all([
    startTransports(newApiKey, { chain: false, rateLimit: 'documented' }),
    startServer({ chain: false }),
  ])
})
afterAll(async () => {
  await t?.close()
  await off?.close()
})

const shop = 'https://shop.example.com'

async function clientIdOf(client: ApiClient, apiKey: string) {
  const res = await client.call('POST', '/v2/client-ids', {
    apiKey,
    body: { label: 'shop', allowedDomains: [shop] },
  })
  expect(res.status).toBe(201)
  return res.body.clientId as string
}

/** `n` client-ID calls from `ip`, 50 at a time; their statuses. */
async function burst(client: ApiClient, clientId: string, n: number, ip = '203.0.113.7'): Promise<number[]> {
  const statuses: number[] = []
  for (let done = 0; done < n; done += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - done) }, () =>
        client.call('GET', '/v2/request', {
          apiKey: null,
          headers: { 'x-client-id': clientId, origin: shop, 'x-forwarded-for': ip },
        }),
      ),
    )
    statuses.push(...batch.map((r) => r.status))
  }
  return statuses
}

describeTransports(
  'the documented rate limit through %s',
  () => t,
  (client) => {
    it('lets 300 calls a minute through per client ID and address, then answers 429 and blocks for 5 minutes', async () => {
      const apiKey = newApiKey()
      const clientId = await clientIdOf(client(), apiKey)
      const first = await burst(client(), clientId, 300)
      expect(first.every((s) => s === 200)).toBe(true)
      const over = await client().call('GET', '/v2/request', {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: shop, 'x-forwarded-for': '203.0.113.7' },
      })
      expect(over.status).toBe(429)
      expect(over.body).toEqual({ statusCode: 429, message: 'ThrottlerException: Too Many Requests' })
      expect(over.headers.get('retry-after')).toBe('300')
      // a made-up first hop of X-Forwarded-For (the proxy appends the real one) does not get past the block
      expect(await burst(client(), clientId, 1, '192.0.2.55, 203.0.113.7')).toEqual([429])
      // another address of the same client ID, and the account's API key, are not affected
      expect(await burst(client(), clientId, 1, '198.51.100.1')).toEqual([200])
      expect((await client().call('GET', '/v2/request', { apiKey })).status).toBe(200)
      // a minute later the window is new, but the block holds for its 5 minutes
      await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 61 } })
      expect(await burst(client(), clientId, 1)).toEqual([429])
      await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 240 } })
      expect(await burst(client(), clientId, 1)).toEqual([200])
    })
  },
)

// one server is enough for the default: the limit is a middleware, not a transport
it('is off by default: 301 calls of a client ID all pass', async () => {
  const plain = clientOn(off.url)
  const freeKey = newApiKey()
  const freeId = await clientIdOf(plain, freeKey)
  const free = await burst(plain, freeId, 301)
  expect(free.every((s) => s === 200)).toBe(true)
})
