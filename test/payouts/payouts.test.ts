// POST /v2/payouts (one-time and recurring) and the recurring payout endpoints: shapes and every documented
// error, through both transports, validated against the official documents.
import { keccak256, parseEventLogs, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import { payoutState } from '../../src/resources/payouts/index.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, keyedCall, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument, assertMatchesExample } from '../support/openapi.ts'
import {
  freshAddress,
  fundedPayer,
  recurringBody,
  sendApiTransaction,
  signPermit,
} from '../support/payouts.ts'

const t = useTransports()

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const payer = '0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570'
const badRequest = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' })
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const chain = () => t.sandbox.chain!

describeTransports(
  'payouts through %s',
  () => t,
  (client) => {
    const call = keyedCall(client)

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
        invoiceCurrency: 'JPY',
        paymentCurrency: 'ETH-sepolia-sepolia',
      })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('Bad Request')
      expect(requestState(t.sandbox.shared.tenants.get(apiKey)).requests.size).toBe(0)
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
        {
          ...base,
          invoiceCurrency: 'ETH-sepolia-sepolia',
          paymentCurrency: 'ETH-sepolia-sepolia',
          recurrence,
        },
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

    it("answers a recurring payout with its id and its parent request's requestId and paymentReference (the V2 schema requires requestId)", async () => {
      const apiKey = newApiKey()
      const account = await fundedPayer(chain(), chain().tokens['FAU-sepolia']!)
      const res = await call('POST', '/v2/payouts', apiKey, recurringBody(account.address))
      expect(res.status).toBe(201)
      assertMatchesDocument('v2', 'POST', '/v2/payouts', 201, res.body)
      assertMatchesDocument('full', 'POST', '/v2/payouts', 201, res.body)
      expect(res.body.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      expect(res.body.requestId).toMatch(/^01[0-9a-f]{64}$/)
      // the parent request: the one the payout's child requests name as originalRequestId
      const parent = await call('GET', `/v2/request/${res.body.requestId}`, apiKey)
      expect(parent.status).toBe(200)
      expect(parent.body).toMatchObject({
        paymentReference: res.body.paymentReference,
        recurrence: { frequency: 'DAILY' },
      })
      const payout = payoutState(t.sandbox.shared.tenants.get(apiKey)).recurringPayouts.get(res.body.id)!
      expect([payout.originalRequestId, payout.originalRequestPaymentReference]).toEqual([
        res.body.requestId,
        res.body.paymentReference,
      ])
    })

    it('counts the allowance other running payouts of the payer need, and asks for no approval when it is there', async () => {
      const apiKey = newApiKey()
      const fau = chain().tokens['FAU-sepolia']!
      const account = await fundedPayer(chain(), fau)
      const body = {
        ...recurringBody(account.address),
        recurrence: { ...recurrence, payer: account.address },
      }
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
  },
)
