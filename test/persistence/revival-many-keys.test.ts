// --state-dir with more keys than --max-worlds: each key's world read back from state.db (its rows found through
// record_worlds' index) has every object it had, whether it was evicted or the sandbox restarted, and a reset of one
// key removes its rows only.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { dispatchAs } from '../support/dispatch.ts'
import { openState } from '../support/state-db.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-revival-'))
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Closes the running sandbox (if any) and starts one on the state dir holding two worlds in memory. */
async function restart(): Promise<void> {
  await sandbox?.close()
  sandbox = await createSandbox({ stateDir: dir, chain: false, maxWorlds: 2, log: () => {} })
}

const call = dispatchAs(() => sandbox!)

interface Made {
  key: string
  requests: { requestId: string; paymentReference: string }[]
  webhookId: string
  hours: number
  scenario: string
}

/** Every object `made` holds is what its key's calls answer now (its world read back first). */
async function expectBack(made: Made): Promise<void> {
  const { key } = made
  for (const { requestId, paymentReference } of made.requests) {
    const got = await call('GET', `/v2/request/${requestId}`, key)
    expect(got.status).toBe(200)
    expect(got.body.paymentReference).toBe(paymentReference)
  }
  expect((await call('GET', '/v2/webhook', key)).body).toEqual([
    expect.objectContaining({ id: made.webhookId }),
  ])
  const clock = (await call('GET', '/__sandbox/clock', key)).body
  expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(made.hours * 3_600_000 - 60_000)
  expect(Date.parse(clock.now) - Date.now()).toBeLessThan(made.hours * 3_600_000 + 600_000)
  expect((await call('GET', '/__sandbox/scenario', key)).body.scenario).toBe(made.scenario)
  const entries = (await call('GET', '/__sandbox/journal', key)).body.entries as {
    type: string
    method?: string
    path?: string
    responseBody?: { requestId?: string }
  }[]
  const created = entries
    .filter((e) => e.type === 'call' && e.method === 'POST' && e.path === '/v2/request')
    .map((e) => e.responseBody?.requestId)
  expect(created.sort()).toEqual(made.requests.map((r) => r.requestId).sort())
}

describe('--state-dir past --max-worlds', () => {
  it('brings back every object of each of many keys, after eviction and after a restart; a reset removes only its rows', async () => {
    await restart()
    const made: Made[] = Array.from({ length: 5 }, (_, i) => ({
      key: newApiKey(),
      requests: [],
      webhookId: '',
      hours: i + 1,
      scenario: i === 4 ? 'kyc-approved' : 'default',
    }))
    expect(
      (await call('PUT', '/__sandbox/scenario', made[4]!.key, { scenario: made[4]!.scenario })).status,
    ).toBe(200)
    // the keys' records interleaved in the file: each round creates one request of every key
    for (let round = 0; round < 3; round++)
      for (const m of made) {
        const created = await call('POST', '/v2/request', m.key, {
          amount: String(round + 1),
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee: freshAddress(),
        })
        expect(created.status).toBe(201)
        m.requests.push({
          requestId: created.body.requestId,
          paymentReference: created.body.paymentReference,
        })
      }
    for (const m of made) {
      const hook = await call('POST', '/v2/webhook', m.key, { url: 'http://127.0.0.1:9/hook' })
      expect(hook.status).toBe(201)
      m.webhookId = hook.body.id
      expect(
        (await call('POST', '/__sandbox/clock/advance', m.key, { seconds: m.hours * 3600 })).status,
      ).toBe(200)
    }
    expect(sandbox!.shared.tenants.size).toBe(2)
    // evicted and read back, one key after another (each evicting another)
    for (const m of made) await expectBack(m)
    await restart()
    for (const m of [...made].reverse()) await expectBack(m)

    // a reset deletes the rows of its key's worlds only
    const counts = () => {
      const db = openState(dir)
      try {
        return db
          .prepare(
            'SELECT w.tenant, count(*) AS n FROM record_worlds r JOIN worlds w ON w.id = r.world GROUP BY w.tenant',
          )
          .all() as { tenant: string; n: number }[]
      } finally {
        db.close()
      }
    }
    const before = counts()
    expect((await call('POST', '/__sandbox/reset', made[0]!.key)).status).toBe(200)
    await restart()
    expect(counts()).toEqual(before.filter((c) => c.tenant !== made[0]!.key))
    expect((await call('GET', `/v2/request/${made[0]!.requests[0]!.requestId}`, made[0]!.key)).status).toBe(
      404,
    )
    for (const m of made.slice(1)) await expectBack(m)
  })
})
