// Batch payouts: several requests paid in one BatchConversionPayments transaction, each detected from its own log.
import { type Address, decodeFunctionData, type Hex, maxUint256, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { batchConversionPaymentsAbi, erc20Abi } from '../../src/chain/index.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { erc20PaymentLogs, ethPaymentLogs, walletOn } from '../support/crosschain.ts'
import { assertMatchesDocument, assertMatchesExample } from '../support/openapi.ts'
import { waitFor } from '../support/wait.ts'

const t = useTransports(newApiKey, { networks: ['sepolia', 'base'] })

const BATCH = '/v2/payouts/batch'
const feeAddress: Address = '0x1111111111111111111111111111111111111111'
const freshPayee = () => privateKeyToAccount(generatePrivateKey()).address

/** The batch answer has the keys of the documented examples (their schema names other keys, see ARCHITECTURE.md). */
function expectDocumented(body: { ERC20ApprovalTransactions: unknown[] }) {
  const example = body.ERC20ApprovalTransactions.length
    ? 'erc20_and_eth_with_approval'
    : 'erc20_and_eth_no_approval'
  for (const doc of ['full', 'v2'] as const) assertMatchesExample(doc, 'POST', BATCH, 201, example, body)
}

describeTransports(
  'batch payouts through %s',
  () => t,
  { http: [5, 7] as const, msw: [6, 8] as const },
  (client, [payerIndex, secondPayerIndex]) => {
    const sepolia = () => t.sandbox.chains.get('sepolia')!
    const base = () => t.sandbox.chains.get('base')!
    const batch = (apiKey: string, body: unknown) => client().call('POST', BATCH, { apiKey, body })
    /** Each request reads as paid through the API (the detector saw its own log) and got its payment.confirmed. */
    async function expectPaid(apiKey: string, ids: string[]) {
      for (const id of ids) {
        const status = await waitFor(async () => {
          const res = await client().call('GET', `/v2/request/${id}`, { apiKey })
          return res.body.hasBeenPaid ? res.body : undefined
        })
        expect(status).toMatchObject({ hasBeenPaid: true, status: 'paid' })
      }
      const confirmed = t.sandbox.shared.tenants
        .get(apiKey)
        .events.filter((e) => e.type === 'payment.confirmed')
        .map((e) => e.payload.requestId)
      expect(confirmed.sort()).toEqual([...ids].sort())
    }

    it('pays three ERC-20 requests in one transaction after one approval per token; each request has its own log', async () => {
      const apiKey = newApiKey()
      const payer = walletOn(client(), sepolia(), payerIndex)
      const items = [
        {
          payee: freshPayee(),
          amount: '2',
          invoiceCurrency: 'USDC-sepolia',
          paymentCurrency: 'USDC-sepolia',
        },
        {
          payee: freshPayee(),
          amount: '3.5',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
        },
        {
          payee: freshPayee(),
          amount: '4',
          invoiceCurrency: 'fUSDT-sepolia',
          paymentCurrency: 'fUSDT-sepolia',
        },
      ]
      const res = await batch(apiKey, {
        requests: items,
        payer: payer.account.address,
        feePercentage: '1',
        feeAddress,
      })
      expect(res.status).toBe(201)
      expectDocumented(res.body)
      const contract = sepolia().contracts.BatchConversionPayments!
      expect(contract).toBe('0x67818703c92580c0e106e401F253E8A410A66f8B')
      const approvals = res.body.ERC20ApprovalTransactions as { to: Address; data: Hex; value: number }[]
      expect(approvals.map((a) => a.to).sort()).toEqual(
        items.map((i) => sepolia().tokens[i.paymentCurrency]).sort(),
      )
      for (const approval of approvals) {
        expect(approval.value).toBe(0)
        expect(decodeFunctionData({ abi: erc20Abi, data: approval.data }).args).toEqual([
          contract,
          maxUint256,
        ])
      }
      const tx = res.body.batchPaymentTransaction
      expect(tx).toMatchObject({ to: contract, value: { type: 'BigNumber', hex: '0x00' } })
      expect(tx.data.slice(0, 10)).toBe('0x92cddb91')
      expect(decodeFunctionData({ abi: batchConversionPaymentsAbi, data: tx.data }).functionName).toBe(
        'batchPayments',
      )

      for (const approval of approvals) await payer.send(approval)
      const receipt = await payer.send(tx)
      const records = requestState(t.sandbox.shared.tenants.get(apiKey)).requests.all()
      expect(records).toHaveLength(3)
      for (const item of items) {
        const record = records.find((r) => r.payee === item.payee)!
        expect(record.payer).toBe(payer.account.address)
        const logs = await erc20PaymentLogs(sepolia(), record.paymentReference as Hex)
        expect(logs).toHaveLength(1)
        expect(logs[0]!.transactionHash).toBe(receipt.transactionHash)
        const decimals = item.paymentCurrency === 'FAU-sepolia' ? 18 : 6
        const amount = parseUnits(item.amount, decimals)
        expect(logs[0]!.args).toMatchObject({
          tokenAddress: sepolia().tokens[item.paymentCurrency],
          to: item.payee,
          amount,
          feeAmount: amount / 100n,
          feeAddress,
        })
        expect(await sepolia().balanceOf(sepolia().tokens[item.paymentCurrency]!, item.payee)).toBe(amount)
      }
      await expectPaid(
        apiKey,
        records.map((r) => r.requestId),
      )
    })

    it('pays two ETH requests on base in one transaction whose value is their sum, with no approval', async () => {
      const apiKey = newApiKey()
      const payer = walletOn(client(), base(), payerIndex)
      const items = [
        {
          payee: freshPayee(),
          amount: '0.25',
          invoiceCurrency: 'ETH-base-base',
          paymentCurrency: 'ETH-base-base',
        },
        {
          payee: freshPayee(),
          amount: '0.5',
          invoiceCurrency: 'ETH-base-base',
          paymentCurrency: 'ETH-base-base',
        },
      ]
      const res = await batch(apiKey, { requests: items, payer: payer.account.address })
      expect(res.status).toBe(201)
      expectDocumented(res.body)
      expect(res.body.ERC20ApprovalTransactions).toEqual([])
      expect(res.body.batchPaymentTransaction).toMatchObject({
        to: '0x1aF3f22685AcdDc788B3730ed415912d8f654420',
        value: { type: 'BigNumber', hex: '0x0a688906bd8b0000' },
      })
      const receipt = await payer.send(res.body.batchPaymentTransaction)
      for (const record of requestState(t.sandbox.shared.tenants.get(apiKey)).requests.all()) {
        const logs = await ethPaymentLogs(base(), record.paymentReference as Hex)
        expect(logs).toHaveLength(1)
        expect(logs[0]!.transactionHash).toBe(receipt.transactionHash)
        const expected = record.amount === '0.25' ? 250_000_000_000_000_000n : 500_000_000_000_000_000n
        expect(logs[0]!.args).toMatchObject({ to: record.payee, amount: expected, feeAmount: 0n })
        expect(await base().balanceOf('native', record.payee as Address)).toBe(expected)
      }
      await expectPaid(
        apiKey,
        requestState(t.sandbox.shared.tenants.get(apiKey))
          .requests.all()
          .map((r) => r.requestId),
      )
    })

    it('pays existing requests by requestIds and answers no approval once the payer has approved', async () => {
      const apiKey = newApiKey()
      const payer = walletOn(client(), sepolia(), secondPayerIndex)
      const ids: string[] = []
      for (const amount of ['1', '1.5']) {
        const created = await client().call('POST', '/v2/request', {
          apiKey,
          body: {
            amount,
            invoiceCurrency: 'USDC-sepolia',
            paymentCurrency: 'USDC-sepolia',
            payee: freshPayee(),
          },
        })
        ids.push(created.body.requestId)
      }
      const first = await batch(apiKey, { requestIds: ids, payer: payer.account.address })
      expect(first.status).toBe(201)
      expect(first.body.ERC20ApprovalTransactions).toHaveLength(1)
      await payer.send(first.body.ERC20ApprovalTransactions[0])
      const second = await batch(apiKey, { requestIds: ids, payer: payer.account.address })
      expect(second.body.ERC20ApprovalTransactions).toEqual([])
      expectDocumented(second.body)
      await payer.send(second.body.batchPaymentTransaction)
      for (const id of ids) {
        const { paymentReference } = requestState(t.sandbox.shared.tenants.get(apiKey)).requests.get(id)!
        expect(await erc20PaymentLogs(sepolia(), paymentReference as Hex)).toHaveLength(1)
      }
      await expectPaid(apiKey, ids)
      const again = await batch(apiKey, { requestIds: ids, payer: payer.account.address })
      expect(again.status).toBe(400)
      expect(again.body.message).toBe(`Request ${ids[0]} has already been paid`)
    })

    it('refuses requests on different networks with the documented 400 and creates none', async () => {
      const apiKey = newApiKey()
      const res = await batch(apiKey, {
        requests: [
          {
            payee: freshPayee(),
            amount: '1',
            invoiceCurrency: 'USDC-sepolia',
            paymentCurrency: 'USDC-sepolia',
          },
          { payee: freshPayee(), amount: '1', invoiceCurrency: 'USDC-base', paymentCurrency: 'USDC-base' },
        ],
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        statusCode: 400,
        message: 'All requests must be on the same network',
        error: 'Bad Request',
      })
      assertMatchesDocument('full', 'POST', BATCH, 400, res.body)
      expect(requestState(t.sandbox.shared.tenants.get(apiKey)).requests.size).toBe(0)
    })

    it('refuses both or neither of requests and requestIds, unknown ids and currencies, duplicates and conversion', async () => {
      const apiKey = newApiKey()
      const item = {
        payee: freshPayee(),
        amount: '1',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
      }
      const neither = await batch(apiKey, { payer: feeAddress })
      expect(neither.body).toEqual({
        statusCode: 400,
        message: 'Validation failed',
        errors: [
          { field: 'requests', message: 'Either requests or requestIds must be provided, but not both' },
        ],
      })
      const both = await batch(apiKey, { requests: [item], requestIds: ['01ab'] })
      expect(both.body.errors[0].message).toBe('Either requests or requestIds must be provided, but not both')
      const unknown = await batch(apiKey, { requestIds: [`01${'ab'.repeat(32)}`] })
      expect(unknown.status).toBe(404)
      expect(unknown.body.message).toBe('Request not found')
      const currency = await batch(apiKey, { requests: [item, { ...item, paymentCurrency: 'NOPE-sepolia' }] })
      expect(currency.body.errors).toEqual([
        { field: 'requests.1.paymentCurrency', message: 'Currency NOPE-sepolia not found' },
      ])
      const created = await client().call('POST', '/v2/request', { apiKey, body: item })
      const twice = await batch(apiKey, { requestIds: [created.body.requestId, created.body.requestId] })
      expect(twice.body.message).toBe(`requestIds lists ${created.body.requestId} twice`)
      // conversion rows are paid (test/payouts/batch-payouts-conversion.test.ts); one without a route is refused
      const conversion = await batch(apiKey, {
        requests: [{ ...item, invoiceCurrency: 'CNY', paymentCurrency: 'ETH-sepolia-sepolia' }],
      })
      expect(conversion.status).toBe(400)
      expect(conversion.body.message).toBe('No conversion route from CNY to ETH-sepolia-sepolia')
      expect(requestState(t.sandbox.shared.tenants.get(apiKey)).requests.size).toBe(1)
    })
  },
)
