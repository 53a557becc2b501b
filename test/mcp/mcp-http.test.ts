// `/mcp` on the server, driven by the MCP SDK's own client over streamable HTTP: an agent creates a request, pays it
// through the pay tool (real transactions on the local chain), sees it paid and its webhook delivered. And the bounds
// of a shared listener: the key's own session only, sessions per key, idle sessions closed, the body size, the Origin.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'
import { call, connect, ok, TOOLS } from './mcp-support.ts'

let server: RunningServer
let receiver: WebhookReceiver
beforeAll(async () => {
  ;[server, receiver] = await Promise.all([
    startServer({ port: 0, mcp: { sessionsPerKey: 2, idleMs: 1500 } }),
    startReceiver(),
  ])
}, 120_000)
afterAll(async () => {
  await server?.close()
  await receiver?.close()
})

const transport = (key: string, headers: Record<string, string> = {}) =>
  new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { 'x-api-key': key, ...headers } },
  })

const initialize = (key: string, extra: Record<string, string> = {}, body?: string) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': key,
      ...extra,
    },
    body:
      body ??
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
  })

describe('/mcp over streamable HTTP', () => {
  it('creates a request, pays it on the chain, sees it paid and its webhook delivered', async () => {
    const key = `mcp-http-${Date.now()}`
    const client = await connect(transport(key))
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS)
      for (const t of tools) {
        expect(t.description?.length).toBeGreaterThan(20)
        expect(t.inputSchema.type).toBe('object')
      }
      const hook = await ok(client, 'register_webhook', { url: receiver.url })
      receiver.secret = hook.secret
      const created = await ok(client, 'create_request', {
        amount: '12',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x1111111111111111111111111111111111111111',
      })
      expect(created.requestId).toMatch(/\w+/)
      const unpaid = await ok(client, 'get', { requestId: created.requestId })
      expect(unpaid.hasBeenPaid).toBe(false)
      const paid = await ok(client, 'pay', { requestId: created.requestId })
      expect(paid.objects.txHashes.length).toBeGreaterThan(0)
      expect((await ok(client, 'get', { requestId: created.requestId })).hasBeenPaid).toBe(true)
      const deliveries = await waitFor(async () => {
        const list = await ok(client, 'list_webhook_deliveries')
        const done = list.find(
          (d: { event: string; attempts: { status: number }[] }) =>
            d.event === 'payment.confirmed' && d.attempts.some((a) => a.status === 200),
        )
        return done ? list : undefined
      })
      expect(deliveries.length).toBeGreaterThan(0)
      const [delivered] = await receiver.waitFor(1)
      expect(delivered!.signatureValid).toBe(true)
      // a payout is paid the same way
      const payout = await ok(client, 'create_payout', {
        amount: '2',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x3333333333333333333333333333333333333333',
      })
      await ok(client, 'pay', { requestId: payout.requestId })
      expect((await ok(client, 'get', { requestId: payout.requestId })).hasBeenPaid).toBe(true)
      // the calls the tools made are the key's own journal
      const calls = await ok(client, 'tail_calls', { type: 'call', limit: 50 })
      expect(calls.entries.map((c: { path: string }) => c.path)).toContain('/v2/request')
    } finally {
      await client.close()
    }
  })

  it('answers an API refusal as a tool error carrying its message', async () => {
    const client = await connect(transport(`mcp-err-${Date.now()}`))
    try {
      const answer = await call(client, 'get', { requestId: 'no-such-request' })
      expect(answer.isError).toBe(true)
      expect(answer.text).toMatch(/^404: /)
      const scenario = await call(client, 'choose_scenario', { scenario: 'no-such-scenario' })
      expect(scenario).toMatchObject({ isError: true })
      expect(scenario.text).toMatch(/^400: .*no-such-scenario/)
    } finally {
      await client.close()
    }
  })

  it("reaches only the key's own objects: another key's session id is unknown", async () => {
    const alice = `mcp-alice-${Date.now()}`
    const aliceTransport = transport(alice)
    const client = await connect(aliceTransport)
    try {
      const created = await ok(client, 'create_request', {
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x1111111111111111111111111111111111111111',
      })
      const mallory = await connect(transport(`mcp-mallory-${Date.now()}`))
      const seen = await call(mallory, 'get', { requestId: created.requestId })
      expect(seen.isError).toBe(true)
      expect(seen.text).toMatch(/^404/)
      await mallory.close()
      // Alice's session id with another key: 404, as a session that never was
      const stolen = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': 'mcp-mallory',
          'mcp-session-id': aliceTransport.sessionId!,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      })
      expect(stolen.status).toBe(404)
      expect(await stolen.json()).toMatchObject({ statusCode: 404, error: 'Not Found' })
    } finally {
      await client.close()
    }
  })

  it('bounds the sessions of one key (--mcp-sessions), in the error shape naming the flag', async () => {
    const key = `mcp-many-${Date.now()}`
    const first = await connect(transport(key))
    const second = await connect(transport(key))
    const third = await initialize(key)
    expect(third.status).toBe(429)
    const body = await third.json()
    expect(body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(body.message).toContain('--mcp-sessions')
    // another key is not held back by it
    const other = await connect(transport(`${key}-other`))
    await other.close()
    // a closed session gives its place back
    await first.close()
    await second.close()
    await waitFor(async () => ((await initialize(key)).status === 200 ? true : undefined))
  })

  it('closes a session idle past its bound (--mcp-idle): its id is then unknown', async () => {
    const key = `mcp-idle-${Date.now()}`
    const t = transport(key)
    const client = await connect(t)
    await ok(client, 'list_snapshots')
    const id = t.sessionId!
    const ask = () =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': key,
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      })
    // used within the bound it stays
    await new Promise((r) => setTimeout(r, 800))
    expect((await ask()).status).toBe(200)
    await new Promise((r) => setTimeout(r, 2200))
    const late = await ask()
    expect(late.status).toBe(404)
  })

  it('refuses a message past the body bound with 413 in the error shape', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { padding: 'x'.repeat(1024 * 1024) },
    })
    const answer = await initialize(`mcp-big-${Date.now()}`, {}, big)
    expect(answer.status).toBe(413)
    expect(await answer.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' })
    // sent without a length (chunked): counted as it arrives
    const bytes = new TextEncoder().encode(big)
    const chunked = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': `mcp-big-${Date.now()}`,
      },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024)
            controller.enqueue(bytes.slice(at, at + 64 * 1024))
          controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
    expect(await chunked.json()).toMatchObject({ statusCode: 413 })
  })

  it('needs a key, refuses a foreign Origin, and offers no GET stream', async () => {
    const none = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' })
    expect(none.status).toBe(401)
    expect(await none.json()).toMatchObject({ statusCode: 401 })
    const foreign = await initialize(`mcp-origin-${Date.now()}`, { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' })
    const get = await fetch(`${server.url}/mcp`, { headers: { 'x-api-key': 'k' } })
    expect(get.status).toBe(405)
  })

  it('serves /mcp with a query too, and leaves paths that only start with /mcp to the API', async () => {
    const queried = await fetch(`${server.url}/mcp?session=1`, { headers: { 'x-api-key': 'k' } })
    expect(queried.status).toBe(405)
    for (const path of ['/mcpx', '/mcp/tools', '/mcpx?a=1']) {
      const other = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': 'k' } })
      expect(other.status).toBe(404)
      expect(await other.json()).toMatchObject({ statusCode: 404 })
    }
  })
})

