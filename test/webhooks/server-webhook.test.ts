// The server-wide webhook target of a sandbox in a container (--webhook-url / WEBHOOK_URL) and the delivery defaults.
import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver } from '../support/webhook-receiver.ts'

describe('a server-wide webhook URL (--webhook-url / WEBHOOK_URL)', () => {
  it("gets every key's events, signed with --webhook-secret", async () => {
    const own = await startReceiver()
    own.secret = 'container-secret'
    const sandbox = await createSandbox({
      chain: false,
      webhooks: { url: own.url, secret: 'container-secret' },
    })
    try {
      await sandbox.control.emit('key-one', 'payment.confirmed', { requestId: 'a' })
      await sandbox.control.emit('key-two', 'compliance.updated', { clientUserId: 'u' })
      const got = await own.waitFor(2)
      expect(got.every((r) => r.signatureValid)).toBe(true)
      expect(got.map((r) => r.body.event).sort()).toEqual(['compliance.updated', 'payment.confirmed'])
      await waitFor(
        () => (sandbox.control.journal('key-one', { types: ['delivery'] }).length === 1 ? true : undefined),
        { what: 'the journal entry of the delivery', timeoutMs: 5000, intervalMs: 10 },
      )
    } finally {
      await sandbox.close()
      await own.close()
    }
  })

  it('keeps the documented schedule by default: retries after 1 s, 5 s and 15 s, 5 s per attempt', async () => {
    const sandbox = await createSandbox({ chain: false })
    try {
      expect(sandbox.shared.webhooks.retryDelaysMs).toEqual([1000, 5000, 15000])
      expect(sandbox.shared.webhooks.timeoutMs).toBe(5000)
      const longer = await createSandbox({ chain: false, webhooks: { retryDelaysMs: [1, 2, 3, 4, 5] } })
      expect(longer.shared.webhooks.retryDelaysMs).toEqual([1, 2, 3])
      await longer.close()
    } finally {
      await sandbox.close()
    }
  })
})
