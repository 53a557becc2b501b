import { defineScenario } from '../src/control/scenarios/define.ts'

export default defineScenario({
  name: 'crosschain-progress',
  description:
    'A sandbox addition: cross-chain settlement also announces its steps as payment.processing (crosschain_initiated, source_funds_received, destination_payment_sent) and its payment.failed names the intent, networks and reason. The service sends payment.processing for crypto-to-fiat only, so other worlds do not.',
  creates: {},
  rules: { crosschainProgressEvents: true },
})
