// Claimable sandboxes on a shared server (--claimable): a visitor creates one (a fresh key, its links, its expiry),
// uses it in strict mode, and when the wall clock passes its expiry its state is gone, in memory and in the state dir
// (state.db's rows, snapshot files), and its key answers 401 naming the expiry, across a restart too. Strangers are
// limited per address and in total; without --claimable nothing changes.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.ts'
import { call as callTool, connect } from '../mcp/mcp-support.ts'
import { openState } from '../support/state-db.ts'
import { waitFor } from '../support/wait.ts'

const DAY = 86_400_000
const dirs: string[] = []
const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

let clock = Date.parse('2026-12-06T12:00:00Z')
const start = async (options: StartServerOptions) => {
  const server = await startServer({ port: 0, chain: false, apiKeys: ['sk_operator'], ...options })
  servers.push(server)
  return server
}
const call = async (
  server: RunningServer,
  method: string,
  path: string,
  { key, body, from }: { key?: string; body?: unknown; from?: string } = {},
) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(from ? { 'x-forwarded-for': from } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the tests read it
  return { status: response.status, body: json as any }
}

/**
 * What state.db holds of `key`, by kind of row: worlds, journal entries, and the shared rows naming it (webhooks,
 * scenario choice, webhook delivery records).
 */
function onDisk(dir: string, key: string): Record<string, number> {
  const db = openState(dir)
  try {
    const count = (sql: string, ...args: string[]) => (db.prepare(sql).get(...args) as { n: number }).n
    const rows: Record<string, number> = {
      worlds: count('SELECT count(*) AS n FROM worlds WHERE tenant = ?', key),
      journal: count('SELECT count(*) AS n FROM journal WHERE tenant = ?', key),
    }
    const shared = db
      .prepare('SELECT kind FROM shared WHERE instr(key, ?) > 0 OR instr(value, ?) > 0')
      .all(key, key) as { kind: string }[]
    for (const { kind } of shared) rows[kind] = (rows[kind] ?? 0) + 1
    return rows
  } finally {
    db.close()
  }
}
const total = (rows: Record<string, number>) => Object.values(rows).reduce((a, b) => a + b, 0)
const snapshotFiles = (dir: string, key: string) => {
  const folder = join(dir, 'snapshots', createHash('sha256').update(key).digest('hex').slice(0, 32))
  return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')) : []
}

