// POST /v1/pay: a request created and its calldata returned in one call (requestID, paymentReference,
// transactions, metadata, as the FULL document's examples); the calldata, sent from an anvil default account,
// pays on chain and the payment is detected like any other.
import { describe, expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesExample } from '../support/openapi.ts'

const t = useTransports()

describe.each([
  ['http', 1],
  ['msw', 2],
] as const)('POST /v1/pay through %s', (transport, account) => {
  const client = () => t.clients.find((c) => c.transport === transport)!
  const pay = (apiKey: string | null, body: unknown) => client().call('POST', '/v1/pay', { apiKey, body })

  it('creates an ERC-20 request with its calldata; the calldata pays it on chain and the payment is detected', async () => {
    const apiKey = newApiKey()
    const payee = freshAddress()
    const res = await pay(apiKey, {
      payee,
      amount: '12.5',
      invoiceCurrency: 'USDC-sepolia',
      paymentCurrency: 'USDC-sepolia',
    })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['requestID', 'paymentReference', 'transactions', 'metadata'])
    assertMatchesExample('full', 'POST', '/v1/pay', 201, 'erc20Token', res.body, ['transactions.value'])
    expect(res.body.requestID).toMatch(/^01[0-9a-f]{64}$/)
    expect(res.body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/)
    expect(res.body.metadata).toMatchObject({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
    })

    // the request exists like any other: readable by reference (v1) and id (v2)
    const before = await client().call('GET', `/v1/request/${res.body.paymentReference}`, { apiKey })
    expect(before.body).toMatchObject({ requestId: res.body.requestID, hasBeenPaid: false })

    const receipts = await execute(t.sandbox, res.body.transactions, account)
    const txHash = receipts.at(-1)!.transactionHash
    const { value: paid } = await until(
      () => client().call('GET', `/v1/request/${res.body.paymentReference}`, { apiKey }),
      (r) => r.body.hasBeenPaid === true,
    )
    expect(paid.body).toEqual({
      hasBeenPaid: true,
      paymentReference: res.body.paymentReference,
      requestId: res.body.requestID,
      isListening: false,
      txHash,
    })
    const v2 = await client().call('GET', `/v2/request/${res.body.requestID}`, { apiKey })
    expect(v2.body).toMatchObject({ status: 'paid', paidAmount: '12.5', requestAmount: '12.5' })
    const events = t.sandbox.shared.tenants.get(apiKey).events.filter((e) => e.type === 'payment.confirmed')
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ requestId: res.body.requestID, txHash, amount: '12.5' }),
    ])
  })

  it('answers a native-currency payout as the nativeCurrency example: one step, no approval', async () => {
    const apiKey = newApiKey()
    const res = await pay(apiKey, {
      payee: freshAddress(),
      amount: '0.001',
      invoiceCurrency: 'ETH-sepolia-sepolia',
      paymentCurrency: 'ETH-sepolia-sepolia',
    })
    expect(res.status).toBe(201)
    assertMatchesExample('full', 'POST', '/v1/pay', 201, 'nativeCurrency', res.body)
    expect(res.body.metadata).toMatchObject({ stepsRequired: 1, needsApproval: false })
    expect(BigInt(res.body.transactions[0].value.hex)).toBe(10n ** 15n)
    await execute(t.sandbox, res.body.transactions, account)
    await until(
      () => client().call('GET', `/v2/request/${res.body.requestID}`, { apiKey }),
      (r) => r.body.hasBeenPaid === true,
    )
  })

  it.each([
    [
      'without payee',
      { amount: '1', invoiceCurrency: 'USDC-sepolia', paymentCurrency: 'USDC-sepolia' },
      'payee',
    ],
    [
      'with a malformed payee',
      { payee: '0x12', amount: '1', invoiceCurrency: 'USDC-sepolia', paymentCurrency: 'USDC-sepolia' },
      'payee',
    ],
    [
      'with a zero amount',
      {
        payee: freshAddress(),
        amount: '0',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
      },
      'amount',
    ],
    [
      'with an unknown currency',
      {
        payee: freshAddress(),
        amount: '1',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'NOPE-sepolia',
      },
      'paymentCurrency',
    ],
  ])(
    'refuses a body %s: 400 Validation failed naming the field, and creates nothing',
    async (_n, body, field) => {
      const apiKey = newApiKey()
      const res = await pay(apiKey, body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, message: 'Validation failed' })
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field)
      expect(requestState(t.sandbox.shared.tenants.get(apiKey)).requests.size).toBe(0)
    },
  )

  it('needs an API key', async () => {
    const res = await pay(null, {
      payee: freshAddress(),
      amount: '1',
      invoiceCurrency: 'USDC-sepolia',
      paymentCurrency: 'USDC-sepolia',
    })
    expect(res.status).toBe(401)
  })
})
