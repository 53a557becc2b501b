import { defineScenario } from '../src/control/scenarios/define.ts'

// 40 of 100 paid on chain: the remaining 60 is what GET /pay asks for next.
export default defineScenario({
  name: 'request-partially-paid',
  description:
    'A 100 FAU-sepolia request of which a seeded payer paid 40 on chain (status partially_paid, payment.partial emitted).',
  creates: {
    requestId: 'the partially paid request',
    paymentReference: 'its payment reference',
    txHash: 'the partial payment transaction',
    payer: 'the wallet that paid (it holds FAU for the rest)',
    payee: 'the payee address',
  },
  rules: { payerBalances: { 'ETH-sepolia-sepolia': '1', 'FAU-sepolia': '1000' } },
  async seed(api) {
    const payer = await api.payer()
    const request = await api.createRequest({
      amount: '100',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: api.faker.finance.ethereumAddress(),
      payer: payer.address,
      reference: `INV-${api.faker.string.numeric(5)}`,
    })
    const hashes = await api.pay(request.requestId, payer, { amount: '40' })
    await api.waitForPayments(request.requestId, 1)
    return {
      requestId: request.requestId,
      paymentReference: request.paymentReference,
      txHash: hashes.at(-1)!,
      payer: payer.address,
      payee: request.payee!,
    }
  },
})
