import { defineScenario } from '../src/control/scenarios/define.ts'

// The payer's wallet holds a little ETH for gas and none of the invoice token, so GET /pay answers
// `hasEnoughBalance: false` (read from the chain, as for any wallet).
export default defineScenario({
  name: 'insufficient-funds',
  description:
    'A FAU-sepolia request whose payer wallet holds gas but no FAU: GET /v2/request/{requestId}/pay answers hasEnoughBalance false.',
  creates: {
    requestId: 'a 250 FAU-sepolia request with the empty payer set as payer',
    paymentReference: 'its payment reference',
    payer: 'the payer wallet (0.05 ETH, no FAU)',
    payerPrivateKey: "the payer wallet's private key (fund it with the faucet to see the balance check flip)",
    payee: 'the payee address',
  },
  rules: { payerBalances: { 'ETH-sepolia-sepolia': '0.05' } },
  async seed(api) {
    const payer = await api.payer()
    const payee = api.faker.finance.ethereumAddress()
    const request = await api.createRequest({
      amount: '250',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
      payer: payer.address,
      reference: `INV-${api.faker.string.numeric(5)}`,
      customerInfo: { firstName: api.faker.person.firstName(), lastName: api.faker.person.lastName() },
    })
    return {
      requestId: request.requestId,
      paymentReference: request.paymentReference,
      payer: payer.address,
      payerPrivateKey: payer.privateKey,
      payee: request.payee!,
    }
  },
})
