import { expect, it } from 'vitest'
import { advance } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { createPayer, swiftBankDetails, ukBankDetails, usBankDetails } from '../support/compliance.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { chain: false })

const payerPath = '/v2/payer/john.doe%40example.com/payment-details'
const detailEvents = (apiKey: string) =>
  t.sandbox.shared.tenants
    .get(apiKey)
    .events.filter((e) => e.type === 'payment_detail.updated')
    .map((e) => e.payload)

describeTransports(
  'bank payment details through %s',
  () => t,
  (client) => {
    it('stores the documented US, SWIFT and UK examples (v2 and v1) and answers 201 with payment_detail', async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      for (const [version, body] of [
        ['v2', usBankDetails],
        ['v2', swiftBankDetails],
        ['v1', ukBankDetails],
      ] as const) {
        const res = await client().call('POST', `/${version}/payer/john.doe%40example.com/payment-details`, {
          apiKey,
          body,
        })
        expect(res.status).toBe(201)
        assertMatchesDocument(
          'full',
          'POST',
          `/${version}/payer/{clientUserId}/payment-details`,
          201,
          res.body,
        )
        if (version === 'v2')
          assertMatchesDocument('v2', 'POST', '/v2/payer/{clientUserId}/payment-details', 201, res.body)
        expect(res.body).toEqual({
          payment_detail: {
            id: expect.stringMatching(/^[0-9a-f-]{36}$/),
            clientUserId: 'john.doe@example.com',
            bankName: body.bankName,
            accountName: body.accountName,
            currency: body.currency,
            beneficiaryType: body.beneficiaryType,
          },
        })
      }
    })

    it("ignores a client's own row keys and empty fields (easy-invoice sends its database row)", async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const row = {
        ...usBankDetails,
        id: '01JPHNEY8RRJTB94Q34GAW8BC3',
        userId: 'local-user',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
        accountType: 'checking',
        iban: '',
        currency: 'USD',
      }
      const res = await client().call('POST', payerPath, { apiKey, body: row })
      expect(res.status).toBe(201)
      expect(res.body.payment_detail.currency).toBe('usd')
      expect(res.body.payment_detail.id).not.toBe(row.id)
    })

    it('lists the stored details, filters by id, and never shows another payer or tenant', async () => {
      const apiKey = newApiKey()
      const payer = await createPayer(client(), apiKey)
      await createPayer(client(), apiKey, { clientUserId: 'other', email: 'other@example.com' })
      const us = await client().call('POST', payerPath, { apiKey, body: usBankDetails })
      const uk = await client().call('POST', payerPath, { apiKey, body: ukBankDetails })
      const theirs = await client().call('POST', '/v2/payer/other/payment-details', {
        apiKey,
        body: swiftBankDetails,
      })

      const all = await client().call('GET', payerPath, { apiKey })
      expect(all.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/payer/{clientUserId}/payment-details', 200, all.body)
      assertMatchesDocument('full', 'GET', '/v1/payer/{clientUserId}/payment-details', 200, all.body)
      expect(all.body.paymentDetails.map((d: { id: string }) => d.id)).toEqual([
        us.body.payment_detail.id,
        uk.body.payment_detail.id,
      ])
      expect(all.body.paymentDetails[0]).toMatchObject({
        id: us.body.payment_detail.id,
        userId: payer.userId,
        bankName: 'Chase',
        accountName: "Gordon's Chase Business Account",
        beneficiaryType: 'business',
        accountNumber: '253009233489',
        routingNumber: '026013356',
        currency: 'usd',
        status: 'pending',
        rails: 'local',
      })
      expect(all.body.paymentDetails[1]).toMatchObject({ sortCode: '200000', accountNumber: '12345678' })

      const one = await client().call('GET', '/v1/payer/john.doe%40example.com/payment-details', {
        apiKey,
        query: { paymentDetailsId: uk.body.payment_detail.id },
      })
      expect(one.body.paymentDetails).toHaveLength(1)
      expect(one.body.paymentDetails[0].id).toBe(uk.body.payment_detail.id)

      const foreign = await client().call('GET', payerPath, {
        apiKey,
        query: { paymentDetailsId: theirs.body.payment_detail.id },
      })
      expect(foreign.status).toBe(404)
      const otherTenant = await client().call('GET', payerPath)
      expect(otherTenant.status).toBe(404)
    })

    it('answers unknown payers with the documented 404s', async () => {
      const post = await client().call('POST', '/v2/payer/user-123/payment-details', { body: usBankDetails })
      expect(post.status).toBe(404)
      expect(post.body).toEqual({
        statusCode: 404,
        message: 'User with ID user-123 not found',
        error: 'Not Found',
      })
      assertMatchesDocument('v2', 'POST', '/v2/payer/{clientUserId}/payment-details', 404, post.body)
      const get = await client().call('GET', '/v1/payer/user-123/payment-details')
      expect(get.status).toBe(404)
      expect(get.body.message).toBe('Payer with client user ID user-123 not found')
    })

    it('approves a new detail after the configured delay on the tenant clock, with payment_detail.updated', async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const created = await client().call('POST', payerPath, { apiKey, body: usBankDetails })
      const id = created.body.payment_detail.id
      await advance(client(), apiKey, 2)
      let read = await client().call('GET', payerPath, { apiKey })
      expect(read.body.paymentDetails[0].status).toBe('pending')
      await advance(client(), apiKey, 1)
      read = await client().call('GET', payerPath, { apiKey })
      expect(read.body.paymentDetails[0].status).toBe('approved')
      const events = detailEvents(apiKey)
      expect(events.map((e) => [e.paymentDetailsId, e.clientUserId, e.status])).toEqual([
        [id, 'john.doe@example.com', 'pending'],
        [id, 'john.doe@example.com', 'approved'],
      ])
      expect(events[1]).toMatchObject({ event: 'payment_detail.updated', timestamp: expect.any(String) })
    })

    it('forces failed (and back) through the control route, cancelling the pending approval', async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const created = await client().call('POST', payerPath, { apiKey, body: usBankDetails })
      const id = created.body.payment_detail.id
      const path = `/__sandbox/payers/john.doe%40example.com/payment-details/${id}`
      const failed = await client().call('POST', path, { apiKey, body: { status: 'failed' } })
      expect(failed.status).toBe(200)
      expect(failed.body).toMatchObject({ id, status: 'failed' })
      await advance(client(), apiKey, 10)
      const read = await client().call('GET', payerPath, { apiKey })
      expect(read.body.paymentDetails[0].status).toBe('failed')
      expect(detailEvents(apiKey).map((e) => e.status)).toEqual(['pending', 'failed'])
      const approved = await client().call('POST', path, { apiKey, body: { status: 'approved' } })
      expect(approved.body.status).toBe('approved')
      expect((await client().call('POST', path, { apiKey, body: { status: 'rejected' } })).status).toBe(400)
      expect(
        (
          await client().call('POST', '/__sandbox/payers/john.doe%40example.com/payment-details/nope', {
            apiKey,
            body: { status: 'approved' },
          })
        ).status,
      ).toBe(404)
    })

    it.each([
      ['a routing number failing the ABA checksum', { routingNumber: '026013357' }, 'routingNumber'],
      ['a US account without routing number', { routingNumber: undefined }, 'routingNumber'],
      ['a US local account in EUR', { currency: 'eur' }, 'currency'],
      ['an IBAN failing mod-97', { iban: 'DE89370400440532013001' }, 'iban'],
    ])('refuses %s: 400 Invalid bank account details naming the field', async (_name, overrides, field) => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const res = await client().call('POST', payerPath, { apiKey, body: { ...usBankDetails, ...overrides } })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        statusCode: 400,
        message: 'Invalid bank account details',
        error: 'Bad Request',
      })
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
      assertMatchesDocument('v2', 'POST', '/v2/payer/{clientUserId}/payment-details', 400, res.body)
      expect((await client().call('GET', payerPath, { apiKey })).body.paymentDetails).toEqual([])
    })

    it.each([
      ['currency', { currency: 'xyz' }],
      ['currency', { currency: 'xau' }],
      ['currency', { currency: 'dollars' }],
      ['country', { country: 'QQ' }],
      ['dateOfBirth', { dateOfBirth: '1985-13-01' }],
      ['rails', { rails: 'ach' }],
      ['accountType', { accountType: 'current' }],
      ['bankName', { bankName: '' }],
      ['postalCode', { postalCode: undefined }],
    ])('refuses an invalid %s (%j) with the field list', async (field, overrides) => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const res = await client().call('POST', payerPath, { apiKey, body: { ...usBankDetails, ...overrides } })
      expect(res.status).toBe(400)
      expect(res.body.message).toBe('Validation failed')
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
    })
  },
)
