import { defineScenario } from '../src/control/scenarios/define.ts'

// Ready for crypto-to-fiat: a compliant payer, its US bank account approved by the review, and a request that
// accepts crypto-to-fiat. (The off-ramp itself follows the request's payment, with the chain detector.)
export default defineScenario({
  name: 'payment-details-approved',
  description:
    'A compliant payer with approved US bank details and a crypto-to-fiat request of 100 fUSDC-sepolia, ready for an off-ramp payment.',
  creates: {
    clientUserId: "the payer's clientUserId (an e-mail address)",
    userId: "the payer's userId",
    paymentDetailsId: 'the approved bank details',
    requestId: 'a request with isCryptoToFiatAvailable true',
    paymentReference: 'its payment reference',
  },
  async seed(api) {
    const body = api.payerBody()
    const payer = await api.models.payers.create(body)
    await api.models.payers.completeAgreement(payer.clientUserId)
    await api.models.payers.kyc(payer.clientUserId, 'approve')
    const detail = await api.models.paymentDetails.create(payer.clientUserId, api.bankDetails(body))
    // The review approves details after a few seconds of the tenant clock; a seed does not wait for it.
    await api.models.paymentDetails.force(payer.clientUserId, detail.id, 'approved')
    const request = await api.createRequest({
      amount: '100',
      invoiceCurrency: 'fUSDC-sepolia',
      paymentCurrency: 'fUSDC-sepolia',
      isCryptoToFiatAvailable: true,
    })
    return {
      clientUserId: payer.clientUserId,
      userId: payer.userId,
      paymentDetailsId: detail.id,
      requestId: request.requestId,
      paymentReference: request.paymentReference,
    }
  },
})
