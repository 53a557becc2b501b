// A request learns it was paid from the chain: the calldata the API returns is sent from a wallet, the
// detector reads the proxy's log, and the status endpoints, the event log and the pay endpoint follow.
import { decodeFunctionData, encodeFunctionData, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import {
  type ApiTransaction,
  createAndPay as createAndPayWith,
  execute,
  freshAddress,
  until,
  untilPaid,
} from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

describeTransports(
  'payments detected through %s',
  () => t,
  { http: 1, msw: 2 },
  (client, account) => {
    const events = (apiKey: string) => t.sandbox.shared.tenants.get(apiKey).events

    const createAndPay = (
      apiKey: string,
      body: Record<string, unknown>,
      query: Record<string, string> = {},
    ) => createAndPayWith(t.sandbox, client(), apiKey, body, account, query)
    const status = (apiKey: string, requestId: string) =>
      client().call('GET', `/v2/request/${requestId}`, { apiKey })
    const paid = (apiKey: string, requestId: string) => untilPaid(client(), apiKey, requestId)

    it('marks an ERC-20 request paid with its transaction, payment and payment.confirmed event', async () => {
      const apiKey = newApiKey()
      const payee = freshAddress()
      const { requestId, paymentReference, receipts } = await createAndPay(apiKey, {
        amount: '25.5',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
        payee,
      })
      const txHash = receipts.at(-1)!.transactionHash
      const { value: res } = await paid(apiKey, requestId)
      expect(res.body).toMatchObject({
        hasBeenPaid: true,
        isListening: false,
        txHash,
        status: 'paid',
        paidAmount: '25.5',
        remainingAmount: '0',
      })
      expect(res.body.excessAmount).toBeUndefined()
      expect(res.body.payments).toEqual([
        expect.objectContaining({ amount: '25.5', txHash, fee: '0', network: 'sepolia', type: 'direct' }),
      ])
      expect(Date.parse(res.body.payments[0].timestamp)).not.toBeNaN()
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}', 200, res.body)
      const v1 = await client().call('GET', `/v1/request/${paymentReference}`, { apiKey })
      expect(v1.body).toEqual({ hasBeenPaid: true, paymentReference, requestId, isListening: false, txHash })
      assertMatchesDocument('full', 'GET', '/v1/request/{paymentReference}', 200, v1.body)
      const confirmed = events(apiKey).filter((e) => e.type === 'payment.confirmed')
      expect(confirmed).toHaveLength(1)
      expect(confirmed[0]!.payload).toMatchObject({
        event: 'payment.confirmed',
        requestId,
        requestID: requestId,
        paymentReference,
        amount: '25.5',
        totalAmountPaid: '25.5',
        expectedAmount: '25.5',
        txHash,
        payerAddress: t.sandbox.chain!.accounts[account]!.address,
        network: 'sepolia',
        currency: 'USDC',
        paymentCurrency: 'USDC',
        isCryptoToFiat: false,
        paymentProcessor: 'request-network',
      })
      const again = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      expect(again.status).toBe(400)
    })

    it('marks a native ETH request paid', async () => {
      const apiKey = newApiKey()
      const { requestId } = await createAndPay(apiKey, {
        amount: '0.2',
        invoiceCurrency: 'ETH-sepolia-sepolia',
        paymentCurrency: 'ETH-sepolia-sepolia',
        payee: freshAddress(),
      })
      const { value: res } = await paid(apiKey, requestId)
      expect(res.body).toMatchObject({ status: 'paid', paidAmount: '0.2', payments: [{ amount: '0.2' }] })
      expect(events(apiKey).map((e) => e.type)).toEqual(['payment.confirmed'])
    })

    it('adds up two partial payments, proposes the remainder, then completes the request', async () => {
      const apiKey = newApiKey()
      const body = {
        amount: '100',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: freshAddress(),
      }
      const first = await createAndPay(apiKey, body, { amount: '40' })
      const { value: partial } = await until(
        () => status(apiKey, first.requestId),
        (r) => r.body.payments.length === 1,
      )
      expect(partial.body).toMatchObject({
        hasBeenPaid: false,
        isListening: true,
        status: 'partially_paid',
        paidAmount: '40',
        remainingAmount: '60',
      })
      expect(events(apiKey).map((e) => e.type)).toEqual(['payment.partial'])
      expect(events(apiKey)[0]!.payload).toMatchObject({
        amount: '40.0',
        totalAmountPaid: '40.0',
        expectedAmount: '100.0',
      })

      const rest = await client().call('GET', `/v2/request/${first.requestId}/pay`, { apiKey })
      const call = decodeFunctionData({ abi: erc20FeeProxyAbi, data: rest.body.transactions.at(-1).data })
      expect(call.args[2]).toBe(parseUnits('60', 18))
      await execute(t.sandbox, rest.body.transactions, account)
      const { value: done } = await paid(apiKey, first.requestId)
      expect(done.body).toMatchObject({
        status: 'paid',
        paidAmount: '100',
        remainingAmount: '0',
        isListening: false,
      })
      expect(done.body.payments.map((p: { amount: string }) => p.amount)).toEqual(['40', '60'])
      expect(events(apiKey).map((e) => e.type)).toEqual(['payment.partial', 'payment.confirmed'])
    })

    it('pays no more than is owed when /pay is asked for more (the cap of api-features/create-requests.mdx)', async () => {
      const apiKey = newApiKey()
      const { requestId } = await createAndPay(
        apiKey,
        {
          amount: '10',
          invoiceCurrency: 'USDC-sepolia',
          paymentCurrency: 'USDC-sepolia',
          payee: freshAddress(),
        },
        { amount: '15.25' },
      )
      const { value: res } = await paid(apiKey, requestId)
      expect(res.body).toMatchObject({ status: 'paid', paidAmount: '10', remainingAmount: '0' })
      expect(res.body).not.toHaveProperty('excessAmount') // an overpayment on chain: test/requests/reconciliation.test.ts
    })

    it('does not count a payment to another payee or in another token, then counts the right one', async () => {
      const apiKey = newApiKey()
      const payee = freshAddress()
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '5', invoiceCurrency: 'USDC-sepolia', paymentCurrency: 'USDC-sepolia', payee },
      })
      const { requestId, paymentReference } = created.body
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      const [approve, payment] = pay.body.transactions as ApiTransaction[]
      const chain = t.sandbox.chain!
      const wrong = (token: string, to: string): ApiTransaction => ({
        ...payment!,
        data: encodeFunctionData({
          abi: erc20FeeProxyAbi,
          functionName: 'transferFromWithReferenceAndFee',
          args: [
            token as `0x${string}`,
            to as `0x${string}`,
            parseUnits('5', 6),
            paymentReference,
            0n,
            payment!.to as `0x${string}`,
          ],
        }),
      })
      const fauApproval: ApiTransaction = { ...approve!, to: chain.tokens['FAU-sepolia']! }
      await execute(
        t.sandbox,
        [
          approve!,
          wrong(chain.tokens['USDC-sepolia']!, freshAddress()),
          fauApproval,
          wrong(chain.tokens['FAU-sepolia']!, payee),
        ],
        account,
      )
      await t.sandbox.detectors.get('sepolia')!.sync()
      const after = await status(apiKey, requestId)
      expect(after.body).toMatchObject({ hasBeenPaid: false, status: 'pending', payments: [] })
      expect(events(apiKey)).toEqual([])
      await execute(t.sandbox, [payment!], account)
      const { value: res } = await paid(apiKey, requestId)
      expect(res.body.payments).toHaveLength(1)
    })
  },
)
