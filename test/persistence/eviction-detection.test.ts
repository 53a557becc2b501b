// Eviction never loses detection, nor what a key was answered: with --state-dir a payment mined for a world evicted
// past --max-worlds brings it back and is recorded; without a state dir no world is evicted (a new one past the cap
// is refused with 507 naming the flags), so a key's requests and client IDs stay.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { execute, freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const dirs: string[] = []
const sandboxes: Sandbox[] = []
afterAll(async () => {
  for (const sandbox of sandboxes) await sandbox.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  apiKey: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await sandbox.dispatch({
    method,
    path,
    query: {},
    headers: {
      'content-type': 'application/json',
      host: '127.0.0.1:8080',
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      ...headers,
    },
    rawBody: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: res.body as Loose }
}

const MAX_WORLDS = 3

const request = () => ({
  amount: '5',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: freshAddress(),
})

/** Key A's request and client ID, A's world pushed out by other keys (as far as the sandbox lets them), A's payment mined. */
async function payWhileOthersCome(sandbox: Sandbox) {
  const a = newApiKey()
  const created = await call(sandbox, 'POST', '/v2/request', a, request())
  expect(created.status).toBe(201)
  const client = await call(sandbox, 'POST', '/v2/client-ids', a, {
    label: 'shop',
    allowedDomains: ['https://shop.example'],
  })
  expect(client.status).toBe(201)
  const pay = await call(sandbox, 'GET', `/v2/request/${created.body.requestId}/pay`, a)
  expect(pay.status).toBe(200)
  const others = []
  for (let i = 0; i < MAX_WORLDS + 1; i++)
    others.push((await call(sandbox, 'POST', '/v2/request', newApiKey(), request())).status)
  const evicted = sandbox.shared.tenants.peek(a) === undefined
  await execute(sandbox, pay.body.transactions, 1)
  // the detector has scanned the payment's block before anyone reads key A again
  await sandbox.detectors.get('sepolia')!.sync()
  return {
    a,
    requestId: created.body.requestId as string,
    clientId: client.body.clientId as string,
    others,
    evicted,
  }
}

describe('eviction past --max-worlds', () => {
  it('with --state-dir: a payment mined while the world is on disk is recorded (the world comes back for it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-evict-'))
    dirs.push(dir)
    const sandbox = await createSandbox({ stateDir: dir, maxWorlds: MAX_WORLDS, log: () => {} })
    sandboxes.push(sandbox)
    const { a, requestId, clientId, others, evicted } = await payWhileOthersCome(sandbox)
    expect(others.every((s) => s === 201)).toBe(true)
    expect(evicted).toBe(true)
    // the payment brought the world back to be recorded, before anyone called with its key
    expect(sandbox.shared.tenants.peek(a)).toBeDefined()
    const read = await call(sandbox, 'GET', `/v2/request/${requestId}`, a)
    expect(read.status).toBe(200)
    expect(read.body.hasBeenPaid).toBe(true)
    const byClient = await call(sandbox, 'GET', '/v2/currencies', null, undefined, {
      'x-client-id': clientId,
      origin: 'https://shop.example',
    })
    expect(byClient.status).toBe(200)
  })

  it('without --state-dir: no world is evicted, a new one past the cap answers 507 naming the flags; the payment is recorded', async () => {
    const sandbox = await createSandbox({ maxWorlds: MAX_WORLDS, log: () => {} })
    sandboxes.push(sandbox)
    const { a, requestId, clientId, others, evicted } = await payWhileOthersCome(sandbox)
    expect(evicted).toBe(false)
    // A and two other keys fill the three worlds; the next keys are refused, nothing is dropped for them
    expect(others).toEqual([201, 201, 507, 507])
    const refused = await call(sandbox, 'POST', '/v2/request', newApiKey(), request())
    expect(refused.body).toMatchObject({ statusCode: 507, error: 'Insufficient Storage' })
    expect(refused.body.message).toMatch(/--max-worlds.*--state-dir/)
    const read = await call(sandbox, 'GET', `/v2/request/${requestId}`, a)
    expect(read.status).toBe(200)
    expect(read.body.hasBeenPaid).toBe(true)
    const byClient = await call(sandbox, 'GET', '/v2/currencies', null, undefined, {
      'x-client-id': clientId,
      origin: 'https://shop.example',
    })
    expect(byClient.status).toBe(200)
  })

  it("with --state-dir: a secure payment link's public page answers while its world is on disk (its token brings it back)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-evict-'))
    dirs.push(dir)
    const sandbox = await createSandbox({ stateDir: dir, maxWorlds: MAX_WORLDS, chain: false, log: () => {} })
    sandboxes.push(sandbox)
    const a = newApiKey()
    const link = await call(sandbox, 'POST', '/v2/secure-payments', a, { requests: [request()] })
    expect(link.status).toBe(201)
    const payout = () =>
      call(sandbox, 'POST', '/v2/secure-payments/payouts', a, {
        recipient: freshAddress(),
        creatorWalletAddress: freshAddress(),
        network: 'sepolia',
        currency: 'FAU-sepolia',
        amount: '4',
      })
    const payouts = [await payout(), await payout()]
    const multicall = await call(sandbox, 'POST', '/v2/secure-payments/multicall-payouts', a, {
      childTokens: payouts.map((p) => p.body.token),
    })
    expect(multicall.status).toBe(201)
    for (let i = 0; i < MAX_WORLDS + 1; i++)
      expect(
        (await call(sandbox, 'POST', '/v2/client-ids', newApiKey(), { label: 'x', allowedDomains: [] }))
          .status,
      ).toBe(201)
    expect(sandbox.shared.tenants.peek(a)).toBeUndefined()
    // the payer's page, by token alone: the world comes back for it
    const page = await call(sandbox, 'GET', `/__sandbox/secure-payments/${link.body.token}`, null)
    expect(page.status).toBe(200)
    expect(sandbox.shared.tenants.peek(a)).toBeDefined()
    for (let i = 0; i < MAX_WORLDS + 1; i++)
      await call(sandbox, 'POST', '/v2/client-ids', newApiKey(), { label: 'x', allowedDomains: [] })
    expect(sandbox.shared.tenants.peek(a)).toBeUndefined()
    const batch = await call(sandbox, 'GET', `/__sandbox/secure-payments/${multicall.body.token}`, null)
    expect(batch.status).toBe(200)
  })
})
