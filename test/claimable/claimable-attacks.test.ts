// A stranger against claimable sandboxes (--claimable) on a shared server: a key in the status path that is not valid
// percent-encoding, and a claims.json the disk refuses, answer in the API's error shape; the process stays up, and a
// claim the disk did not keep is neither answered nor admitted.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.ts'

const dirs: string[] = []
const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const start = async (options: StartServerOptions = {}) => {
  const server = await startServer({
    port: 0,
    chain: false,
    apiKeys: ['sk_operator'],
    claimable: {},
    ...options,
  })
  servers.push(server)
  return server
}
const call = async (server: RunningServer, method: string, path: string, key?: string, from?: string) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(from ? { 'x-forwarded-for': from } : {}) },
    // a listener that threw never answers: fail in seconds, not at the test's timeout
    signal: AbortSignal.timeout(5_000),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the tests read it
  return { status: response.status, body: body as any }
}

describe('claimable sandboxes against a stranger', () => {
  it('answers a status path that is not valid percent-encoding 404, and stays up', async () => {
    const server = await start()
    const exits: unknown[] = []
    const onUncaught = (error: unknown) => exits.push(error)
    // the server's listener runs in this process: an exception it throws would end a real server
    process.prependListener('uncaughtException', onUncaught)
    try {
      for (const path of [
        '/__sandbox/sandboxes/%',
        '/__sandbox/sandboxes/%E0%A4%A',
        '/__sandbox/sandboxes/sk_%ZZ',
      ]) {
        const answer = await call(server, 'GET', path).catch((error: Error) => ({
          status: 0,
          body: error.message,
        }))
        expect(answer.status, path).toBe(404)
        expect(answer.body).toMatchObject({ statusCode: 404, message: 'No such sandbox', error: 'Not Found' })
      }
    } finally {
      process.off('uncaughtException', onUncaught)
    }
    expect(exits).toEqual([])
    expect((await call(server, 'GET', '/__sandbox/health')).status).toBe(200)
  })

  it('answers 507 when the disk refuses claims.json: the claim is not kept, nor its key admitted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claimable-attacks-'))
    dirs.push(dir)
    // two live claims at most: a claim the disk refused must not hold the second place
    const server = await start({ stateDir: dir, claimable: { maxLive: 2 } })
    const first = await call(server, 'POST', '/__sandbox/sandboxes')
    expect(first.status).toBe(201)
    // the temporary file's place taken by a folder: the write fails as on a full or read-only disk
    mkdirSync(join(dir, `claims.json.${process.pid}.tmp`))
    const exits: unknown[] = []
    const onUncaught = (error: unknown) => exits.push(error)
    process.prependListener('uncaughtException', onUncaught)
    try {
      const refused = await call(server, 'POST', '/__sandbox/sandboxes').catch((error: Error) => ({
        status: 0,
        body: error.message,
      }))
      expect(refused.status).toBe(507)
      expect(refused.body).toMatchObject({ statusCode: 507 })
      expect(refused.body.message).toContain('--state-dir')
    } finally {
      process.off('uncaughtException', onUncaught)
    }
    expect(exits).toEqual([])
    // the first claim's key still works; once the disk takes the file again the second place is free
    expect((await call(server, 'GET', '/__sandbox/webhooks/deliveries', first.body.key)).status).toBe(200)
    rmSync(join(dir, `claims.json.${process.pid}.tmp`), { recursive: true })
    expect((await call(server, 'POST', '/__sandbox/sandboxes')).status).toBe(201)
    expect((await call(server, 'GET', '/__sandbox/health')).status).toBe(200)
  })

  it('bounds the live claims one address holds (--claims-per-address), not only its claims an hour', async () => {
    // the hourly rate alone: 5 an hour for 7 days lets one address hold 840 of the 1000 live claims
    const server = await start({ claimable: { perAddressPerHour: 100, livePerAddress: 3 } })
    for (let i = 0; i < 3; i++)
      expect((await call(server, 'POST', '/__sandbox/sandboxes', undefined, '203.0.113.7')).status).toBe(201)
    const refused = await call(server, 'POST', '/__sandbox/sandboxes', undefined, '203.0.113.7')
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(refused.body.message).toContain('--claims-per-address')
    // an IPv6 stranger counts by its /64
    for (let i = 0; i < 3; i++)
      expect(
        (await call(server, 'POST', '/__sandbox/sandboxes', undefined, `2001:db8:1:2::${i + 1}`)).status,
      ).toBe(201)
    expect(
      (await call(server, 'POST', '/__sandbox/sandboxes', undefined, '2001:db8:1:2:ffff::9')).status,
    ).toBe(429)
    // another visitor still gets one
    expect((await call(server, 'POST', '/__sandbox/sandboxes', undefined, '198.51.100.20')).status).toBe(201)
  })
})
