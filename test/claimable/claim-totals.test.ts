// Claimed keys (--claimable), each within its own per-key bounds, do not fill a sandbox-wide total that the server's
// other keys (the operator's) need: together they hold at most half of the streams, MCP sessions, worlds in memory
// and snapshot bytes; past it a claimed key is refused (429/507 naming the flag) or its own oldest world evicted,
// while the operator's key still gets its place.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.ts'
import { connect } from '../mcp/mcp-support.ts'

const servers: RunningServer[] = []
const dirs: string[] = []
const streams: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cancel of streams) await cancel()
  for (const s of servers) await s.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const start = async (options: StartServerOptions) => {
  const server = await startServer({
    port: 0,
    chain: false,
    apiKeys: ['sk_operator'],
    claimable: { perAddressPerHour: 100 },
    ...options,
  })
  servers.push(server)
  return server
}
const claims = async (server: RunningServer, n: number) => {
  const keys: string[] = []
  for (let i = 0; i < n; i++) {
    const response = await fetch(`${server.url}/__sandbox/sandboxes`, { method: 'POST' })
    keys.push(((await response.json()) as { key: string }).key)
  }
  return keys
}
const call = async (server: RunningServer, method: string, path: string, key: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the tests read it
  return { status: response.status, body: (await response.json()) as any }
}
/** Opens a live journal stream; its status (the stream stays open until the test ends). */
const openStream = async (server: RunningServer, key: string) => {
  const response = await fetch(`${server.url}/__sandbox/stream`, { headers: { 'x-api-key': key } })
  if (response.status === 200) {
    const reader = response.body!.getReader()
    streams.push(() => reader.cancel().catch(() => {}))
    return { status: 200, body: null }
  }
  return { status: response.status, body: (await response.json()) as { message: string } }
}

describe('claimed keys and the sandbox-wide totals', () => {
  it('hold at most half of --max-streams-total: the operator still opens its streams', async () => {
    const server = await start({ maxStreamsTotal: 4 })
    let opened = 0
    let refused: { status: number; body: { message: string } | null } | undefined
    // every claimed key within its own bound (10 streams), as many as they get
    for (const key of await claims(server, 3))
      for (let i = 0; i < 2 && !refused; i++) {
        const answer = await openStream(server, key)
        if (answer.status === 200) opened++
        else refused = answer
      }
    expect(opened).toBe(2)
    expect(refused?.status).toBe(429)
    expect(refused?.body?.message).toMatch(
      /claimable sandboxes together hold at most 2 streams.*--max-streams-total/,
    )
    for (let i = 0; i < 2; i++) expect((await openStream(server, 'sk_operator')).status).toBe(200)
  })

  it('hold at most half of --mcp-sessions-total: the operator still opens a session', async () => {
    const server = await start({ mcp: { sessionsTotal: 2 } })
    const session = (key: string) =>
      connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { 'x-api-key': key } },
        }),
      )
    const [a, b] = await claims(server, 2)
    const first = await session(a!)
    await expect(session(b!)).rejects.toThrow(/429|claimable sandboxes together hold at most 1 MCP sessions/)
    const operator = await session('sk_operator')
    await operator.close()
    await first.close()
  })

  it('keep at most half of --max-worlds in memory without a state dir: the operator still gets its world', async () => {
    const server = await start({ maxWorlds: 4 })
    const statuses: number[] = []
    for (const key of await claims(server, 4))
      statuses.push((await call(server, 'GET', '/__sandbox/clock', key)).status)
    expect(statuses).toEqual([200, 200, 507, 507])
    const refused = await call(server, 'GET', '/__sandbox/clock', (await claims(server, 1))[0]!)
    expect(refused.body.message).toMatch(
      /claimable sandboxes: they keep at most 2 together \(half of --max-worlds/,
    )
    expect((await call(server, 'GET', '/__sandbox/clock', 'sk_operator')).status).toBe(200)
  })

  it("evict their own worlds first with a state dir: the operator's world stays in memory", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claim-totals-'))
    dirs.push(dir)
    const server = await start({ maxWorlds: 4, stateDir: dir })
    expect((await call(server, 'GET', '/__sandbox/clock', 'sk_operator')).status).toBe(200)
    for (const key of await claims(server, 6))
      expect((await call(server, 'GET', '/__sandbox/clock', key)).status).toBe(200)
    const { tenants } = server.sandbox.shared
    expect(tenants.peek('sk_operator', 'default')).toBeDefined()
    // the claimed keys keep 2 worlds in memory (half of 4), though the total has room for a third
    expect(tenants.size).toBe(3)
    // past --max-worlds the claimed keys' worlds go to disk before the operator's, its least recently used included
    for (const scenario of ['kyc-approved', 'kyc-not-started']) {
      const answer = await fetch(`${server.url}/__sandbox/clock`, {
        headers: { 'x-api-key': 'sk_operator', 'x-sandbox-scenario': scenario },
      })
      expect(answer.status, scenario).toBe(200)
    }
    expect(tenants.size).toBe(4)
    for (const scenario of ['default', 'kyc-approved', 'kyc-not-started'])
      expect(tenants.peek('sk_operator', scenario), scenario).toBeDefined()
  })

  it('take at most half of --snapshot-total-mb: the operator still saves its snapshot', async () => {
    // room for about 8 snapshots of an empty world (a bit over 1 KB each)
    const server = await start({ snapshots: { totalBytes: 10_000 } })
    const keys = await claims(server, 10)
    let saved = 0
    let refused: { status: number; body: { message: string } } | undefined
    for (const key of keys) {
      const answer = await call(server, 'POST', '/__sandbox/snapshots', key, { name: 'mine' })
      if (answer.status === 201) saved++
      else {
        refused = answer
        break
      }
    }
    const { snapshots } = server.sandbox.shared
    expect(saved).toBeGreaterThan(0)
    expect(snapshots.usage(keys[0]!).key * (saved + 1)).toBeGreaterThan(5_000)
    expect(snapshots.usage(keys[0]!).total).toBeLessThanOrEqual(5_000)
    expect(refused?.status).toBe(507)
    expect(refused?.body.message).toMatch(
      /claimable sandboxes together hold at most .* of snapshots.*--snapshot-total-mb/,
    )
    expect((await call(server, 'POST', '/__sandbox/snapshots', 'sk_operator', { name: 'ours' })).status).toBe(
      201,
    )
  })

  it('count the snapshots claimed keys saved before a restart in their half of --snapshot-total-mb', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claim-totals-'))
    dirs.push(dir)
    const options = { stateDir: dir, snapshots: { totalBytes: 10_000 } }
    const first = await start(options)
    const keys = await claims(first, 10)
    let saved = 0
    for (const key of keys)
      if ((await call(first, 'POST', '/__sandbox/snapshots', key, { name: 'mine' })).status === 201) saved++
      else break
    expect(saved).toBeGreaterThan(0)
    expect(saved).toBeLessThan(10)
    await first.close()
    servers.splice(servers.indexOf(first), 1)
    // after the restart, the claimed keys that have not saved yet are still refused: the share is taken
    const again = await start(options)
    const refused = await call(again, 'POST', '/__sandbox/snapshots', keys[saved]!, { name: 'mine' })
    expect(refused.status).toBe(507)
    expect(refused.body.message).toMatch(/claimable sandboxes together hold at most/)
    expect((await call(again, 'POST', '/__sandbox/snapshots', 'sk_operator', { name: 'ours' })).status).toBe(
      201,
    )
  })
})