describe('/mcp in strict mode', () => {
  let strict: RunningServer
  beforeAll(async () => {
    strict = await startServer({ port: 0, apiKeys: ['sk_allowed'], chain: false })
  }, 60_000)
  afterAll(async () => {
    await strict?.close()
  })

  it('opens sessions only for the keys the API accepts', async () => {
    const refused = await fetch(`${strict.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': 'sk_stranger',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ statusCode: 401 })
    const client = await connect(
      new StreamableHTTPClientTransport(new URL(`${strict.url}/mcp`), {
        requestInit: { headers: { 'x-api-key': 'sk_allowed' } },
      }),
    )
    expect((await client.listTools()).tools.length).toBe(16)
    await client.close()
  })
})

describe('/mcp sessions of every key together (--mcp-sessions-total)', () => {
  let small: RunningServer
  beforeAll(async () => {
    small = await startServer({ port: 0, chain: false, mcp: { sessionsTotal: 2 } })
  }, 60_000)
  afterAll(async () => {
    await small?.close()
  })

  it('refuses a session past the total, whatever the key, naming the flag', async () => {
    const open = (key: string) =>
      connect(
        new StreamableHTTPClientTransport(new URL(`${small.url}/mcp`), {
          requestInit: { headers: { 'x-api-key': key } },
        }),
      )
    const a = await open('total-a')
    const b = await open('total-b')
    const refused = await fetch(`${small.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': 'total-c',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
    expect(refused.status).toBe(429)
    const body = await refused.json()
    expect(body).toMatchObject({ statusCode: 429 })
    expect(body.message).toContain('--mcp-sessions-total')
    // a session ended (DELETE /mcp) gives its place back
    await (a.transport as StreamableHTTPClientTransport).terminateSession()
    const c = await open('total-c')
    await Promise.all([a.close(), b.close(), c.close()])
  })
})
