// Records can outlive their world's row in state.db (a key's reset deleted its world rows while a damaged page kept
// some of its records, left for a rebuild that never came): a world made later never takes their world's id, so no
// key reads another key's records after a restart (src/persistence/load.ts, readWorldIndex).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it } from 'vitest'
import { openStateDb } from '../../src/persistence/schema.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { dispatchAs } from '../support/dispatch.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-world-ids-'))
let sandbox: Sandbox | null = null
afterEach(async () => {
  await sandbox?.close()
  sandbox = null
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const call = dispatchAs(() => sandbox!)

const create = (apiKey: string) =>
  call('POST', '/v2/request', apiKey, {
    amount: '2',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    payee: freshAddress(),
  })

it('a new key never takes the id of a world whose records outlived its row, nor reads them', async () => {
  const [first, gone, next] = [newApiKey(), newApiKey(), newApiKey()]
  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  expect((await create(first)).status).toBe(201)
  const leftover = await create(gone)
  expect(leftover.status).toBe(201)
  await sandbox.close()
  sandbox = null

  // the last key's world row is gone, its records and their index on worlds stay
  const db = openStateDb(join(dir, 'state.db'))
  const { id } = db.prepare('SELECT id FROM worlds WHERE tenant = ?').get(gone) as { id: number }
  const max = db.prepare('SELECT max(id) AS n FROM worlds').get() as { n: number }
  expect(id).toBe(max.n)
  expect(
    (db.prepare('SELECT count(*) AS n FROM record_worlds WHERE world = ?').get(id) as { n: number }).n,
  ).toBeGreaterThan(0)
  db.prepare('DELETE FROM worlds WHERE tenant = ?').run(gone)
  db.close()

  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  expect((await create(next)).status).toBe(201)
  await sandbox.close()
  sandbox = null
  const check = openStateDb(join(dir, 'state.db'))
  const taken = check.prepare('SELECT id FROM worlds WHERE tenant = ?').all(next) as { id: number }[]
  check.close()
  expect(taken.map((w) => w.id)).not.toContain(id)

  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  expect((await call('GET', `/v2/request/${leftover.body.requestId}`, next)).status).toBe(404)
})
