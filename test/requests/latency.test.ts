// Create -> pay on chain -> visible as paid, measured through each transport (the benchmark prints the same
// figures over more runs: `npx tsx bench/payment-latency.ts`).
import { expect, it } from 'vitest'
import { formatPaymentLatency, measurePaymentLatency } from '../../bench/payment-latency.ts'
import { describeTransports, useTransports } from '../support/clients.ts'

const t = useTransports()

describeTransports(
  'payment latency through %s',
  () => t,
  { http: 1, msw: 2 },
  (client, account, transport) => {
    it('shows a payment as paid well within 300 ms of its receipt (median of 10 runs)', async () => {
      const result = await measurePaymentLatency({
        runs: 10,
        account,
        target: { sandbox: t.sandbox, baseUrl: client().baseUrl },
      })
      console.log(`${transport}: ${formatPaymentLatency(result)}`)
      expect(result.runs).toBe(10)
      expect(result.receiptToPaid.medianMs).toBeLessThan(300)
    })
  },
)
