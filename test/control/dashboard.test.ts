// The dashboard's surface through both transports: the page and its built files, the keys the sandbox has
// seen (none in strict mode), a key's state, a transaction read from the chain, and the live stream.
import { readFileSync } from 'node:fs'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
let strict: RunningServer
beforeAll(async () => {
  ;[t, strict] = await Promise.all([startTransports(), startServer({ chain: false, apiKeys: ['alpha'] })])
})
afterAll(async () => {
  await t?.close()
  await strict?.close()
})

const invoice = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}

/** One server-sent event, its data parsed. */
type SseEvent = { event: string; data: Record<string, unknown> }

/** Reads server-sent events from a response body until `done` says stop (or 10 s pass). */
async function readEvents(response: Response, done: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: SseEvent[] = []
  let buffer = ''
  const timeout = setTimeout(() => void reader.cancel(), 10_000)
  try {
    while (!done(events)) {
      const { value, done: ended } = await reader.read()
      if (ended) break
      buffer += value
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> })
      }
    }
  } finally {
    clearTimeout(timeout)
    await reader.cancel()
  }
  return events
}

describeTransports(
  'the dashboard surface through %s',
  () => t,
  (client) => {
    it('serves the page and its built files, and sends /__sandbox/ to it on the host the client used', async () => {
      const page = await client().call('GET', '/', { apiKey: null })
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.text).toContain('<script type="module" src="__sandbox/dashboard/app.js">')
      expect(page.text).not.toMatch(/https?:\/\//)
      const script = await client().call('GET', '/__sandbox/dashboard/app.js', { apiKey: null })
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(script.text).toContain('__sandbox/stream')
      const css = await client().call('GET', '/__sandbox/dashboard/app.css', { apiKey: null })
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
      // offline: nothing is loaded from elsewhere
      expect(`${script.text}${css.text}`).not.toMatch(/https?:\/\/|@import|url\(/)
      const missing = await client().call('GET', '/__sandbox/dashboard/secrets.txt', { apiKey: null })
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({
        statusCode: 404,
        message: 'No dashboard file secrets.txt',
        error: 'Not Found',
      })
      const outside = await client().call('GET', '/__sandbox/dashboard/..%2F..%2Fpackage.json', {
        apiKey: null,
      })
      expect(outside.status).toBe(404)
      for (const path of ['/__sandbox/', '/__sandbox']) {
        const redirect = await fetch(`${client().baseUrl}${path}`, { redirect: 'manual' })
        expect(redirect.status).toBe(302)
        expect(new URL(redirect.headers.get('location')!, `${client().baseUrl}${path}`).href).toBe(
          `${client().baseUrl}/`,
        )
      }
    })

    it("lists the keys it has seen and shows a key's requests, payments and webhooks", async () => {
      const key = newApiKey()
      const created = await client().call('POST', '/v2/request', { apiKey: key, body: invoice })
      await client().call('POST', '/v2/webhook', { apiKey: key, body: { url: 'http://127.0.0.1:9/hook' } })
      const keys = await client().call('GET', '/__sandbox/keys', { apiKey: null })
      expect(keys.body.strict).toBe(false)
      expect(keys.body.keys).toContainEqual({ key, scenarios: ['default'], requests: 1 })
      const state = await client().call('GET', '/__sandbox/state', { apiKey: key })
      expect(state.status).toBe(200)
      expect(state.body.requests).toEqual([
        expect.objectContaining({
          requestId: created.body.requestId,
          paymentReference: created.body.paymentReference,
          status: 'pending',
          amount: '10',
          payee: invoice.payee,
          payments: [],
        }),
      ])
      expect(state.body.webhooks).toEqual([
        expect.objectContaining({ url: 'http://127.0.0.1:9/hook', isActive: true }),
      ])
      expect(state.body.webhooks[0].secret).toBeUndefined()
      expect((await client().call('GET', '/__sandbox/state', { apiKey: null })).status).toBe(401)
    })

    it('reads a transaction from the chain with its events decoded, and refuses bad hashes', async () => {
      const key = newApiKey()
      const minted = await client().call('POST', '/__sandbox/faucet', {
        apiKey: key,
        body: { address: '0x00000000000000000000000000000000000000a1', currency: 'FAU-sepolia', amount: '3' },
      })
      const tx = await client().call('GET', `/__sandbox/transactions/${minted.body.txHash}`, { apiKey: key })
      expect(tx.status).toBe(200)
      expect(tx.body).toMatchObject({
        network: 'sepolia',
        chainId: 11155111,
        hash: minted.body.txHash,
        status: 'success',
      })
      expect(tx.body.toName).toBe('FAU-sepolia')
      expect(tx.body.logs[0]).toMatchObject({
        event: 'Transfer',
        contract: 'FAU-sepolia',
        args: { to: getAddress('0x00000000000000000000000000000000000000a1'), value: '3000000000000000000' },
      })
      const bad = await client().call('GET', '/__sandbox/transactions/0x12', { apiKey: key })
      expect(bad.status).toBe(400)
      const unknown = await client().call('GET', `/__sandbox/transactions/0x${'ab'.repeat(32)}`, {
        apiKey: key,
      })
      expect(unknown.status).toBe(404)
      expect(unknown.body.message).toBe(`Transaction 0x${'ab'.repeat(32)} not found on the live chains`)
      const network = await client().call('GET', `/__sandbox/transactions/${minted.body.txHash}`, {
        apiKey: key,
        query: { network: 'nowhere' },
      })
      expect(network.status).toBe(404)
    })

    it("streams the key's journal as it happens, and nothing of another key", async () => {
      const key = newApiKey()
      const response = await fetch(`${client().baseUrl}/__sandbox/stream`, { headers: { 'x-api-key': key } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      const reading = readEvents(response, (events) => events.some((e) => e.data.path === '/v2/request'))
      await client().call('POST', '/v2/request', { apiKey: newApiKey(), body: invoice })
      const created = await client().call('POST', '/v2/request', { apiKey: key, body: invoice })
      const events = await reading
      expect(events[0]).toEqual({ event: 'ready', data: { tenant: key } })
      const calls = events.filter((e) => e.event === 'journal')
      expect(calls).toHaveLength(1)
      expect(calls[0]!.data).toMatchObject({
        type: 'call',
        method: 'POST',
        path: '/v2/request',
        status: 201,
        responseBody: created.body,
      })
      expect((await fetch(`${client().baseUrl}/__sandbox/stream`)).status).toBe(401)
    })
  },
)

describe('the dashboard in an app that mounts the sandbox (Express, under /rn)', () => {
  it('serves the page under the mount path, its relative links and redirect staying there', async () => {
    const page = await t.express.call('GET', '/', { apiKey: null })
    expect(page.status).toBe(200)
    expect(page.text).toContain('src="__sandbox/dashboard/app.js"')
    const script = await fetch(new URL('__sandbox/dashboard/app.js', `${t.express.baseUrl}/`))
    expect(script.status).toBe(200)
    const redirect = await fetch(`${t.express.baseUrl}/__sandbox`, { redirect: 'manual' })
    expect(new URL(redirect.headers.get('location')!, `${t.express.baseUrl}/__sandbox`).href).toBe(
      `${t.express.baseUrl}/`,
    )
  })
})

describe('the dashboard in strict mode', () => {
  it('lists no keys, so the page asks for one; a key not configured is refused', async () => {
    await fetch(`${strict.url}/__sandbox/clock`, { headers: { 'x-api-key': 'alpha' } })
    const keys = await (await fetch(`${strict.url}/__sandbox/keys`)).json()
    expect(keys).toEqual({ strict: true, listed: false, admin: false, keys: [] })
    expect((await fetch(`${strict.url}/__sandbox/state`, { headers: { 'x-api-key': 'beta' } })).status).toBe(
      401,
    )
    expect((await fetch(`${strict.url}/__sandbox/state`, { headers: { 'x-api-key': 'alpha' } })).status).toBe(
      200,
    )
  })
})

describe('the built dashboard script', () => {
  it('is the bundle of the UI sources as they are (run `node scripts/build-dashboard.mjs` after a change)', async () => {
    const script = '../../scripts/build-dashboard.mjs'
    const { bundleDashboard } = (await import(script)) as { bundleDashboard(): Promise<string> }
    const committed = readFileSync(
      new URL('../../src/control/dashboard/assets/app.js', import.meta.url),
      'utf8',
    )
    expect(committed === (await bundleDashboard())).toBe(true)
  })
})
