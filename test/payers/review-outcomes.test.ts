// The KYC and bank-detail reviews decide what the world's rules say (kycOutcome, bankDetailOutcome), so a
// scenario can make the provider reject; without a rule they approve.
import { expect, it } from 'vitest'
import { advance } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { createPayer, postJson, usBankDetails } from '../support/compliance.ts'

const t = useTransports(newApiKey, { chain: false })

describeTransports(
  'review outcomes follow the world rules through %s',
  () => t,
  (client) => {
    const payer = '/v2/payer/john.doe%40example.com'

    it.each([
      ['rejected', 'rejected'],
      ['retry_required', 'retry_required'],
      ['pending', 'pending'],
    ] as const)('a kycOutcome of %s makes the review end in %s', async (outcome, expected) => {
      const apiKey = newApiKey()
      t.sandbox.shared.tenants.get(apiKey).rules.kycOutcome = outcome
      const { kycUrl } = await createPayer(client(), apiKey)
      await client().call('PATCH', payer, { apiKey, body: { agreementCompleted: true } })
      expect((await postJson(kycUrl, { action: 'submit' })).body.kycStatus).toBe('pending')
      await advance(client(), apiKey, 3600)
      const read = await client().call('GET', payer, { apiKey })
      expect(read.body).toMatchObject({ kycStatus: expected, isCompliant: false })
    })

    it('a bankDetailOutcome of failed makes the review fail the detail and announce it', async () => {
      const apiKey = newApiKey()
      const world = t.sandbox.shared.tenants.get(apiKey)
      world.rules.bankDetailOutcome = 'failed'
      await createPayer(client(), apiKey)
      const created = await client().call('POST', `${payer}/payment-details`, { apiKey, body: usBankDetails })
      expect(created.status).toBe(201)
      await advance(client(), apiKey, 3600)
      const read = await client().call('GET', `${payer}/payment-details`, { apiKey })
      expect(read.body.paymentDetails[0].status).toBe('failed')
      const updates = world.events
        .filter((e) => e.type === 'payment_detail.updated')
        .map((e) => e.payload.status)
      expect(updates).toEqual(['pending', 'failed'])
    })

    it('without a rule, both reviews approve', async () => {
      const apiKey = newApiKey()
      const { kycUrl } = await createPayer(client(), apiKey)
      await client().call('PATCH', payer, { apiKey, body: { agreementCompleted: true } })
      await postJson(kycUrl, { action: 'submit' })
      await client().call('POST', `${payer}/payment-details`, { apiKey, body: usBankDetails })
      await advance(client(), apiKey, 3600)
      expect((await client().call('GET', payer, { apiKey })).body.kycStatus).toBe('approved')
      expect(
        (await client().call('GET', `${payer}/payment-details`, { apiKey })).body.paymentDetails[0].status,
      ).toBe('approved')
    })
  },
)
