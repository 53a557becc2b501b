import { defineScenario } from '../src/control/scenarios/define.ts'

// The built-in demo: the world file fixtures/worlds/demo.yaml, loaded through the seed API.
export default defineScenario({
  name: 'demo',
  description:
    'A small shop (fixtures/worlds/demo.yaml): a client ID, an approved payer with bank details and one under KYC review, invoices paid, partly paid (40 of 100) and open, a monthly recurring payout, a secure payment link.',
  creates: {
    paidInvoice: 'a 120 FAU-sepolia invoice paid on chain',
    partlyPaidInvoice: 'a 100 FAU-sepolia invoice of which 40 is paid',
    openInvoice: 'an open crypto-to-fiat invoice',
    payer: 'the approved payer (clientUserId)',
    bankDetails: "the approved payer's bank details id",
    clientId: "the shop's client ID",
    payout: 'the monthly recurring payout id',
    securePaymentToken: 'the secure payment link token',
  },
  async seed(api) {
    const world = await api.worldFile('demo')
    return {
      paidInvoice: String(world.requests!.paidInvoice!.requestId),
      partlyPaidInvoice: String(world.requests!.partlyPaidInvoice!.requestId),
      openInvoice: String(world.requests!.openInvoice!.requestId),
      payer: String(world.payers!.ann!.clientUserId),
      bankDetails: String(world.bankDetails!.annChecking!.id),
      clientId: String(world.clientIds!.shop!.clientId),
      payout: String(world.payouts!.monthlyRent!.id),
      securePaymentToken: String(world.securePayments!.checkout!.token),
    }
  },
})