describe('claimable sandboxes (--claimable)', () => {
  it('creates one, is used in strict mode, expires on the clock and its state is gone, disk included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claimable-'))
    dirs.push(dir)
    const options = { stateDir: dir, claimable: { now: () => clock } }
    const server = await start(options)
    const created = await call(server, 'POST', '/__sandbox/sandboxes')
    expect(created.status).toBe(201)
    const { key } = created.body
    expect(key).toMatch(/^sk_sandbox_[\w-]{32}$/)
    expect(created.body).toMatchObject({
      status: 'active',
      expiresAt: new Date(clock + 7 * DAY).toISOString(),
      dashboardUrl: `${server.url}/`,
      mcpUrl: `${server.url}/mcp`,
    })
    // used as any key of strict mode; a stranger's key still is not
    const request = await call(server, 'POST', '/v2/request', {
      key,
      body: {
        amount: '10',
        invoiceCurrency: 'USD',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x1111111111111111111111111111111111111111',
      },
    })
    expect(request.status).toBe(201)
    expect((await call(server, 'POST', '/v2/request', { key: 'sk_stranger', body: {} })).status).toBe(401)
    expect(
      (await call(server, 'POST', '/__sandbox/webhooks', { key, body: { url: 'https://example.com/hook' } }))
        .status,
    ).toBe(201)
    // an event delivered to it: its receiver fails, so a retry is still pending when the key expires
    const refused = server.sandbox.shared.webhooks.route(
      'https://example.com/hook',
      () => new Response('down', { status: 503 }),
    )
    expect(
      (
        await call(server, 'POST', '/__sandbox/events', {
          key,
          body: { type: 'payment.confirmed', payload: { requestId: request.body.requestId } },
        })
      ).status,
    ).toBe(201)
    expect(
      (await call(server, 'PUT', '/__sandbox/scenario', { key, body: { scenario: 'kyc-approved' } })).status,
    ).toBe(200)
    expect(
      (await call(server, 'POST', '/__sandbox/snapshots', { key, body: { name: 'before' } })).status,
    ).toBe(201)
    await waitFor(() => (onDisk(dir, key).delivery && onDisk(dir, key).journal ? true : undefined))
    expect(snapshotFiles(dir, key)).toEqual(['before.json'])
    expect((await call(server, 'GET', `/__sandbox/sandboxes/${key}`)).body.status).toBe('active')

    // an agent's MCP session opened now
    const agent = await connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    )
    expect((await callTool(agent, 'list_snapshots')).isError).toBe(false)
    // a day before its expiry it lives; past it, its state goes and its key answers 401 naming the expiry
    clock += 6 * DAY
    expect((await call(server, 'GET', '/__sandbox/clock', { key })).status).toBe(200)
    clock += DAY
    const expired = await call(server, 'GET', `/v2/request/${request.body.requestId}`, { key })
    expect(expired.status).toBe(401)
    expect(expired.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    expect(expired.body.message).toContain(`expired at ${created.body.expiresAt}`)
    // what the dashboard reads for the key says so too (the page shows a 401's message when it is not "Unauthorized")
    const page = await call(server, 'GET', '/__sandbox/state', { key })
    expect(page.status).toBe(401)
    expect(page.body.message).toMatch(/^This sandbox expired at /)
    expect((await call(server, 'GET', `/__sandbox/sandboxes/${key}`)).body).toMatchObject({
      status: 'expired',
      expiresAt: created.body.expiresAt,
    })
    const shared = server.sandbox.shared
    await waitFor(() => (shared.snapshots.list(key).snapshots.length === 0 ? true : undefined))
    expect(shared.webhooks.registry.list(key)).toEqual([])
    expect(shared.webhooks.deliveries(key)).toEqual([])
    expect(shared.snapshots.list(key).snapshots).toEqual([])
    expect(shared.journal.list(key)).toEqual([])
    expect(shared.scenarios.selected(key)).toBe(shared.scenarios.defaultScenario)
    expect(snapshotFiles(dir, key)).toEqual([])
    await waitFor(() => (total(onDisk(dir, key)) === 0 ? true : undefined), {
      intervalMs: 200,
      timeoutMs: 10_000,
    }).catch(() => expect(onDisk(dir, key)).toEqual({ worlds: 0, journal: 0 }))
    // the session opened before reaches nothing any more (its requests carry the expired key), and leaves nothing
    await expect(callTool(agent, 'tail_calls')).rejects.toThrow(/401.*This sandbox expired/)
    await agent.close().catch(() => {})
    expect(shared.journal.list(key)).toEqual([])
    // its MCP door is shut too
    const mcp = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'x-api-key': key } })
    expect(mcp.status).toBe(401)

    // a restart keeps it expired, and a live claim live
    const live = (await call(server, 'POST', '/__sandbox/sandboxes')).body.key
    await server.close()
    servers.splice(servers.indexOf(server), 1)
    const again = await start(options)
    expect((await call(again, 'GET', '/__sandbox/clock', { key })).status).toBe(401)
    expect((await call(again, 'GET', '/__sandbox/clock', { key: live })).status).toBe(200)
    // nothing of the expired key comes back: not in memory once every saved world is back, not on disk
    const back = again.sandbox.shared
    // every saved world comes back before all are listed, and every saved delivery record with them
    expect([...back.tenants.all()].filter((world) => world.tenant === key)).toEqual([])
    expect(back.webhooks.deliveries(key)).toEqual([])
    expect(back.webhooks.records().filter((r) => r.tenant === key)).toEqual([])
    expect(back.webhooks.registry.list(key)).toEqual([])
    expect(back.journal.list(key)).toEqual([])
    expect(snapshotFiles(dir, key)).toEqual([])
    expect(onDisk(dir, key)).toEqual({ worlds: 0, journal: 0 })
    refused()
  })

  it("deletes an expired key's state once its calls under way have ended: nothing they write comes back", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claimable-'))
    dirs.push(dir)
    const server = await start({ stateDir: dir, claimable: { now: () => clock } })
    const { key } = (await call(server, 'POST', '/__sandbox/sandboxes')).body
    const body = {
      amount: '10',
      invoiceCurrency: 'USD',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x1111111111111111111111111111111111111111',
    }
    expect((await call(server, 'POST', '/v2/request', { key, body })).status).toBe(201)
    // a call under way when the key expires: x-sandbox-delay holds it 1.5 s before it creates its request
    const slow = fetch(`${server.url}/v2/request`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-sandbox-delay': '1500' },
      body: JSON.stringify(body),
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    clock += 8 * DAY
    expect((await call(server, 'GET', `/__sandbox/sandboxes/${key}`)).body.status).toBe('expired')
    expect((await call(server, 'GET', '/__sandbox/clock', { key })).status).toBe(401)
    await (await slow).text()
    // the call's journal entry would be appended within 200 ms: nothing of the key is in memory or on disk after it
    await new Promise((resolve) => setTimeout(resolve, 600))
    const shared = server.sandbox.shared
    expect([...shared.tenants.all()].filter((world) => world.tenant === key)).toEqual([])
    expect(shared.journal.list(key)).toEqual([])
    expect(onDisk(dir, key)).toEqual({ worlds: 0, journal: 0 })
  })

  it('strict mode admits a live claimed key through an explicit port and refuses an expired one', async () => {
    const server = await start({ claimable: { now: () => clock } })
    const { key } = (await call(server, 'POST', '/__sandbox/sandboxes')).body
    // the sandbox's own dispatcher, without the claimable door in front: what authentication itself decides
    const { sandbox } = server
    const dispatch = async (apiKey: string) =>
      (
        await sandbox.dispatch({
          method: 'GET',
          path: '/__sandbox/clock',
          query: {},
          headers: { 'x-api-key': apiKey },
          rawBody: undefined,
        })
      ).status
    expect(await dispatch(key)).toBe(200)
    expect(await dispatch('sk_operator')).toBe(200)
    expect(await dispatch(`${key}x`)).toBe(401)
    // the portal's standing of keys is its own (no object of another room is patched): a claimed key is not the portal's
    expect(Object.hasOwn(sandbox.shared.portal, 'standing')).toBe(false)
    expect(sandbox.shared.portal.standing(key)).toBe('unknown')
    // past its expiry the key is refused by authentication too, before any sweep or call of the door saw it
    clock += 7 * DAY
    expect(await dispatch(key)).toBe(401)
    expect(await dispatch('sk_operator')).toBe(200)
    expect((await call(server, 'GET', '/__sandbox/clock', { key })).body.message).toMatch(
      /^This sandbox expired at /,
    )
    expect(await dispatch(key)).toBe(401)
  })

  it('strict mode admits the keys of SandboxOptions.admitsKey besides --api-keys', async () => {
    const server = await start({ admitsKey: (key) => key === 'sk_guest' })
    expect((await call(server, 'GET', '/__sandbox/clock', { key: 'sk_guest' })).status).toBe(200)
    expect((await call(server, 'GET', '/__sandbox/clock', { key: 'sk_other' })).status).toBe(401)
  })

  it('limits claims per client address (--claim-rate) and in all (--max-claims), in the error shape', async () => {
    const server = await start({ claimable: { now: () => clock, perAddressPerHour: 2, maxLive: 4 } })
    const claim = (from: string) => call(server, 'POST', '/__sandbox/sandboxes', { from })
    expect((await claim('203.0.113.1')).status).toBe(201)
    expect((await claim('203.0.113.1')).status).toBe(201)
    const third = await claim('203.0.113.1')
    expect(third.status).toBe(429)
    expect(third.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(third.body.message).toContain('--claim-rate')
    // another address is not held back by it; the whole server is, past its bound
    expect((await claim('203.0.113.2')).status).toBe(201)
    expect((await claim('203.0.113.3')).status).toBe(201)
    const full = await claim('203.0.113.4')
    expect(full.status).toBe(507)
    expect(full.body.message).toContain('--max-claims')
    // an hour on, the first address may claim again once claims expired to make room
    clock += 8 * DAY
    expect((await claim('203.0.113.1')).status).toBe(201)
    // a page of another origin creates none
    const foreign = await fetch(`${server.url}/__sandbox/sandboxes`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    })
    expect(foreign.status).toBe(403)
  })

  it('changes nothing without --claimable: the route is unknown, strict mode as it was', async () => {
    const server = await start({})
    const answer = await call(server, 'POST', '/__sandbox/sandboxes')
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ statusCode: 404 })
    expect((await call(server, 'GET', '/__sandbox/clock', { key: 'sk_sandbox_guess' })).status).toBe(401)
  })
})
