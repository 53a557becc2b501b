// The payout scenarios, seen from the API through HTTP and MSW: built with the payout models, the payer's own
// approval and permit signature, and the relayer paying (or failing to pay) on chain.
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'

const t = useTransports()

describeTransports(
  'payout scenarios through %s',
  () => t,
  (client) => {
    const inScenario = (scenario: string) => ({ 'x-sandbox-scenario': scenario })

    it('runs payout-cancelled: one payment made on chain by the relayer, then cancelled', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('payout-cancelled')
      const { body: state } = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      expect(state.ids.payoutId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      const payout = await client().call('GET', `/v2/payouts/recurring/${state.ids.payoutId}`, {
        apiKey,
        headers,
      })
      expect(payout.status).toBe(200)
      expect(payout.body).toMatchObject({ status: 'cancelled', processedPayments: 1, totalPayments: 3 })
      expect(payout.body.payments[0].txHash).toBe(state.ids.firstPaymentTxHash)
      const receipt = await t.sandbox.chain!.publicClient.getTransactionReceipt({
        hash: state.ids.firstPaymentTxHash,
      })
      expect(receipt.status).toBe('success')
      const child = await client().call('GET', `/v2/request/${state.ids.firstPaymentRequestId}`, {
        apiKey,
        headers,
      })
      expect(child.body.originalRequestId).toBe(state.ids.originalRequestId)
      const again = await client().call('PATCH', `/v2/payouts/recurring/${state.ids.payoutId}`, {
        apiKey,
        headers,
        body: { action: 'cancel' },
      })
      expect(again.status).toBe(400)
      const events = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'event' } })
      expect(events.body.entries.map((e: { event: string }) => e.event)).toEqual(
        expect.arrayContaining(['request.recurring', 'payment.confirmed']),
      )
    })

    it('runs payout-paused-insufficient-funds: paused after a failed payment, and resumes once funded', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('payout-paused-insufficient-funds')
      const { body: state } = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      const path = `/v2/payouts/recurring/${state.ids.payoutId}`
      const paused = await client().call('GET', path, { apiKey, headers })
      expect(paused.body).toMatchObject({ status: 'paused', processedPayments: 0, failureCount: 1 })
      expect(paused.body.failureReason).toEqual(expect.any(String))
      const failed = await client().call('GET', '/__sandbox/journal', {
        apiKey,
        query: { event: 'payment.failed' },
      })
      expect(failed.body.entries).toHaveLength(1)
      await client().call('POST', '/__sandbox/faucet', {
        apiKey,
        body: { address: state.ids.payer, currency: 'FAU-sepolia', amount: '30' },
      })
      const resumed = await client().call('PATCH', path, { apiKey, headers, body: { action: 'unpause' } })
      expect(resumed.status).toBe(200)
      const read = await waitFor(
        async () => {
          const res = await client().call('GET', path, { apiKey, headers })
          return res.body.processedPayments === 0 ? undefined : res
        },
        { timeoutMs: 5_000, intervalMs: 50, what: 'the resumed payment' },
      )
      expect(read.body).toMatchObject({ status: 'active', processedPayments: 1 })
    })
  },
)
