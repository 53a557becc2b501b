// A crypto-to-fiat request is paid to the sandbox's off-ramp deposit address; once detected, the off-ramp
// walks through the documented sub-statuses on the tenant clock and ends as the world's rules say.
import { type Address, decodeFunctionData, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/resources/pay/abis.ts'
import { execute, until } from '../support/chain.ts'
import { newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

describe.each([
  ['http', 5],
  ['msw', 6],
] as const)('crypto-to-fiat payments through %s', (transport, account) => {
  const client = () => t.clients.find((c) => c.transport === transport)!
  const world = (apiKey: string) => t.sandbox.shared.tenants.get(apiKey)
  const advance = (apiKey: string, seconds: number) =>
    client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds } })

  async function payOfframp(apiKey: string) {
    const created = await client().call('POST', '/v2/request', {
      apiKey,
      body: {
        amount: '50',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
        isCryptoToFiatAvailable: true,
      },
    })
    const { requestId } = created.body
    const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
    const call = decodeFunctionData({ abi: erc20FeeProxyAbi, data: pay.body.transactions.at(-1).data })
    expect(call.args[1]).toBe(t.sandbox.shared.offrampAddress)
    await execute(t.sandbox, pay.body.transactions, account)
    const status = () => client().call('GET', `/v2/request/${requestId}`, { apiKey })
    const { value } = await until(status, (r) => r.body.payments.length === 1)
    return { requestId: requestId as string, status, first: value }
  }
  const processing = (apiKey: string) =>
    world(apiKey)
      .events.filter((e) => e.type === 'payment.processing')
      .map((e) => e.payload.subStatus)

  it('moves an off-ramp through its sub-statuses to fiat_sent, then confirms the request as crypto-to-fiat', async () => {
    const apiKey = newApiKey()
    const usdc = t.sandbox.chain!.tokens['USDC-sepolia']!
    const before = await t.sandbox.chain!.balanceOf(usdc, t.sandbox.shared.offrampAddress as Address)
    const { requestId, status, first } = await payOfframp(apiKey)
    expect(await t.sandbox.chain!.balanceOf(usdc, t.sandbox.shared.offrampAddress as Address)).toBe(
      before + parseUnits('50', 6),
    )
    expect(first.body).toMatchObject({
      hasBeenPaid: false,
      status: 'processing',
      subStatus: 'initiated',
      isListening: false,
    })
    assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, first.body)
    expect(processing(apiKey)).toEqual(['initiated'])
    expect(world(apiKey).events[0]!.payload).toMatchObject({
      event: 'payment.processing',
      requestId,
      requestID: requestId,
      subStatus: 'initiated',
      paymentProcessor: 'request-tech',
      offrampId: expect.stringMatching(/^offramp_/),
    })

    for (const expected of ['pending_internal_assessment', 'ongoing_checks', 'sending_fiat']) {
      await advance(apiKey, 5)
      expect((await status()).body).toMatchObject({
        hasBeenPaid: false,
        status: 'processing',
        subStatus: expected,
      })
    }
    await advance(apiKey, 5)
    const done = await status()
    expect(done.body).toMatchObject({ hasBeenPaid: true, status: 'paid', subStatus: 'fiat_sent' })
    expect(world(apiKey).events.map((e) => e.type)).toEqual([
      ...Array(5).fill('payment.processing'),
      'payment.confirmed',
    ])
    expect(processing(apiKey)).toEqual([
      'initiated',
      'pending_internal_assessment',
      'ongoing_checks',
      'sending_fiat',
      'fiat_sent',
    ])
    expect(world(apiKey).events.at(-1)!.payload).toMatchObject({
      event: 'payment.confirmed',
      requestId,
      isCryptoToFiat: true,
      subStatus: 'fiat_sent',
      amount: '50.0',
      paymentProcessor: 'request-tech',
    })
  })

  it.each(['failed', 'bounced'] as const)(
    'ends in %s when the world says so, with payment.failed',
    async (outcome) => {
      const apiKey = newApiKey()
      world(apiKey).rules.offrampOutcome = outcome
      const { status } = await payOfframp(apiKey)
      await advance(apiKey, 30)
      expect((await status()).body).toMatchObject({
        hasBeenPaid: false,
        status: 'failed',
        subStatus: outcome,
      })
      expect(processing(apiKey).at(-1)).toBe(outcome)
      const failed = world(apiKey).events.filter((e) => e.type === 'payment.failed')
      expect(failed).toHaveLength(1)
      expect(failed[0]!.payload).toMatchObject({ subStatus: outcome, paymentProcessor: 'request-tech' })
      expect(world(apiKey).events.some((e) => e.type === 'payment.confirmed')).toBe(false)
    },
  )
})
