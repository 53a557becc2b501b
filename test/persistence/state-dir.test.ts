// --state-dir: a sandbox stopped and started again on the same folder has the same keys' requests (paid ones paid),
// clocks, scenario choices, webhooks, client IDs and sessions, and its chain's state (balances, contracts).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PaymentReferenceIndex, requestState } from '../../src/resources/requests/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { payerBody, usBankDetails } from '../support/compliance.ts'
import type { Loose } from '../support/loose.ts'
import { openState } from '../support/state-db.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'))
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Closes the running sandbox (if any) and starts one on `stateDir`, without a chain (a restart when it was there). */
async function start(stateDir: string): Promise<Sandbox> {
  await sandbox?.close()
  sandbox = null
  return createSandbox({ stateDir, chain: false, log: () => {} })
}

/** Closes the sandbox and removes its `stateDir`. */
async function stop(stateDir: string): Promise<void> {
  await sandbox?.close()
  sandbox = null
  rmSync(stateDir, { recursive: true, force: true })
}

const json = { 'content-type': 'application/json', host: '127.0.0.1:8080' }
async function call(
  method: string,
  path: string,
  apiKey: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await sandbox!.dispatch({
    method,
    path,
    query: {},
    headers: { ...json, 'x-api-key': apiKey, ...headers },
    rawBody: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: res.body as Loose }
}

describe('--state-dir', () => {
  it('restores requests (paid stays paid), clocks, scenario choice, webhooks, client IDs, sessions and the chain', async () => {
    sandbox = await createSandbox({ stateDir: dir, log: () => {} })
    const apiKey = newApiKey()
    const payee = freshAddress()
    const created = await call('POST', '/v2/request', apiKey, {
      amount: '4',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
    })
    const { requestId } = created.body
    const pay = await call('GET', `/v2/request/${requestId}/pay`, apiKey)
    await execute(sandbox, pay.body.transactions, 1)
    await until(
      () => call('GET', `/v2/request/${requestId}`, apiKey),
      (r) => r.body.hasBeenPaid,
    )
    const pending = await call('POST', '/v2/request', apiKey, {
      amount: '9',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
    })
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 86_400 })
    const clockBefore = (await call('GET', '/__sandbox/clock', apiKey)).body
    // a webhook nobody answers (a closed port): its delivery is still pending when the sandbox stops
    const hook = await call('POST', '/v2/webhook', apiKey, { url: 'http://127.0.0.1:9/hook' })
    await call('POST', '/v2/webhook/test', apiKey, { eventType: 'payment.confirmed' })
    const client = await call('POST', '/v2/client-ids', apiKey, { label: 'shop', allowedDomains: [] })
    const session = await call('POST', '/__sandbox/sessions', apiKey, {})
    const other = newApiKey()
    await call('PUT', '/__sandbox/scenario', other, { scenario: 'insufficient-funds' })
    const seeded = (await call('GET', '/__sandbox/scenario', other)).body
    const balance = await sandbox.chain!.balanceOf(sandbox.chain!.tokens['FAU-sepolia']!, payee)
    expect(balance).toBeGreaterThan(0n)
    // written as it happens: committed before the answer left, without waiting for a close
    const db = openState(dir)
    const saved = db
      .prepare("SELECT count(*) AS n FROM records WHERE tbl = 'requests.requests' AND key = ?")
      .get(pending.body.requestId) as { n: number }
    const sessionRow = db
      .prepare("SELECT count(*) AS n FROM shared WHERE kind = 'directory.sessions' AND key = ?")
      .get(session.body.token) as { n: number }
    db.close()
    expect([saved.n, sessionRow.n]).toEqual([1, 1])
    await sandbox.close() // the chain's last state
    sandbox = null
    expect(readdirSync(dir)).toContain('state.db')

    sandbox = await createSandbox({ stateDir: dir, log: () => {} })
    const paid = await call('GET', `/v2/request/${requestId}`, apiKey)
    expect(paid.body).toMatchObject({ hasBeenPaid: true, status: 'paid' })
    // the detector reads the restored chain again: the payment still counts once
    await sandbox.detectors.get('sepolia')!.sync()
    expect((await call('GET', `/v2/request/${requestId}`, apiKey)).body.payments).toHaveLength(1)
    expect((await call('GET', `/v2/request/${pending.body.requestId}`, apiKey)).body.hasBeenPaid).toBe(false)
    const clockAfter = (await call('GET', '/__sandbox/clock', apiKey)).body
    expect(Date.parse(clockAfter.now)).toBeGreaterThanOrEqual(Date.parse(clockBefore.now))
    expect(Date.parse(clockAfter.now) - Date.now()).toBeGreaterThan(86_000_000)
    expect((await call('GET', '/v2/webhook', apiKey)).body).toEqual([
      expect.objectContaining({ id: hook.body.id }),
    ])
    // the journal is back, bodies included
    const journal = (await call('GET', '/__sandbox/journal', apiKey)).body.entries as {
      type: string
      path?: string
      responseBody?: { requestId?: string }
    }[]
    expect(
      journal.some(
        (e) => e.type === 'call' && e.path === '/v2/request' && e.responseBody?.requestId === requestId,
      ),
    ).toBe(true)
    // the delivery is back, and its retries went on (one more attempt after the restart)
    const [delivery] = sandbox.shared.webhooks.deliveries(apiKey)
    expect(delivery).toMatchObject({ webhookId: hook.body.id, test: true, state: 'pending' })
    const attemptsAtRestart = delivery!.attempts.length
    await until(
      async () => delivery!.attempts.length,
      (n) => n > attemptsAtRestart,
    )
    const used = await call('GET', '/v2/currencies', '', undefined, { 'x-client-id': client.body.clientId })
    expect(used.status).toBe(200)
    const bySession = await call('GET', '/v2/client-ids', '', undefined, {
      authorization: `Bearer ${session.body.token}`,
    })
    expect(bySession.status).toBe(200)
    const scenario = (await call('GET', '/__sandbox/scenario', other)).body
    expect(scenario).toMatchObject({ scenario: 'insufficient-funds', ids: seeded.ids })
    expect(await sandbox.chain!.balanceOf(sandbox.chain!.tokens['FAU-sepolia']!, payee)).toBe(balance)
    // the restored pending request is paid on the restored chain and detected
    const next = await call('GET', `/v2/request/${pending.body.requestId}/pay`, apiKey)
    await execute(sandbox, next.body.transactions, 1)
    await until(
      () => call('GET', `/v2/request/${pending.body.requestId}`, apiKey),
      (r) => r.body.hasBeenPaid,
    )
  })

  it('keeps worlds evicted past --max-worlds on disk and brings them back on use; a reset forgets them', async () => {
    await sandbox?.close()
    const evictDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'))
    sandbox = await createSandbox({ stateDir: evictDir, chain: false, maxWorlds: 3, log: () => {} })
    const apiKey = newApiKey()
    const body = {
      amount: '5',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: freshAddress(),
    }
    const created = await call('POST', '/v2/request', apiKey, body)
    const client = await call('POST', '/v2/client-ids', apiKey, { label: 'shop', allowedDomains: [] })
    const recurring = await call('POST', '/v2/request', apiKey, {
      amount: '10',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
      payee: freshAddress(),
      recurrence: { startDate: new Date().toISOString().slice(0, 10), frequency: 'DAILY' },
    })
    expect(recurring.status).toBe(201)
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 3600 })
    // a bank detail whose review (3 s on the key's clock) is pending while the world is on disk
    expect((await call('POST', '/v2/payer', apiKey, payerBody())).status).toBe(200)
    const detail = await call(
      'POST',
      '/v2/payer/john.doe%40example.com/payment-details',
      apiKey,
      usBankDetails,
    )
    expect(detail.status).toBe(201)
    for (let i = 0; i < 3; i++) await call('GET', '/v2/payments', newApiKey())
    expect(sandbox.shared.tenants.peek(apiKey)).toBeUndefined()
    // the evicted world waits in the database
    const db = openState(evictDir)
    expect(
      (db.prepare('SELECT count(*) AS n FROM worlds WHERE tenant = ?').get(apiKey) as { n: number }).n,
    ).toBe(1)
    db.close()

    // a client ID of the evicted world brings it back, then its requests and clock are there
    const byClient = await call('GET', '/v2/currencies', '', undefined, {
      'x-client-id': client.body.clientId,
    })
    expect(byClient.status).toBe(200)
    const back = await call('GET', `/v2/request/${created.body.requestId}`, apiKey)
    expect(back.status).toBe(200)
    expect(back.body.paymentReference).toBe(created.body.paymentReference)
    const clock = (await call('GET', '/__sandbox/clock', apiKey)).body
    expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(3_500_000)
    // the review goes on too: once the clock passes it, the detail is approved
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 5 })
    const details = await call('GET', '/v2/payer/john.doe%40example.com/payment-details', apiKey)
    expect(JSON.stringify(details.body)).toContain('approved')
    // the recurring schedule goes on on the clock: a day later its first child exists
    const world = sandbox.shared.tenants.peek(apiKey)!
    await until(
      async () => world.clock.pending().map((p) => p.label),
      (labels) => labels.some((l) => l.startsWith(`recurring request ${recurring.body.requestId}`)),
    )
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 86_400 })
    const children = requestState(world)
      .requests.all()
      .filter((r) => r.originalRequestId === recurring.body.requestId)
    expect(children.length).toBeGreaterThanOrEqual(1)

    for (let i = 0; i < 3; i++) await call('GET', '/v2/payments', newApiKey())
    expect(sandbox.shared.tenants.peek(apiKey)).toBeUndefined()
    await call('POST', '/__sandbox/reset', apiKey)
    expect((await call('GET', `/v2/request/${created.body.requestId}`, apiKey)).status).toBe(404)
    await stop(evictDir)
  })

  it('starts before its worlds are back; a call or a read of every world brings them back first, payment matching waits for them', async () => {
    const lazyDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'))
    sandbox = await start(lazyDir)
    const keys = [newApiKey(), newApiKey(), newApiKey()]
    const created: { requestId: string; paymentReference: string }[] = []
    for (const key of keys) {
      const res = await call('POST', '/v2/request', key, {
        amount: '5',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: freshAddress(),
      })
      created.push(res.body)
    }
    await call('POST', '/__sandbox/reset', keys[2]!)
    sandbox = await start(lazyDir)
    // right after the start (nothing awaited): every saved world is there when all of them are read
    const tenants = [...sandbox.shared.tenants.all()].map((w) => w.tenant)
    expect(tenants).toEqual(expect.arrayContaining(keys.slice(0, 2)))
    expect(tenants).not.toContain(keys[2])
    sandbox = await start(lazyDir)
    // and when payments are matched (the detector and the escrow watcher wait for the index to be complete): every
    // request's reference is in the index (the reset key's is not)
    await sandbox.shared.paymentReferences.complete()
    const hash = (ref: string) => PaymentReferenceIndex.hashOf(ref)
    expect(sandbox.shared.paymentReferences.has(hash(created[0]!.paymentReference))).toBe(true)
    expect(sandbox.shared.paymentReferences.has(hash(created[1]!.paymentReference))).toBe(true)
    expect(sandbox.shared.paymentReferences.has(hash(created[2]!.paymentReference))).toBe(false)
    sandbox = await start(lazyDir)
    // and a key's own call answers from its world
    expect((await call('GET', `/v2/request/${created[1]!.requestId}`, keys[1]!)).status).toBe(200)
    expect((await call('GET', `/v2/request/${created[2]!.requestId}`, keys[2]!)).status).toBe(404)
    await stop(lazyDir)
  })

  it("lists a key's webhook deliveries on its first call after a restart, before every world is back", async () => {
    const hooksDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'))
    sandbox = await start(hooksDir)
    const apiKey = newApiKey()
    expect((await call('POST', '/v2/webhook', apiKey, { url: 'http://127.0.0.1:9/hook' })).status).toBe(201)
    expect(
      (await call('POST', '/v2/webhook/test', apiKey, { eventType: 'payment.confirmed' })).status,
    ).toBeLessThan(300)
    await until(
      async () => sandbox!.shared.webhooks.deliveries(apiKey),
      (list) => list.length === 1 && list[0]!.attempts.length > 0,
    )
    sandbox = await start(hooksDir)
    // the key's first call, right after the start: its worlds come back with it, and so do its deliveries
    const listed = await call('GET', '/__sandbox/webhooks/deliveries', apiKey)
    expect(listed.status).toBe(200)
    expect(listed.body).toHaveLength(1)
    await stop(hooksDir)
  })

  it('arms no timer in a world a reset dropped while its timers were resuming after the restart', async () => {
    const resetDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'))
    sandbox = await start(resetDir)
    const apiKey = newApiKey()
    const recurring = await call('POST', '/v2/request', apiKey, {
      amount: '10',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
      payee: freshAddress(),
      recurrence: { startDate: new Date().toISOString().slice(0, 10), frequency: 'DAILY' },
    })
    expect(recurring.status).toBe(201)
    sandbox = await start(resetDir)
    // the key's world comes back (its recurring schedule resumes after), and the key is reset at once
    const world = sandbox.shared.tenants.get(apiKey)
    sandbox.shared.tenants.reset(apiKey)
    await new Promise((resolve) => setTimeout(resolve, 100))
    // the dropped world's schedule would create children (and send their webhooks) for a key that was reset
    expect(world.clock.pending()).toEqual([])
    await stop(resetDir)
  })

  it('refuses a state dir of another format with a clear message', async () => {
    const other = mkdtempSync(join(tmpdir(), 'sandbox-state-'))
    writeFileSync(join(other, 'state.json'), JSON.stringify({ format: 99 }))
    await expect(createSandbox({ stateDir: other, chain: false })).rejects.toThrow(
      /holds state format 99; this version of request-sandbox reads format 1/,
    )
    rmSync(other, { recursive: true, force: true })
  })
})
