// After a --state-dir restart the background brings back only the worlds --max-worlds keeps in memory, the most
// recently used keys (by their journal) first; a key past the cap waits on disk as an evicted one does: its first call
// brings back its requests, journal and webhook delivery records, and a payment to one of its requests is still
// matched (its reference indexed from the file), through its own conversion stack too.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it, vi } from 'vitest'
import { StateDir } from '../../src/persistence/index.ts'
import { PaymentReferenceIndex } from '../../src/resources/requests/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { dispatchAs } from '../support/dispatch.ts'
import type { Loose } from '../support/loose.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-revival-cap-'))
const chainDir = mkdtempSync(join(tmpdir(), 'sandbox-revival-cap-chain-'))
let sandbox: Sandbox | null = null
afterEach(async () => {
  vi.restoreAllMocks()
  // each test closes what it opened last: the next one starts its own
  await sandbox?.close()
  sandbox = null
})
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
  rmSync(chainDir, { recursive: true, force: true })
})

const call = dispatchAs(() => sandbox!)

const KEYS = 6
const CAP = 2

it('brings back at most --max-worlds worlds in the background, the most recently used; a key past it gets all its records on its first call', async () => {
  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  const keys = Array.from({ length: KEYS }, () => newApiKey())
  const made: { requestId: string; paymentReference: string }[] = []
  for (const key of keys) {
    const created = await call('POST', '/v2/request', key, {
      amount: '3',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: freshAddress(),
    })
    expect(created.status).toBe(201)
    made.push(created.body)
    expect((await call('POST', '/v2/webhook', key, { url: 'http://127.0.0.1:9/hook' })).status).toBe(201)
    expect((await call('POST', '/v2/webhook/test', key, { eventType: 'payment.confirmed' })).status).toBe(201)
  }
  await until(
    async () => keys.map((key) => sandbox!.shared.webhooks.deliveries(key)),
    (lists) => lists.every((list) => list.length === 1 && list[0]!.attempts.length > 0),
  )
  // keys 1 and 3 are the last to call: the most recently used (their journal flushed after the others')
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect((await call('GET', `/v2/request/${made[3]!.requestId}`, keys[3]!)).status).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 5))
  expect((await call('GET', `/v2/request/${made[1]!.requestId}`, keys[1]!)).status).toBe(200)
  await sandbox.close()

  const revive = vi.spyOn(StateDir.prototype, 'revive')
  sandbox = await createSandbox({ stateDir: dir, chain: false, maxWorlds: CAP, log: () => {} })
  const index = sandbox.shared.paymentReferences
  await index.complete()
  const revived = revive.mock.results.filter((r) => r.value === true).length
  expect(revived).toBeLessThanOrEqual(CAP)
  expect(revived).toBe(CAP)
  expect(sandbox.shared.tenants.peek(keys[1]!)).toBeDefined()
  expect(sandbox.shared.tenants.peek(keys[3]!)).toBeDefined()
  for (const i of [0, 2, 4, 5]) {
    expect(sandbox.shared.tenants.peek(keys[i]!)).toBeUndefined()
    // the payment detector still knows the requests of the keys on disk
    expect(index.has(PaymentReferenceIndex.hashOf(made[i]!.paymentReference))).toBe(true)
  }

  // a key on disk with a retry under way gets it back once the background is done, its world still on disk: the
  // retries go on from the start
  const { value: waiting } = await until(
    async () => sandbox!.shared.webhooks.deliveries(keys[4]!),
    (list) => list.length === 1,
  )
  expect(waiting[0]!.state).toBe('pending')
  expect(sandbox.shared.tenants.peek(keys[4]!)).toBeUndefined()
  expect(sandbox.shared.journal.count(keys[4]!)).toBeGreaterThan(0)

  // a payment to a key on disk brings its world back, its key's records with it
  const live = new Set(sandbox.shared.tenants.all())
  const paid = index.lookup(PaymentReferenceIndex.hashOf(made[0]!.paymentReference), live, { revive: true })
  expect(paid.map((e) => [e.world.tenant, e.requestId])).toEqual([[keys[0], made[0]!.requestId]])
  expect(sandbox.shared.webhooks.deliveries(keys[0]!)).toHaveLength(1)
  expect(sandbox.shared.journal.count(keys[0]!)).toBeGreaterThan(0)

  // a key past the cap, on its first call: its request, journal and delivery records
  const key = keys[2]!
  expect((await call('GET', `/v2/request/${made[2]!.requestId}`, key)).body.paymentReference).toBe(
    made[2]!.paymentReference,
  )
  const journal = (await call('GET', '/__sandbox/journal', key)).body.entries as Loose[]
  expect(
    journal.some(
      (e) => e.type === 'call' && e.method === 'POST' && e.responseBody?.requestId === made[2]!.requestId,
    ),
  ).toBe(true)
  const deliveries = await call('GET', '/__sandbox/webhooks/deliveries', key)
  expect(deliveries.status).toBe(200)
  expect(deliveries.body).toHaveLength(1)
})

