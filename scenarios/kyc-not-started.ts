import { defineScenario } from '../src/control/scenarios/define.ts'

// The payer filled in the compliance form (POST /v2/payer) and nothing else: the agreement link is issued
// (agreement pending), KYC has not started. Open agreementUrl, or PATCH agreementCompleted, to go on.
export default defineScenario({
  name: 'kyc-not-started',
  description:
    'A payer who has submitted the compliance form and nothing else: agreementStatus pending, kycStatus not_started, not compliant.',
  creates: {
    clientUserId: "the payer's clientUserId (an e-mail address)",
    userId: "the payer's userId",
    agreementUrl: 'the agreement page to complete',
    kycUrl: 'the KYC page',
  },
  async seed(api) {
    const payer = await api.models.payers.create(api.payerBody())
    const { agreementUrl, kycUrl } = api.models.payers.view(payer.clientUserId)
    return { clientUserId: payer.clientUserId, userId: payer.userId, agreementUrl, kycUrl }
  },
})
