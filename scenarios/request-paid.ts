import { defineScenario } from '../src/control/scenarios/define.ts'

// Paid for real: a seeded payer wallet sends the calldata of GET /pay on the chain, and the request's state comes
// from the chain detector, exactly as for a payment an integrator makes.
export default defineScenario({
  name: 'request-paid',
  description:
    'A 100 FAU-sepolia request paid in full on chain by a seeded payer (status paid, payment.confirmed emitted).',
  creates: {
    requestId: 'the paid request',
    paymentReference: 'its payment reference',
    txHash: 'the payment transaction',
    payer: 'the wallet that paid',
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
    const hashes = await api.pay(request.requestId, payer)
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
