import { defineScenario } from '../src/control/scenarios/define.ts'

// The reviewer rejected the payer's documents: retry from the KYC page (rejected -> retry_required -> pending).
export default defineScenario({
  name: 'kyc-rejected',
  description:
    'A payer whose KYC was rejected after the agreement was completed: kycStatus rejected, not compliant.',
  creates: {
    clientUserId: "the payer's clientUserId (an e-mail address)",
    userId: "the payer's userId",
  },
  async seed(api) {
    const payer = await api.models.payers.create(api.payerBody())
    await api.models.payers.completeAgreement(payer.clientUserId)
    await api.models.payers.kyc(payer.clientUserId, 'reject')
    return { clientUserId: payer.clientUserId, userId: payer.userId }
  },
})
