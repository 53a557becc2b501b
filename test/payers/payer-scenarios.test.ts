// The payer and bank-detail scenarios, seen from the API through HTTP and MSW: built with the payer and
// payment-details models, along the same steps a payer takes (form, agreement, KYC page, bank details).
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

describeTransports(
  'payer scenarios through %s',
  () => t,
  (client) => {
    async function seeded(scenario: string) {
      const apiKey = newApiKey()
      const headers = { 'x-sandbox-scenario': scenario }
      const state = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      expect(state.status, JSON.stringify(state.body)).toBe(200)
      const payerPath = `/v2/payer/${encodeURIComponent(state.body.ids.clientUserId)}`
      return { apiKey, headers, ids: state.body.ids as Record<string, string>, payerPath }
    }

    it('runs kyc-not-started: the form is in, the agreement pending, KYC not started', async () => {
      const { apiKey, headers, ids, payerPath } = await seeded('kyc-not-started')
      expect(ids.clientUserId).toMatch(/@example\.com$/)
      const payer = await client().call('GET', payerPath, { apiKey, headers })
      expect(payer.body).toMatchObject({
        agreementStatus: 'pending',
        kycStatus: 'not_started',
        isCompliant: false,
        userId: ids.userId,
      })
      // The links point at the address the client reached the sandbox at, and the pages answer there.
      expect(ids.agreementUrl!.startsWith(`${client().baseUrl}/__sandbox/payer-pages/`)).toBe(true)
      const page = await fetch(ids.agreementUrl!)
      expect(page.status).toBe(200)
      const patched = await client().call('PATCH', payerPath, {
        apiKey,
        headers,
        body: { agreementCompleted: true },
      })
      expect(patched.status).toBe(200)
      const after = await client().call('GET', payerPath, { apiKey, headers })
      expect(after.body).toMatchObject({ agreementStatus: 'completed', kycStatus: 'initiated' })
    })

    it('runs kyc-approved: a compliant payer, reached through the events of each step', async () => {
      const { apiKey, headers, payerPath } = await seeded('kyc-approved')
      const payer = await client().call('GET', payerPath, { apiKey, headers })
      expect(payer.body).toMatchObject({
        agreementStatus: 'completed',
        kycStatus: 'approved',
        isCompliant: true,
      })
      const events = await client().call('GET', '/__sandbox/journal', {
        apiKey,
        query: { event: 'compliance.updated' },
      })
      expect(
        events.body.entries.map((e: { payload: { kycStatus: string } }) => e.payload.kycStatus).reverse(),
      ).toEqual(['not_started', 'initiated', 'pending', 'approved'])
    })

    it('runs kyc-rejected: KYC rejected, not compliant', async () => {
      const { apiKey, headers, payerPath } = await seeded('kyc-rejected')
      const payer = await client().call('GET', payerPath, { apiKey, headers })
      expect(payer.body).toMatchObject({
        agreementStatus: 'completed',
        kycStatus: 'rejected',
        isCompliant: false,
      })
    })

    it('runs payment-details-approved: compliant payer, approved bank details, a crypto-to-fiat request', async () => {
      const { apiKey, headers, ids, payerPath } = await seeded('payment-details-approved')
      expect((await client().call('GET', payerPath, { apiKey, headers })).body.isCompliant).toBe(true)
      const details = await client().call('GET', `${payerPath}/payment-details`, { apiKey, headers })
      expect(details.status).toBe(200)
      expect(details.body.paymentDetails).toHaveLength(1)
      expect(details.body.paymentDetails[0]).toMatchObject({
        id: ids.paymentDetailsId,
        status: 'approved',
        currency: 'usd',
        rails: 'local',
        routingNumber: '026013356',
      })
      const request = await client().call('GET', `/v2/request/${ids.requestId}`, { apiKey, headers })
      expect(request.body).toMatchObject({ isCryptoToFiatAvailable: true, status: 'pending' })
    })
  },
)
