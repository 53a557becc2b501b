import { defineScenario } from '../src/control/scenarios/define.ts'

// The payer approved the recurring proxy and signed the permit but holds no FAU: the relayer's first trigger
// fails on chain and the payout pauses (payment.failed). Fund the payer, then PATCH {action: "unpause"}.
export default defineScenario({
  name: 'payout-paused-insufficient-funds',
  description:
    'A daily recurring payout of 10 FAU-sepolia whose payer approved the proxy but holds no FAU: the first payment failed, status paused with failureCount and failureReason.',
  creates: {
    payoutId: 'the paused recurring payout',
    originalRequestId: 'its parent request',
    payer: 'the payer wallet (gas, allowance, no FAU: fund it with the faucet, then unpause)',
    payee: 'the payee address',
  },
  rules: { payerBalances: { 'ETH-sepolia-sepolia': '1' } },
  async seed(api) {
    const payer = await api.payer()
    const created = await api.startRecurringPayout(payer, {
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: api.faker.finance.ethereumAddress(),
      recurrence: {
        startDate: api.clock.now().toISOString(),
        frequency: 'DAILY',
        totalPayments: 3,
        payer: payer.address,
      },
    })
    const paused = await api.waitFor(() => {
      const payout = api.models.payouts.get(created.id)
      return payout.status === 'paused' ? payout : undefined
    }, 'the payout to pause')
    return {
      payoutId: created.id,
      originalRequestId: paused.originalRequestId,
      payer: payer.address,
      payee: paused.payee,
    }
  },
})
