import { defineScenario } from '../src/control/scenarios/define.ts'

// The whole compliance journey as the payer walks it: the form, the agreement, documents submitted on the KYC
// page and approved by the reviewer. Each step emitted compliance.updated.
export default defineScenario({
  name: 'kyc-approved',
  description: 'A compliant payer: agreement completed, KYC approved (isCompliant true).',
  creates: {
    clientUserId: "the payer's clientUserId (an e-mail address)",
    userId: "the payer's userId",
  },
  async seed(api) {
    const payer = await api.models.payers.create(api.payerBody())
    await api.models.payers.completeAgreement(payer.clientUserId)
    await api.models.payers.kyc(payer.clientUserId, 'approve')
    return { clientUserId: payer.clientUserId, userId: payer.userId }
  },
})
