// request-sandbox proxy records an app's session with a service (a local stand-in: a sandbox on port 0) as HAR with
// no credential in it; request-sandbox fixtures import turns the recording into a world file that, loaded into a
// fresh sandbox, reproduces the recorded objects.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parse } from 'yaml'
import { type RunningServer, startServer } from '../../src/index.ts'
import { compareResponses, fixturesImport, startProxy } from '../../src/verify/index.ts'

let service: RunningServer
let fresh: RunningServer
let proxy: Awaited<ReturnType<typeof startProxy>>
const dir = mkdtempSync(join(tmpdir(), 'verify-proxy-'))
const har = join(dir, 'session.har')
const appKey = `rn_app_${Math.random().toString(36).slice(2, 14)}`
const freshKey = `rn_fresh_${Math.random().toString(36).slice(2, 14)}`
const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const bearer = `tok_${Math.random().toString(36).slice(2, 14)}`

beforeAll(async () => {
  service = await startServer({ chain: false })
  fresh = await startServer({ chain: false })
  proxy = await startProxy({ target: service.url, record: har })
})
afterAll(async () => {
  await proxy?.close()
  await service?.close()
  await fresh?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A call through a base URL with a key; answers status, headers and the parsed body. */
async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  const headers: Record<string, string> = {}
  response.headers.forEach((v, k) => {
    headers[k] = v
  })
  return { status: response.status, headers, text, body: text ? JSON.parse(text) : undefined }
}

/** What the app does through the proxy: the objects it creates, by kind, with the service's ids. */
const session: Record<string, string> = {}

describe('request-sandbox proxy', () => {
  it("forwards an app's calls to the service and answers with its answers", async () => {
    const app = (method: string, path: string, body?: unknown) => call(proxy.url, appKey, method, path, body)
    const payer = await app('POST', '/v2/payer', {
      clientUserId: 'ann@example.com',
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      beneficiaryType: 'individual',
      addressLine1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      postcode: '73301',
      country: 'US',
      dateOfBirth: '1990-01-01',
      nationality: 'US',
      phone: '+15555550100',
      ssn: '123-45-6789',
    })
    expect(payer.status, payer.text).toBeLessThan(300)
    const client = await app('POST', '/v2/client-ids', {
      label: 'shop',
      allowedDomains: ['https://shop.test'],
    })
    expect(client.status, client.text).toBe(201)
    session.clientId = client.body.id
    expect((await app('PUT', `/v2/client-ids/${client.body.id}`, { label: 'shop renamed' })).status).toBe(200)
    const gone = await app('POST', '/v2/client-ids', {
      label: 'temporary',
      allowedDomains: ['https://tmp.test'],
    })
    expect((await app('DELETE', `/v2/client-ids/${gone.body.id}`)).status).toBe(200)
    const hook = await app('POST', '/v2/webhook', { url: 'http://127.0.0.1:9/hook' })
    expect(hook.status, hook.text).toBe(201)
    const request = await app('POST', '/v2/request', {
      payee,
      amount: '12.5',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      reference: 'INV-42',
    })
    expect(request.status, request.text).toBe(201)
    session.requestId = request.body.requestId
    const direct = await call(service.url, appKey, 'GET', `/v2/request/${request.body.requestId}`)
    const proxied = await app('GET', `/v2/request/${request.body.requestId}`)
    expect(proxied.status).toBe(200)
    expect(proxied.headers['content-type']).toBe(direct.headers['content-type'])
    expect(proxied.body.requestId).toBe(direct.body.requestId)
    const payout = await app('POST', '/v2/payouts', {
      payee,
      amount: '3',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
    })
    expect(payout.status, payout.text).toBe(201)
    session.payoutId = payout.body.requestId
    const link = await app('POST', '/v2/secure-payments', {
      requests: [{ payee, amount: '7', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' }],
    })
    expect(link.status, link.text).toBe(201)
    session.token = link.body.token
    // a refused call is forwarded and recorded too (and not imported)
    expect((await app('POST', '/v2/request', {})).status).toBe(400)
    // other credentials: a bearer token and a cookie
    const other = await fetch(`${proxy.url}/v2/currencies?network=sepolia`, {
      headers: { authorization: `Bearer ${bearer}`, cookie: `session_token=${bearer}`, 'x-api-key': appKey },
    })
    expect(other.status).toBe(200)
    expect(proxy.recorded()).toBe(12)
  })

  it('writes the session as HAR 1.2 with no credential in it', () => {
    const text = readFileSync(har, 'utf8')
    expect(text).not.toContain(appKey)
    expect(text).not.toContain(bearer)
    const doc = JSON.parse(text)
    expect(doc.log.version).toBe('1.2')
    expect(doc.log.entries).toHaveLength(12)
    for (const entry of doc.log.entries) {
      const key = entry.request.headers.find((h: { name: string }) => h.name === 'x-api-key')
      expect(key.value).toBe('[masked]')
      expect(entry.request.url.startsWith(service.url)).toBe(true)
    }
    const hook = doc.log.entries.find((e: { request: { url: string } }) =>
      e.request.url.endsWith('/v2/webhook'),
    )
    expect(JSON.parse(hook.response.content.text).secret).toMatch(/^[0a]{64}$/)
  })

  it('answers an over-large body 413 and an unreachable service 502, in the error shape, without a recording', async () => {
    const big = await fetch(`${proxy.url}/v2/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'x'.repeat(1024 * 1024 + 10) }),
    })
    expect(big.status).toBe(413)
    expect(await big.json()).toMatchObject({
      statusCode: 413,
      message: expect.stringContaining('1048576 bytes'),
    })
    const nowhere = await startProxy({ target: 'http://127.0.0.1:9', record: join(dir, 'nowhere.har') })
    try {
      const answer = await fetch(`${nowhere.url}/v2/currencies`)
      expect(answer.status).toBe(502)
      expect(await answer.json()).toMatchObject({
        statusCode: 502,
        message: expect.stringContaining('could not reach'),
      })
      expect(nowhere.recorded()).toBe(0)
    } finally {
      await nowhere.close()
    }
    expect(proxy.recorded()).toBe(12)
  })
})

describe('request-sandbox fixtures import', () => {
  const world = join(dir, 'world.yaml')

  it('turns the recording into a world file of the objects the session made', async () => {
    let printed = ''
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed += String(chunk)
      return true
    })
    try {
      expect(await fixturesImport([har, '-o', world, '--key', freshKey])).toBe(0)
    } finally {
      spy.mockRestore()
    }
    expect(printed).toBe(
      `1 payers, 1 clientIds, 1 webhooks, 1 requests, 1 payouts, 1 securePayments written to ${world}\n`,
    )
    const file = parse(readFileSync(world, 'utf8'))
    expect(file.key).toBe(freshKey)
    expect(Object.keys(file).sort()).toEqual(
      [
        'clientIds',
        'description',
        'key',
        'payers',
        'payouts',
        'requests',
        'securePayments',
        'webhooks',
      ].sort(),
    )
    expect(Object.values(file.clientIds)).toEqual([
      { body: { label: 'shop renamed', allowedDomains: ['https://shop.test'] } },
    ])
    expect(Object.values(file.webhooks)).toEqual([{ url: 'http://127.0.0.1:9/hook' }])
    expect(Object.keys(file.requests)).toEqual([`request-${session.requestId!.slice(2, 26)}`])
  })

  it('reproduces the recorded objects in a fresh sandbox', async () => {
    const loaded = await fetch(`${fresh.url}/__sandbox/fixtures`, {
      method: 'POST',
      headers: { 'x-api-key': freshKey, 'content-type': 'application/yaml' },
      body: readFileSync(world, 'utf8'),
    })
    expect(loaded.status, await loaded.clone().text()).toBe(201)
    const { created } = (await loaded.json()) as {
      created: Record<string, Record<string, Record<string, string>>>
    }
    const recorded = (path: string) => call(service.url, appKey, 'GET', path)
    const replayed = (path: string) => call(fresh.url, freshKey, 'GET', path)
    const same = async (a: string, b: string, fields: string[]) => {
      const [real, copy] = [await recorded(a), await replayed(b)]
      expect(copy.status).toBe(200)
      // the same shape (ids by format) and the same values where they are the object's own
      expect(
        compareResponses(
          { status: real.status, headers: real.headers, body: real.text },
          { status: copy.status, headers: copy.headers, body: copy.text },
        ),
      ).toEqual([])
      for (const field of fields) expect(copy.body[field], field).toEqual(real.body[field])
    }
    const request = Object.values(created.requests!)[0]!
    await same(`/v2/request/${session.requestId}`, `/v2/request/${request.requestId}`, [
      'hasBeenPaid',
      'status',
      'requestAmount',
      'invoiceCurrency',
      'paymentCurrency',
      'payee',
      'reference',
    ])
    const payout = Object.values(created.payouts!)[0]!
    await same(`/v2/request/${session.payoutId}`, `/v2/request/${payout.requestId}`, [
      'requestAmount',
      'payee',
      'status',
    ])
    // the payer keeps its id
    await same('/v2/payer/ann%40example.com', '/v2/payer/ann%40example.com', [
      'clientUserId',
      'email',
      'firstName',
      'lastName',
      'kycStatus',
      'agreementStatus',
    ])
    const link = Object.values(created.securePayments!)[0]!
    const [real, copy] = [
      await recorded(`/v2/secure-payments/${session.token}`),
      await replayed(`/v2/secure-payments/${link.token}`),
    ]
    expect(copy.body.amount).toBe(real.body.amount)
    expect(copy.body.payee).toBe(real.body.payee)
    const clients = await replayed('/v2/client-ids')
    expect(
      clients.body.map((c: { label: string; allowedDomains: string[] }) => [c.label, c.allowedDomains]),
    ).toEqual([['shop renamed', ['https://shop.test']]])
    const hooks = await replayed('/v2/webhook')
    expect(hooks.body.map((h: { url: string }) => h.url)).toEqual(['http://127.0.0.1:9/hook'])
  })

  it('refuses a file that is not HAR with a clear error', async () => {
    const bad = join(dir, 'bad.har')
    writeFileSync(bad, '{"entries": []}')
    await expect(fixturesImport([bad])).rejects.toThrow(/not a HAR document: no log.entries/)
    await expect(fixturesImport([join(dir, 'missing.har')])).rejects.toThrow(/no such file/)
  })
})
