// A claimed key that expires while one of its MCP sessions is being opened (after the probe admitted the key, before
// the session was registered): the expiry's `closeKey` finds no session yet, so the session, once registered, is
// closed there and then, its place among the claimed keys' MCP sessions given back.
import { createServer, type Server } from 'node:http'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, expect, it } from 'vitest'
import type { NeutralRequest } from '../../src/contract/neutral.ts'
import { withMcp } from '../../src/mcp/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { createRequestListener } from '../../src/transports/node-http.ts'
import { connect } from '../mcp/mcp-support.ts'

let sandbox: Sandbox | undefined
let server: Server | undefined
afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  await sandbox?.close()
})

it('closes a session whose claimed key expired while it was opened', async () => {
  sandbox = await createSandbox({ chain: false, log: () => {} })
  const real = sandbox
  const key = 'sk_sandbox_expiring'
  const expired = new Set<string>()
  let mcp: ReturnType<typeof withMcp> | undefined
  // the key's claim expires right after the session's probe call was admitted, as the minute's sweep may
  const target: Sandbox = Object.create(real, {
    dispatch: {
      value: async (request: NeutralRequest) => {
        const response = await real.dispatch(request)
        if (request.headers['x-api-key'] === key && !expired.has(key)) {
          expired.add(key)
          await mcp!.closeKey(key)
        }
        return response
      },
    },
  })
  mcp = withMcp(target, createRequestListener(target), {
    claimed: (k) => k.startsWith('sk_sandbox_'),
    expired: (k) => expired.has(k),
  })
  server = createServer(mcp.listener)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`)
  const agent = await connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': key } } }),
  ).catch(() => undefined)
  expect(expired.has(key)).toBe(true)
  // no session of the expired key is left holding a place
  expect(mcp.sessions(key)).toBe(0)
  expect(mcp.sessions()).toBe(0)
  await agent?.close().catch(() => {})
})
