// POST /__sandbox/reset drops every world of the caller's key, those waiting on disk past --max-worlds included
// (--state-dir): the directory's indexes into them go too. A link's token of a world that waited on disk while its
// key was reset named that world still: the public page brought an empty world of the key back into memory (one more
// world for a stranger holding an old link), and the entry stayed in the index and in state.db for good.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it, vi } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const dirs: string[] = []
let sandbox: Sandbox | null = null
afterEach(async () => {
  vi.restoreAllMocks()
  await sandbox?.close()
  sandbox = null
})
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function call(method: string, path: string, apiKey: string | null, body?: unknown) {
  const res = await sandbox!.dispatch({
    method,
    path,
    query: {},
    headers: {
      'content-type': 'application/json',
      host: '127.0.0.1:8080',
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    },
    rawBody: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: res.body as Loose }
}

const link = (amount: string) => ({
  requests: [{ payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7', currency: 'FAU-sepolia', amount }],
})

it("a reset forgets the tokens of its key's worlds waiting on disk: the old link is 404 and brings no world back", async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'reset-evicted-'))
  dirs.push(stateDir)
  const options = { chain: false as const, stateDir, maxWorlds: 2, log: () => {} }
  sandbox = await createSandbox(options)
  const owner = newApiKey()
  const created = await call('POST', '/v2/secure-payments', owner, link('1'))
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const token = created.body.token as string
  // two other keys push the owner's world out of memory (it waits on disk)
  for (const amount of ['2', '3'])
    expect((await call('POST', '/v2/secure-payments', newApiKey(), link(amount))).status).toBe(201)
  const tenant = sandbox.shared.directory.securePaymentTokenToWorld.get(token)!.tenant
  expect(sandbox.shared.tenants.peek(tenant)).toBeUndefined()

  expect((await call('POST', '/__sandbox/reset', owner)).status).toBe(200)
  expect(sandbox.shared.directory.securePaymentTokenToWorld.has(token)).toBe(false)
  const get = vi.spyOn(sandbox.shared.tenants, 'get')
  expect((await call('GET', `/__sandbox/secure-payments/${token}`, null)).status).toBe(404)
  expect(get).not.toHaveBeenCalled()
  expect(sandbox.shared.tenants.peek(tenant)).toBeUndefined()

  // nor does it come back with the saved state
  await sandbox.close()
  sandbox = await createSandbox(options)
  expect(sandbox.shared.directory.securePaymentTokenToWorld.has(token)).toBe(false)
  expect((await call('GET', `/__sandbox/secure-payments/${token}`, null)).status).toBe(404)
})
