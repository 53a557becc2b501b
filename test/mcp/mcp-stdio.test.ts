// `request-sandbox mcp` as an agent on the same machine runs it: the command over stdio, driven by the MCP SDK's own
// client. With --base it drives a running sandbox as --key; without, it starts its own sandbox in its process.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { root } from '../support/cli-sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'
import { call, connect, ok, TOOLS } from './mcp-support.ts'

const command = (args: string[]) =>
  new StdioClientTransport({
    command: process.execPath,
    args: ['bin/request-sandbox.mjs', 'mcp', ...args],
    cwd: root,
    stderr: 'pipe',
  })

const payee = '0x2222222222222222222222222222222222222222'

describe('request-sandbox mcp --base (stdio)', () => {
  let server: RunningServer
  let receiver: WebhookReceiver
  beforeAll(async () => {
    ;[server, receiver] = await Promise.all([startServer({ port: 0 }), startReceiver()])
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await receiver?.close()
  })

  it("creates a request, pays it through the tool, sees it paid and its webhook delivered, as --key's own", async () => {
    const key = `mcp-stdio-${Date.now()}`
    const client = await connect(command(['--base', server.url, '--key', key]))
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS)
      receiver.secret = (await ok(client, 'register_webhook', { url: receiver.url })).secret
      const { requestId } = await ok(client, 'create_request', {
        amount: '3',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      await ok(client, 'pay', { requestId })
      expect((await ok(client, 'get', { requestId })).hasBeenPaid).toBe(true)
      const [delivery] = await receiver.waitFor(1)
      expect(delivery!.body.event).toBe('payment.confirmed')
      expect(delivery!.signatureValid).toBe(true)
      await waitFor(async () => {
        const list = await ok(client, 'list_webhook_deliveries')
        return list.some((d: { attempts: { status: number }[] }) => d.attempts.some((a) => a.status === 200))
          ? true
          : undefined
      })
      // the request is --key's: the API shows it to that key
      const seen = await fetch(`${server.url}/v2/request/${requestId}`, { headers: { 'x-api-key': key } })
      expect(seen.status).toBe(200)
    } finally {
      await client.close()
    }
  })
})

describe('request-sandbox mcp with its own sandbox (stdio)', () => {
  it('starts a sandbox in its process and pays a payment link with the test wallet', async () => {
    const client = await connect(command(['--key', 'agent']))
    try {
      const link = await ok(client, 'create_payment_link', {
        requests: [{ payee, amount: '5', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' }],
      })
      expect(link.token).toBeTruthy()
      const paid = await ok(client, 'pay', { paymentLinkToken: link.token })
      expect(paid.txHashes.length).toBeGreaterThan(0)
      // a completed link answers 409 to its read, as the service does
      const completed = /^409: Secure payment has already been completed/
      await waitFor(async () => {
        const read = await call(client, 'get', { paymentLinkToken: link.token })
        return completed.test(read.text) ? read : undefined
      })
      const snapshot = await ok(client, 'save_snapshot', { name: 'paid' })
      expect(snapshot).toBeTruthy()
      expect((await ok(client, 'reset')).reset).toBe(true)
      expect((await call(client, 'get', { paymentLinkToken: link.token })).text).toMatch(/^404/)
      await ok(client, 'restore_snapshot', { name: 'paid' })
      expect((await call(client, 'get', { paymentLinkToken: link.token })).text).toMatch(completed)
    } finally {
      await client.close()
    }
  }, 120_000)
})
