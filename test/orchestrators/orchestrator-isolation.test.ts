// An orchestrator is one stranger among others (issue 29, findings 2 and 6): linking a client ID needs its owner's
// consent (client IDs are public), a link never takes the world from its owner, an unlink by another orchestrator
// locks nobody out; hosted onboarding creates a bounded number of platform worlds per orchestrator key and per
// wallet (429 naming --max-onboarded-platforms), cannot push another key's world out of memory, and two
// orchestrators onboarding the same wallet get separate platform tenants.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { startCliSandbox } from '../support/cli-sandbox.ts'
import type { Loose } from '../support/loose.ts'

const sandboxes: Sandbox[] = []
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close()
})

async function start(options: Parameters<typeof createSandbox>[0] = {}) {
  const sandbox = await createSandbox({ chain: false, log: () => {}, ...options })
  sandboxes.push(sandbox)
  return sandbox
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex')
const apiKey = () => `key_${hex(8)}`
const orcKey = () => `orc_${hex(8)}`
const wallet = () => `0x${hex(20)}`

interface Answer {
  status: number
  body: Loose
}

function caller(sandbox: Sandbox) {
  return async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer> => {
    const [pathname, search] = path.split('?')
    const form = typeof body === 'string'
    const res = await sandbox.dispatch({
      method,
      path: pathname!,
      query: Object.fromEntries(new URLSearchParams(search ?? '')),
      headers: {
        host: '127.0.0.1',
        ...headers,
        ...(body === undefined
          ? {}
          : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
      },
      rawBody: body === undefined ? undefined : form ? body : JSON.stringify(body),
    })
    return { status: res.status, body: res.body }
  }
}

/** A platform's back-end client ID, made with its API key. */
async function clientIdOf(call: ReturnType<typeof caller>, key: string): Promise<string> {
  const res = await call(
    'POST',
    '/v2/client-ids',
    { 'x-api-key': key },
    { label: 'Platform', allowedDomains: [] },
  )
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.clientId
}

/** A paired payment link (orchestrator key + client ID). */
const pairedLink = (call: ReturnType<typeof caller>, orchestrator: string, clientId: string) =>
  call(
    'POST',
    '/v2/secure-payments',
    { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId },
    { requests: [{ payee: wallet(), currency: 'FAU-sepolia', amount: '1' }] },
  )

/** An intent of `orchestrator` completed on its onboarding page with `walletAddress`. */
async function onboard(call: ReturnType<typeof caller>, orchestrator: string, walletAddress: string) {
  const created = await call(
    'POST',
    '/v2/orchestrators/client-id-link-intents',
    { 'x-orchestrator-key': orchestrator },
    { clientIdName: 'Shop' },
  )
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const url = new URL(created.body.url)
  const done = await call(
    'POST',
    `${url.pathname}${url.search}`,
    {},
    new URLSearchParams({ walletAddress, currency: 'USDC-sepolia', confirm: 'yes', kyt: 'none' }).toString(),
  )
  const page = String(done.body)
  return { status: done.status, page, clientId: /id="client-id">(cli_[0-9a-f]+)</.exec(page)?.[1] }
}

describe('linking a client ID needs its owner', () => {
  it("a stranger orchestrator cannot link someone else's client ID, and the owner's calls keep working", async () => {
    const call = caller(await start())
    const owner = apiKey()
    const clientId = await clientIdOf(call, owner)
    const stranger = orcKey()
    const link = (headers: Record<string, string>) =>
      call(
        'POST',
        '/v2/orchestrators/client-ids',
        { 'x-orchestrator-key': stranger, ...headers },
        { clientId },
      )
    const bare = await link({})
    expect(bare.status, JSON.stringify(bare.body)).toBe(403)
    expect(bare.body).toMatchObject({ statusCode: 403, error: 'Forbidden' })
    expect(bare.body.message).toContain("owner's consent")
    // its own key, or a platform tenant's name, is not the owner's
    expect((await link({ 'x-api-key': apiKey() })).status).toBe(403)
    expect((await link({ 'x-api-key': `platform:${clientId}` })).status).toBe(403)
    // no link was recorded: the stranger cannot create links in the owner's world, the owner's client ID still can
    expect((await pairedLink(call, stranger, clientId)).status).toBe(403)
    const own = await call(
      'POST',
      '/v2/secure-payments',
      { 'x-client-id': clientId },
      { requests: [{ payee: wallet(), currency: 'FAU-sepolia', amount: '1' }] },
    )
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    const listed = await call('GET', '/v2/orchestrators/client-ids', { 'x-orchestrator-key': stranger })
    expect(listed.body.links).toEqual([])
  })

  it("links with the owner's API key; a stranger's unlink cannot lock the rightful orchestrator out", async () => {
    const call = caller(await start())
    const owner = apiKey()
    const clientId = await clientIdOf(call, owner)
    const stranger = orcKey()
    const rightful = orcKey()
    // the stranger's attempts leave nothing behind: no link to spend the client ID's one link record
    expect(
      (await call('POST', '/v2/orchestrators/client-ids', { 'x-orchestrator-key': stranger }, { clientId }))
        .status,
    ).toBe(403)
    const strangerUnlink = () =>
      call('DELETE', `/v2/orchestrators/client-ids/${clientId}`, { 'x-orchestrator-key': stranger })
    expect((await strangerUnlink()).status).toBe(404)
    const linked = await call(
      'POST',
      '/v2/orchestrators/client-ids',
      { 'x-orchestrator-key': rightful, 'x-api-key': owner },
      { clientId },
    )
    expect(linked.status, JSON.stringify(linked.body)).toBe(201)
    expect(linked.body).toEqual({ link: { clientId, status: 'active' }, alreadyLinked: false })
    // the stranger can neither unlink it nor link it again
    expect((await strangerUnlink()).status).toBe(404)
    expect(
      (
        await call(
          'POST',
          '/v2/orchestrators/client-ids',
          { 'x-orchestrator-key': stranger, 'x-api-key': owner },
          { clientId },
        )
      ).status,
    ).toBe(409)
    const list = await call('GET', '/v2/orchestrators/client-ids', { 'x-orchestrator-key': rightful })
    expect(list.body.links).toEqual([{ clientId, status: 'active' }])
    expect((await pairedLink(call, rightful, clientId)).status).toBe(201)
    expect((await pairedLink(call, stranger, clientId)).status).toBe(403)
    // the world stays its owner's: its API key still creates links and reads its client IDs
    const own = await call(
      'POST',
      '/v2/secure-payments',
      { 'x-api-key': owner },
      { requests: [{ payee: wallet(), currency: 'FAU-sepolia', amount: '1' }] },
    )
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    const ids = await call('GET', '/v2/client-ids', { 'x-api-key': owner })
    expect(ids.body.map((c: { clientId: string }) => c.clientId)).toEqual([clientId])
  })
})

describe('hosted onboarding is bounded and scoped to its orchestrator', () => {
  it('answers 429 naming --max-onboarded-platforms for the platform world past the bound', async () => {
    const call = caller(await start({ maxOnboardedPlatforms: 2 }))
    const orchestrator = orcKey()
    const first = wallet()
    expect((await onboard(call, orchestrator, first)).status).toBe(200)
    expect((await onboard(call, orchestrator, wallet())).status).toBe(200)
    const third = await onboard(call, orchestrator, wallet())
    expect(third.status).toBe(429)
    expect(third.page).toContain('--max-onboarded-platforms')
    expect(third.clientId).toBeUndefined()
    // a wallet it onboarded before makes no new world
    expect((await onboard(call, orchestrator, first)).status).toBe(200)
    // a reset of the orchestrator's key does not give it new worlds
    expect((await call('POST', '/__sandbox/reset', { 'x-api-key': orchestrator })).status).toBe(200)
    expect((await onboard(call, orchestrator, wallet())).status).toBe(429)
  })

  it('holds the bound for forms posted at the same time and across a restart (--state-dir)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'onboarding-bound-'))
    try {
      let call = caller(await start({ stateDir: dir, maxOnboardedPlatforms: 2 }))
      const orchestrator = orcKey()
      const statuses = (
        await Promise.all(Array.from({ length: 6 }, () => onboard(call, orchestrator, wallet())))
      )
        .map((done) => done.status)
        .sort()
      expect(statuses).toEqual([200, 200, 429, 429, 429, 429])
      await sandboxes.pop()!.close()
      call = caller(await start({ stateDir: dir, maxOnboardedPlatforms: 2 }))
      const after = await onboard(call, orchestrator, wallet())
      expect(after.status).toBe(429)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('bounds the platform worlds of one wallet across orchestrators', async () => {
    const call = caller(await start({ maxOnboardedPlatforms: 2 }))
    const shared = wallet()
    expect((await onboard(call, orcKey(), shared)).status).toBe(200)
    expect((await onboard(call, orcKey(), shared)).status).toBe(200)
    const third = await onboard(call, orcKey(), shared)
    expect(third.status).toBe(429)
    expect(third.page).toContain('--max-onboarded-platforms')
  })

  it("an orchestrator's onboarding flood does not evict another key's world", async () => {
    const call = caller(await start({ maxWorlds: 5, maxOnboardedPlatforms: 2 }))
    const victim = apiKey()
    const clientId = await clientIdOf(call, victim)
    const orchestrator = orcKey()
    const answers: number[] = []
    for (let i = 0; i < 12; i++) answers.push((await onboard(call, orchestrator, wallet())).status)
    // the victim's world stayed in memory (without --state-dir an evicted world is gone)
    const mine = await call('GET', '/v2/client-ids', { 'x-api-key': victim })
    expect(mine.status).toBe(200)
    expect(mine.body.map((c: { clientId: string }) => c.clientId)).toEqual([clientId])
    expect(answers.filter((s) => s === 200)).toHaveLength(2)
    expect(answers.filter((s) => s === 429)).toHaveLength(10)
  })

  it("two orchestrators onboarding the same wallet get separate tenants and do not see each other's links", async () => {
    const call = caller(await start())
    const shared = wallet()
    const a = orcKey()
    const b = orcKey()
    const ofA = await onboard(call, a, shared)
    const ofB = await onboard(call, b, shared)
    expect(ofA.status).toBe(200)
    expect(ofB.status).toBe(200)
    const link = await pairedLink(call, a, ofA.clientId!)
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    const requestId = link.body.requestIds[0]
    // B's client ID does not reach A's link or its request
    const byB = { 'x-client-id': ofB.clientId! }
    expect((await call('GET', `/v2/secure-payments/${link.body.token}`, byB)).status).toBe(401)
    expect((await call('GET', `/v2/request/${requestId}`, byB)).status).toBe(404)
    // A's own client ID does
    const byA = { 'x-client-id': ofA.clientId! }
    expect((await call('GET', `/v2/request/${requestId}`, byA)).status).toBe(200)
    // neither orchestrator lists the other's client ID
    const listA = await call('GET', '/v2/orchestrators/client-ids', { 'x-orchestrator-key': a })
    expect(listA.body.links).toEqual([{ clientId: ofA.clientId, status: 'active' }])
    // and a platform tenant's name is never an API key
    const named = await call('GET', '/v2/client-ids', { 'x-api-key': `platform:${shared}` })
    expect(named.status).toBe(401)
  })
})

describe('what an orchestrator stores besides worlds is bounded (--max-link-intents)', () => {
  it('holds at most that many open link intents; expired ones make room', async () => {
    const call = caller(await start({ maxLinkIntents: 2 }))
    const orchestrator = orcKey()
    const intent = () =>
      call(
        'POST',
        '/v2/orchestrators/client-id-link-intents',
        { 'x-orchestrator-key': orchestrator },
        { clientIdName: 'Shop' },
      )
    const first = await intent()
    expect(first.status).toBe(201)
    expect((await intent()).status).toBe(201)
    const third = await intent()
    expect(third.status).toBe(429)
    expect(third.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(third.body.message).toContain('--max-link-intents')
    // two days later on the key's clock both expired: they make room, their pages are gone
    const advanced = await call(
      'POST',
      '/__sandbox/clock/advance',
      { 'x-api-key': orchestrator },
      { seconds: 2 * 86400 },
    )
    expect(advanced.status).toBe(200)
    expect((await intent()).status).toBe(201)
    const stale = new URL(first.body.url)
    expect((await call('GET', `${stale.pathname}${stale.search}`, {})).status).toBe(404)
  })

  it('gives one onboarded platform at most that many client IDs', async () => {
    const call = caller(await start({ maxLinkIntents: 2 }))
    const orchestrator = orcKey()
    const same = wallet()
    expect((await onboard(call, orchestrator, same)).status).toBe(200)
    expect((await onboard(call, orchestrator, same)).status).toBe(200)
    const third = await onboard(call, orchestrator, same)
    expect(third.status).toBe(429)
    expect(third.page).toContain('--max-link-intents')
    // another wallet is another platform
    expect((await onboard(call, orchestrator, wallet())).status).toBe(200)
  })
})

describe('the command line', () => {
  it('--max-onboarded-platforms and --max-link-intents reach the sandbox', async () => {
    const cli = await startCliSandbox([
      '--no-chain',
      '--max-onboarded-platforms',
      '1',
      '--max-link-intents',
      '1',
    ])
    try {
      const call: ReturnType<typeof caller> = async (method, path, headers, body) => {
        const form = typeof body === 'string'
        const res = await fetch(`${cli.url}${path}`, {
          method,
          headers: {
            ...headers,
            ...(body === undefined
              ? {}
              : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
          },
          ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
        })
        const text = await res.text()
        return {
          status: res.status,
          body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
        }
      }
      const orchestrator = orcKey()
      expect((await onboard(call, orchestrator, wallet())).status).toBe(200)
      const second = await onboard(call, orchestrator, wallet())
      expect(second.status).toBe(429)
      expect(second.page).toContain('limit of onboarded platform wallets (1, --max-onboarded-platforms)')
      expect(second.page).toContain('--max-onboarded-platforms')
      // the intent the refused form left open fills --max-link-intents 1
      const more = await call(
        'POST',
        '/v2/orchestrators/client-id-link-intents',
        { 'x-orchestrator-key': orchestrator },
        { clientIdName: 'Shop' },
      )
      expect(more.status).toBe(429)
      expect(more.body.message).toContain('--max-link-intents')
    } finally {
      await cli.stop()
    }
  })
})
