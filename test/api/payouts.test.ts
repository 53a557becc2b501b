// POST /v2/payouts (one-time and recurring) and the recurring payout endpoints: shapes and every documented
// error, through both transports, validated against the official documents.
import { keccak256, parseEventLogs, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/resources/pay/abis.ts'
import { newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { assertMatchesDocument, assertMatchesExample } from '../support/openapi.ts'
import {
  freshAddress,
  fundedPayer,
  recurringBody,
  sendApiTransaction,
  signPermit,
} from '../support/payouts.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const payer = '0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570'
const badRequest = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' })
const notFound = { statusCode: 404, message: 'Recurring payment not found', error: 'Not Found' }
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const chain = () => t.sandbox.chain!

describe.each(['http', 'msw'] as const)('payouts through %s', (transport) => {
  const client = () => t.clients.find((c) => c.transport === transport)!
  const call = (method: string, path: string, apiKey: string, body?: unknown) =>
    client().call(method, path, { apiKey, ...(body === undefined ? {} : { body }) })

  it('creates a one-time ERC-20 payout as a request plus the pay calldata, which executes on chain', async () => {
    const apiKey = newApiKey()
    const account = await fundedPayer(chain(), chain().tokens['FAU-sepolia']!, '200')
    const feeAddress = freshAddress()
    const res = await call('POST', '/v2/payouts', apiKey, {
      payee,
      amount: '100',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      feePercentage: '0.01',
      feeAddress,
      payerAddress: account.address,
      customerInfo: { firstName: 'John', lastName: 'Doe', email: 'john.doe@example.com' },
      reference: 'ORDER-2024-001234',
    })
    expect(res.status).toBe(201)
    assertMatchesDocument('v2', 'POST', '/v2/payouts', 201, res.body)
    assertMatchesDocument('full', 'POST', '/v2/payouts', 201, res.body)
    assertMatchesExample('v2', 'POST', '/v2/payouts', 201, 'erc20Token', res.body, ['transactions.value'])
    expect(res.body.metadata).toMatchObject({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: true,
    })
    const request = await call('GET', `/v2/request/${res.body.requestId}`, apiKey)
    expect(request.body).toMatchObject({
      paymentReference: res.body.paymentReference,
      reference: 'ORDER-2024-001234',
      customerInfo: { firstName: 'John' },
    })
    let receipt: Awaited<ReturnType<typeof sendApiTransaction>> | undefined
    for (const tx of res.body.transactions) receipt = await sendApiTransaction(chain(), account, tx)
    const [log] = parseEventLogs({ abi: erc20FeeProxyAbi, logs: receipt!.logs })
    expect(log!.topics[1]).toBe(keccak256(res.body.paymentReference))
    expect(log!.args).toMatchObject({
      to: payee,
      amount: parseUnits('100', 18),
      feeAmount: parseUnits('0.01', 18),
    })
  })

  it('creates a one-time native payout with one transaction carrying the amount', async () => {
    const res = await call('POST', '/v2/payouts', newApiKey(), {
      payee,
      amount: '0.001',
      invoiceCurrency: 'ETH-sepolia-sepolia',
      paymentCurrency: 'ETH-sepolia-sepolia',
    })
    expect(res.status).toBe(201)
    assertMatchesExample('v2', 'POST', '/v2/payouts', 201, 'nativeCurrency', res.body)
    expect(res.body.transactions).toHaveLength(1)
    expect(res.body.transactions[0].value).toEqual({ type: 'BigNumber', hex: '0x038d7ea4c68000' })
  })

  it('refuses a one-time payout it cannot build calldata for, and keeps no request of it', async () => {
    const apiKey = newApiKey()
    const res = await call('POST', '/v2/payouts', apiKey, {
      payee,
      amount: '10',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Bad Request')
    expect(t.sandbox.shared.tenants.get(apiKey).requests.size).toBe(0)
  })

  const base = { payee, amount: '10', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' }
  const recurrence = { startDate: tomorrow(), frequency: 'DAILY', totalPayments: 3, payer }
  it.each([
    ['no payee', { ...base, payee: undefined }, 'payee'],
    ['a payee that is no address', { ...base, payee: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' }, 'payee'],
    ['amount zero', { ...base, amount: '0' }, 'amount'],
    ['a fee percentage without fee address', { ...base, feePercentage: '1' }, 'feeAddress'],
    ['a fee percentage over 100', { ...base, feePercentage: '101', feeAddress: payee }, 'feePercentage'],
    ['an unknown payment currency', { ...base, paymentCurrency: 'NOPE-sepolia' }, 'paymentCurrency'],
    ['1 payment', { ...base, recurrence: { ...recurrence, totalPayments: 1 } }, 'recurrence.totalPayments'],
    [
      '256 payments',
      { ...base, recurrence: { ...recurrence, totalPayments: 256 } },
      'recurrence.totalPayments',
    ],
    [
      'an HOURLY frequency',
      { ...base, recurrence: { ...recurrence, frequency: 'HOURLY' } },
      'recurrence.frequency',
    ],
    ['no payer', { ...base, recurrence: { ...recurrence, payer: undefined } }, 'recurrence.payer'],
    ['the payee as payer', { ...base, recurrence: { ...recurrence, payer: payee } }, 'recurrence.payer'],
    [
      'a malformed start date',
      { ...base, recurrence: { ...recurrence, startDate: '01/02/2030' } },
      'recurrence.startDate',
    ],
    [
      'a start date in the past',
      { ...base, recurrence: { ...recurrence, startDate: '2020-01-01' } },
      'recurrence.startDate',
    ],
    [
      'native currency',
      { ...base, invoiceCurrency: 'ETH-sepolia-sepolia', paymentCurrency: 'ETH-sepolia-sepolia', recurrence },
      'paymentCurrency',
    ],
    ['a conversion', { ...base, invoiceCurrency: 'USD', recurrence }, 'invoiceCurrency'],
  ])('rejects a payout with %s: 400 Validation failed naming the field', async (_name, body, field) => {
    const res = await call('POST', '/v2/payouts', newApiKey(), body)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
  })

  it('refuses a recurring payout on a network the sandbox does not run, saying how to run it', async () => {
    const res = await call('POST', '/v2/payouts', newApiKey(), {
      ...base,
      invoiceCurrency: 'USDC-base',
      paymentCurrency: 'USDC-base',
      recurrence,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      badRequest('Recurring payments on base need its chain: start the sandbox with --networks base'),
    )
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
    const [original] = world.requests.all()
    expect(original!.isRecurrenceStopped).toBe(true)
  })

  it('counts the allowance other running payouts of the payer need, and asks for no approval when it is there', async () => {
    const apiKey = newApiKey()
    const fau = chain().tokens['FAU-sepolia']!
    const account = await fundedPayer(chain(), fau)
    const body = { ...recurringBody(account.address), recurrence: { ...recurrence, payer: account.address } }
    const per = parseUnits('10.1', 18)
    const first = await call('POST', '/v2/payouts', apiKey, body)
    await sendApiTransaction(chain(), account, first.body.transactions[0])
    const path = `/v2/payouts/recurring/${first.body.id}`
    await call('POST', path, apiKey, {
      permitSignature: await signPermit(account, first.body.recurringPaymentPermit),
    })
    const second = await call('POST', '/v2/payouts', apiKey, body)
    expect(second.body.metadata).toEqual({
      stepsRequired: 2,
      totalNeededAllowance: (6n * per).toString(),
      currentAllowance: (3n * per).toString(),
      additionalAllowanceNeeded: (3n * per).toString(),
      existingPaymentsAmount: (3n * per).toString(),
    })
    await sendApiTransaction(chain(), account, second.body.transactions[0])
    expect(
      await chain().allowance(
        fau,
        account.address,
        second.body.recurringPaymentPermit.domain.verifyingContract,
      ),
    ).toBe(6n * per)
    await call('PATCH', path, apiKey, { action: 'cancel' })
    const third = await call('POST', '/v2/payouts', apiKey, body)
    expect(third.body.transactions).toEqual([])
    expect(third.body.metadata).toMatchObject({ stepsRequired: 1, additionalAllowanceNeeded: '0' })
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
})
