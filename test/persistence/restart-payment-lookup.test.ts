// After a --state-dir restart the saved worlds come back in the background, one key at a time between calls, so a
// restart with many keys serves at once (ARCHITECTURE.md, state dir). A payment lookup in that time reads only
// what it needs: one world's references (the dashboard's transaction view) read that world, and matching a payment
// against every key (the detector, the escrow watcher) waits for the background instead of bringing every saved
// world back synchronously, in one turn of the event loop.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it } from 'vitest'
import { PaymentReferenceIndex } from '../../src/resources/requests/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { newApiKey } from '../support/clients.ts'

const dirs: string[] = []
let sandbox: Sandbox | null = null
afterEach(async () => {
  await sandbox?.close()
  sandbox = null
})
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function createRequest(apiKey: string) {
  const res = await sandbox!.dispatch({
    method: 'POST',
    path: '/v2/request',
    query: {},
    headers: { 'content-type': 'application/json', host: '127.0.0.1:8080', 'x-api-key': apiKey },
    rawBody: JSON.stringify({
      amount: '5',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    }),
  })
  expect(res.status).toBe(201)
  return res.body as { requestId: string; paymentReference: string }
}

const KEYS = 300

it('the first payment lookups after a restart bring no saved world back at once; the matching finds every key once they are back', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'lookup-restart-'))
  dirs.push(stateDir)
  const options = { chain: false as const, stateDir, log: () => {} }
  sandbox = await createSandbox(options)
  const keys = Array.from({ length: KEYS }, () => newApiKey())
  const created = []
  for (const key of keys) created.push(await createRequest(key))
  await sandbox.close()

  sandbox = await createSandbox(options)
  const index = sandbox.shared.paymentReferences
  const hashes = created.map((c) => PaymentReferenceIndex.hashOf(c.paymentReference))
  // the background has not brought every key back yet (it yields between keys)
  const before = sandbox.shared.tenants.size
  expect(before).toBeLessThan(KEYS)
  // matching against every key: the lookup itself brings no world back
  expect(index.has(hashes[KEYS - 1]!)).toBe(false)
  expect(index.size).toBeLessThanOrEqual(before)
  expect(sandbox.shared.tenants.size).toBe(before)
  // a key's own world (its call brings it back): its reference is found without any other world
  const own = sandbox.shared.tenants.get(keys[KEYS - 1]!)
  expect(index.lookupIn(hashes[KEYS - 1]!, own)?.requestId).toBe(created[KEYS - 1]!.requestId)
  expect(sandbox.shared.tenants.size).toBeLessThanOrEqual(before + 1)
  // once the background is done, every key's request is matched
  await index.complete()
  expect(sandbox.shared.tenants.size).toBe(KEYS)
  const live = new Set(sandbox.shared.tenants.all())
  for (const [i, hash] of hashes.entries())
    expect(index.lookup(hash, live)[0]?.requestId).toBe(created[i]!.requestId)
})
