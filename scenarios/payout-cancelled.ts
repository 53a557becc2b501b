import { defineScenario } from '../src/control/scenarios/define.ts'

// Built as an integrator builds it: POST /v2/payouts with a recurrence, the approval sent and the permit signed
// by the payer's wallet, activation; the relayer pays the first day on chain, then the payout is cancelled.
export default defineScenario({
  name: 'payout-cancelled',
  description:
    'A daily recurring payout of 10 FAU-sepolia (3 payments) whose first payment went through on chain, then cancelled: status cancelled, 1 of 3 processed.',
  creates: {
    payoutId: 'the cancelled recurring payout (GET /v2/payouts/recurring/{id})',
    originalRequestId: 'its parent request',
    firstPaymentRequestId: 'the child request of the payment that went through',
    firstPaymentTxHash: 'the transaction of that payment',
    payer: 'the paying wallet',
    payee: 'the payee address',
  },
  rules: { payerBalances: { 'ETH-sepolia-sepolia': '1', 'FAU-sepolia': '100' } },
  async seed(api) {
    const payer = await api.payer()
    const payee = api.faker.finance.ethereumAddress()
    const created = await api.startRecurringPayout(payer, {
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
      recurrence: {
        startDate: api.clock.now().toISOString(),
        frequency: 'DAILY',
        totalPayments: 3,
        payer: payer.address,
      },
    })
    const paid = await api.waitFor(() => {
      const payout = api.models.payouts.get(created.id)
      if (payout.status === 'paused') throw new Error(`the first payment failed: ${payout.failureReason}`)
      return payout.processedPayments === 1 ? payout : undefined
    }, 'the first payment of the payout')
    await api.models.payouts.update(created.id, 'cancel')
    return {
      payoutId: created.id,
      originalRequestId: paid.originalRequestId,
      firstPaymentRequestId: paid.payments[0]!.requestId,
      firstPaymentTxHash: paid.payments[0]!.txHash,
      payer: payer.address,
      payee: paid.payee,
    }
  },
})
