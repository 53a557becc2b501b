// The recurring payout endpoints (activate, status, cancel/unpause) and PATCH /v2/request: shapes and every
// documented error, through both transports, validated against the official documents.
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument, assertMatchesExample } from '../support/openapi.ts'
import { signPermit } from '../support/payouts.ts'

const t = useTransports()

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const payer = '0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570'
const badRequest = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' })
const notFound = { statusCode: 404, message: 'Recurring payment not found', error: 'Not Found' }
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

describeTransports(
  'recurring payout control through %s',
  () => t,
  (client) => {
    const call = (method: string, path: string, apiKey: string, body?: unknown) =>
      client().call(method, path, { apiKey, ...(body === undefined ? {} : { body }) })

    const base = { payee, amount: '10', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' }
    const recurrence = { startDate: tomorrow(), frequency: 'DAILY', totalPayments: 3, payer }
    it('answers 401 on every payout endpoint without an API key', async () => {
      for (const [method, path] of [
        ['POST', '/v2/payouts'],
        ['POST', '/v2/payouts/recurring/01JXYJKCAHGFTDR15F2D072ESG'],
        ['GET', '/v2/payouts/recurring/01JXYJKCAHGFTDR15F2D072ESG'],
        ['PATCH', '/v2/payouts/recurring/01JXYJKCAHGFTDR15F2D072ESG'],
      ] as const) {
        const res = await client().call(method, path, { apiKey: null, body: {} })
        expect(res.status, `${method} ${path}`).toBe(401)
        expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
      }
    })

    it('reads a new recurring payout as pending, with nothing scheduled before its signature', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/payouts', apiKey, { ...base, recurrence })
      expect(created.status).toBe(201)
      expect(created.body.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      const res = await call('GET', `/v2/payouts/recurring/${created.body.id}`, apiKey)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        processedPayments: 0,
        totalPayments: 3,
        lastPaymentDate: null,
        nextPaymentDate: null,
        status: 'pending',
        requests: [],
        payments: [],
      })
      expect(t.sandbox.shared.tenants.get(apiKey).clock.pending()).toEqual([])
    })

    it('answers 404 Recurring payment not found on every endpoint for an unknown id, and to another tenant', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/payouts', apiKey, { ...base, recurrence })
      for (const id of ['01JXYJKCAHGFTDR15F2D072ESG', created.body.id]) {
        const key = id === created.body.id ? newApiKey() : apiKey
        const get = await call('GET', `/v2/payouts/recurring/${id}`, key)
        expect(get.status).toBe(404)
        expect(get.body).toEqual(notFound)
        assertMatchesDocument('v2', 'GET', '/v2/payouts/recurring/{id}', 404, get.body)
        assertMatchesDocument('full', 'GET', '/v2/payouts/recurring/{id}', 404, get.body)
        const post = await call('POST', `/v2/payouts/recurring/${id}`, key, {
          permitSignature: `0x${'1'.repeat(130)}`,
        })
        expect([post.status, post.body]).toEqual([404, notFound])
        const patch = await call('PATCH', `/v2/payouts/recurring/${id}`, key, { action: 'cancel' })
        expect([patch.status, patch.body]).toEqual([404, notFound])
      }
    })

    it('refuses signatures that are malformed, from another key or over other values; then activates once', async () => {
      const apiKey = newApiKey()
      const account = privateKeyToAccount(generatePrivateKey())
      const created = await call('POST', '/v2/payouts', apiKey, {
        ...base,
        recurrence: { ...recurrence, payer: account.address },
      })
      const permit = created.body.recurringPaymentPermit
      const path = `/v2/payouts/recurring/${created.body.id}`
      const stranger = privateKeyToAccount(generatePrivateKey())
      const tampered = { ...permit, values: { ...permit.values, amount: '1' } }
      for (const permitSignature of [
        '0x1234',
        'not hex at all',
        `0x${'00'.repeat(65)}`,
        await signPermit(stranger, permit),
        await signPermit(account, tampered),
      ]) {
        const res = await call('POST', path, apiKey, { permitSignature })
        expect(res.status, permitSignature).toBe(400)
        expect(res.body).toEqual(badRequest('Invalid signature provided'))
        assertMatchesExample('v2', 'POST', '/v2/payouts/recurring/{id}', 400, 'invalidSignature', res.body)
      }
      const missing = await call('POST', path, apiKey, {})
      expect(missing.status).toBe(400)
      expect(missing.body).toMatchObject({
        message: 'Validation failed',
        errors: [{ field: 'permitSignature' }],
      })
      const permitSignature = await signPermit(account, permit)
      expect((await call('POST', path, apiKey, { permitSignature })).status).toBe(201)
      const again = await call('POST', path, apiKey, { permitSignature })
      expect(again.status).toBe(400)
      expect(again.body).toEqual(badRequest('Recurring payment is already active'))
      assertMatchesExample('full', 'POST', '/v2/payouts/recurring/{id}', 400, 'alreadyActive', again.body)
      await call('PATCH', path, apiKey, { action: 'cancel' })
    })

    it('answers the documented 400s of PATCH: invalid action, not paused, already cancelled', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/payouts', apiKey, {
        ...base,
        feePercentage: '1',
        feeAddress: payee,
        recurrence,
      })
      const path = `/v2/payouts/recurring/${created.body.id}`
      const invalid = await call('PATCH', path, apiKey, { action: 'invalid_action' })
      expect([invalid.status, invalid.body]).toEqual([400, badRequest('Invalid action: invalid_action')])
      assertMatchesExample('v2', 'PATCH', '/v2/payouts/recurring/{id}', 400, 'invalidAction', invalid.body)
      const unknown = await call('PATCH', '/v2/payouts/recurring/nope', apiKey, { action: 'pause' })
      expect(unknown.body).toEqual(badRequest('Invalid action: pause'))
      const noAction = await call('PATCH', path, apiKey, {})
      expect(noAction.body).toMatchObject({ message: 'Validation failed', errors: [{ field: 'action' }] })
      const notPaused = await call('PATCH', path, apiKey, { action: 'unpause' })
      expect([notPaused.status, notPaused.body]).toEqual([400, badRequest('Recurring payment is not paused')])
      assertMatchesExample('v2', 'PATCH', '/v2/payouts/recurring/{id}', 400, 'notPaused', notPaused.body)

      const cancelled = await call('PATCH', path, apiKey, { action: 'cancel' })
      expect(cancelled.status).toBe(200)
      expect(cancelled.body.metadata).toEqual({
        remainingPayments: 3,
        remainingAmount: (3n * parseUnits('10.1', 18)).toString(),
        processedPayments: 0,
        totalPayments: 3,
      })
      const twice = await call('PATCH', path, apiKey, { action: 'cancel' })
      expect([twice.status, twice.body]).toEqual([400, badRequest('Recurring payment is already cancelled')])
      assertMatchesExample('full', 'PATCH', '/v2/payouts/recurring/{id}', 400, 'alreadyCancelled', twice.body)
      const activate = await call('POST', path, apiKey, { permitSignature: `0x${'1'.repeat(130)}` })
      expect(activate.body).toEqual(badRequest('Recurring payment is cancelled'))
      const read = await call('GET', path, apiKey)
      expect(read.body).toMatchObject({ status: 'cancelled', nextPaymentDate: null })
      // The payout's original request is marked as no longer recurring.
      const world = t.sandbox.shared.tenants.get(apiKey)
      const [original] = requestState(world).requests.all()
      expect(original!.isRecurrenceStopped).toBe(true)
    })

    it('stops and resumes a recurring invoice with PATCH /v2/request/{requestId} (200, no body), as real clients call it', async () => {
      const apiKey = newApiKey()
      const created = await call('POST', '/v2/request', apiKey, {
        ...base,
        invoiceCurrency: 'USD',
        paymentCurrency: 'ETH-sepolia-sepolia',
        recurrence: { startDate: tomorrow(), frequency: 'MONTHLY' },
      })
      const path = `/v2/request/${created.body.requestId}`
      for (const isRecurrenceStopped of [true, false]) {
        const patched = await call('PATCH', path, apiKey, { isRecurrenceStopped })
        expect(patched.status).toBe(200)
        expect(patched.text).toBe('')
        expect((await call('GET', path, apiKey)).body).toMatchObject({
          isRecurrenceStopped,
          recurrence: { frequency: 'MONTHLY' },
        })
      }
      const invalid = await call('PATCH', path, apiKey, { isRecurrenceStopped: 'yes' })
      expect(invalid.status).toBe(400)
      const unknown = await call('PATCH', `/v2/request/01${'0'.repeat(64)}`, apiKey, {
        isRecurrenceStopped: true,
      })
      expect(unknown.status).toBe(404)
    })
  },
)
