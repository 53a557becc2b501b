// /rpc's admin methods (anvil_*, evm_*, ...) change the chain of every key: --rpc-admin lets the server's own keys call
// some, but a claimed key (--claimable) is a stranger's, refused all of them: with --rpc-admin 'evm_*' one claimed key
// would otherwise revert the chain under every key's payments.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({
    port: 0,
    exposed: true,
    log: () => {},
    apiKeys: ['sk_operator'],
    rpcAdmin: ['evm_*'],
    claimable: {},
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const rpc = async (key: string, method: string) => {
  const response = await fetch(`${server.url}/rpc`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  })
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the test reads it
  return { status: response.status, body: (await response.json()) as any }
}

it('refuses a claimed key the admin methods --rpc-admin allows the operator', async () => {
  const claimed = (await (await fetch(`${server.url}/__sandbox/sandboxes`, { method: 'POST' })).json()) as {
    key: string
  }
  const refused = await rpc(claimed.key, 'evm_snapshot')
  expect(refused.status).toBe(403)
  expect(refused.body.message).toMatch(
    /evm_snapshot changes the chain of every key: refused to the keys of claimable/,
  )
  // what wallets call stays open to it
  expect((await rpc(claimed.key, 'eth_blockNumber')).status).toBe(200)
  expect((await rpc('sk_operator', 'evm_snapshot')).status).toBe(200)
}, 60_000)