it('records a payment through the own conversion stack of a key past the cap before the key calls again', async () => {
  sandbox = await createSandbox({ stateDir: chainDir, log: () => {} })
  const apiKey = newApiKey()
  const set = await call('POST', '/__sandbox/rates', apiKey, {
    rates: [{ from: 'ETH-sepolia-sepolia', to: 'USD', rate: '3000' }],
  })
  expect(set.status).toBe(200)
  const request = (
    await call('POST', '/v2/request', apiKey, {
      amount: '30',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
      payee: freshAddress(),
    })
  ).body
  // the transactions are built before the restart (through the key's own stack) and sent after it
  const pay = (await call('GET', `/v2/request/${request.requestId}/pay`, apiKey)).body
  expect(pay.transactions[0].to).not.toBe(sandbox.chain!.contracts.EthConversionProxy)
  // another key is the last to call: the one the cap keeps
  await new Promise((resolve) => setTimeout(resolve, 300))
  const other = newApiKey()
  expect((await call('GET', '/v2/request', other)).status).toBe(200)
  await sandbox.close()

  sandbox = await createSandbox({ stateDir: chainDir, maxWorlds: 1, log: () => {} })
  await sandbox.shared.paymentReferences.complete()
  expect(sandbox.shared.tenants.peek(apiKey)).toBeUndefined()
  await execute(sandbox, pay.transactions, 3)
  // the detector reads the key's own proxy and brings its world back to record the payment
  await sandbox.detectors.get('sepolia')!.sync()
  expect(sandbox.shared.tenants.peek(apiKey)).toBeDefined()
  expect((await call('GET', `/v2/request/${request.requestId}`, apiKey)).body.hasBeenPaid).toBe(true)
})

it('orders the keys by when they last called, not by their clocks: a key that moved its clock ahead does not come first', async () => {
  const own = mkdtempSync(join(tmpdir(), 'sandbox-revival-order-'))
  let first: Sandbox | null = null
  let second: Sandbox | null = null
  try {
    first = await createSandbox({ stateDir: own, chain: false, log: () => {} })
    const ahead = newApiKey()
    const last = newApiKey()
    const at = (s: Sandbox, key: string, method: string, path: string, body?: unknown) =>
      s.dispatch({
        method,
        path,
        query: {},
        headers: { 'content-type': 'application/json', host: '127.0.0.1:8080', 'x-api-key': key },
        rawBody: body === undefined ? undefined : JSON.stringify(body),
      })
    // a key moves its clock a year ahead: its journal's entries are stamped with its clock's time
    expect(
      (await at(first, ahead, 'POST', '/__sandbox/clock/advance', { seconds: 365 * 86_400 })).status,
    ).toBe(200)
    expect((await at(first, ahead, 'GET', '/v2/request')).status).toBe(200)
    // another key calls after it (a later flush of the journal)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await at(first, last, 'GET', '/v2/request')).status).toBe(200)
    await first.close()
    first = null

    second = await createSandbox({ stateDir: own, chain: false, maxWorlds: 1, log: () => {} })
    await second.shared.paymentReferences.complete()
    expect(second.shared.tenants.peek(last)).toBeDefined()
    expect(second.shared.tenants.peek(ahead)).toBeUndefined()
  } finally {
    await first?.close()
    await second?.close()
    rmSync(own, { recursive: true, force: true })
  }
})
