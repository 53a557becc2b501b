// POST /__sandbox/reset drops every world of the caller's key, those waiting on disk past --max-worlds included
// (--state-dir): the directory's indexes into them go too. A link's token of a world that waited on disk while its
// key was reset named that world still: the public page brought an empty world of the key back into memory (one more
// world for a stranger holding an old link), and the entry stayed in the index and in state.db for good.
import { expect, it, vi } from 'vitest'
import { newApiKey } from '../support/clients.ts'
import { useTestSandbox } from '../support/test-sandbox.ts'

const { tempDir, start, restart, call } = useTestSandbox()

const link = (amount: string) => ({
  requests: [{ payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7', currency: 'FAU-sepolia', amount }],
})

it("a reset forgets the tokens of its key's worlds waiting on disk: the old link is 404 and brings no world back", async () => {
  let sandbox = await start({ stateDir: tempDir('reset-evicted-'), maxWorlds: 2 })
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
  sandbox = await restart()
  expect(sandbox.shared.directory.securePaymentTokenToWorld.has(token)).toBe(false)
  expect((await call('GET', `/__sandbox/secure-payments/${token}`, null)).status).toBe(404)
})
