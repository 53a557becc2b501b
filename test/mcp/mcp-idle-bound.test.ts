// An idle bound longer than a timer can hold (setTimeout's 2^31-1 ms, about 24.8 days) keeps sessions open for the
// longest a timer holds, instead of closing each one a moment after every call.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, chain: false, mcp: { idleMs: 30 * 86_400_000 } })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const post = (key: string, body: unknown, session?: string) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': key,
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  })

it('keeps a session open past a call when --mcp-idle is 30 days', async () => {
  const key = `mcp-idle-long-${Date.now()}`
  const opened = await post(key, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  })
  expect(opened.status).toBe(200)
  const session = opened.headers.get('mcp-session-id')!
  expect(session).toBeTruthy()
  await new Promise((resolve) => setTimeout(resolve, 100))
  const listed = await post(key, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)
  expect(listed.status).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 100))
  const again = await post(key, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, session)
  expect(again.status).toBe(200)
})
