// A claimed key's long-lived connections end with it: at expiry its live journal streams (/__sandbox/stream) and
// listen clients (/__sandbox/webhooks/listen) end (nothing more is sent) and give their places back, and its MCP
// sessions close, freeing the sandbox-wide places other keys need.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { connect } from '../mcp/mcp-support.ts'
import { waitFor } from '../support/wait.ts'

const DAY = 86_400_000
let clock = Date.parse('2026-12-06T12:00:00Z')
let server: RunningServer | undefined
afterAll(async () => {
  await server?.close()
})

/** An open server-sent-event stream: what it has sent so far, and whether it ended. */
async function openStream(url: string, key: string) {
  const response = await fetch(url, { headers: { 'x-api-key': key } })
  expect(response.status).toBe(200)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const state = { text: '', ended: false }
  const reading = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        state.text += decoder.decode(value, { stream: true })
      }
    } catch {
      // the connection dropped
    }
    state.ended = true
  })()
  return { state, reading, cancel: () => reader.cancel().catch(() => {}) }
}

/** Waits until `check` holds (5 s at most: a timeout fails the test, naming `what`). */
const until = (what: string, check: () => boolean) => waitFor(() => check() || undefined, { what })

describe("a claimed key's streams and sessions at its expiry", () => {
  it('end its streams and close its MCP sessions: nothing more is sent, their places come back', async () => {
    server = await startServer({
      port: 0,
      chain: false,
      apiKeys: ['sk_operator'],
      claimable: { now: () => clock },
      mcp: { sessionsTotal: 1 },
    })
    const created = await fetch(`${server.url}/__sandbox/sandboxes`, { method: 'POST' })
    const { key } = (await created.json()) as { key: string }
    const journal = await openStream(`${server.url}/__sandbox/stream`, key)
    const listen = await openStream(`${server.url}/__sandbox/webhooks/listen`, key)
    try {
      await until('the journal stream ready', () => journal.state.text.includes('event: ready'))
      await until('the listen stream ready', () => listen.state.text.includes('event: ready'))
      const agent = await connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { 'x-api-key': key } },
        }),
      )
      expect(server.sandbox.shared.streams.total).toBe(2)
      // the stranger's session holds the sandbox's one MCP place: the operator's key is refused
      const operatorMcp = () =>
        connect(
          new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`), {
            requestInit: { headers: { 'x-api-key': 'sk_operator' } },
          }),
        )
      await expect(operatorMcp()).rejects.toThrow(/429|most MCP sessions/)

      clock += 7 * DAY + 1
      // the key's next call expires it
      expect((await fetch(`${server.url}/__sandbox/clock`, { headers: { 'x-api-key': key } })).status).toBe(
        401,
      )
      await until('both streams ended', () => journal.state.ended && listen.state.ended)
      const sent = { journal: journal.state.text, listen: listen.state.text }
      await new Promise((r) => setTimeout(r, 200))
      expect({ journal: journal.state.text, listen: listen.state.text }).toEqual(sent)
      expect(server.sandbox.shared.streams.total).toBe(0)
      // its MCP session is gone: the place is the operator's again
      const operator = await operatorMcp()
      await operator.close()
      await agent.close().catch(() => {})
      // a stream asked for again with the expired key is refused
      const again = await fetch(`${server.url}/__sandbox/stream`, { headers: { 'x-api-key': key } })
      expect(again.status).toBe(401)
      await again.body?.cancel()
    } finally {
      await journal.cancel()
      await listen.cancel()
    }
  }, 30_000)
})
