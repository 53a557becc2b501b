// Reconciliation fields as the 2026 pages describe them, through both transports, on the local chain.
// Pages (RequestNetwork/mintlify-docs): api-features/query-requests.mdx (payerAddress, payerEoaAddress, paidAmount,
// receivedAmount, excessAmount, detectionSource, note, payee; GET /v2/request without walletAddress lists the caller's
// scope), api-features/create-requests.mdx ("prevents overpayment by capping amounts to the remaining balance"),
// api-reference/webhooks.mdx and use-cases/quickstart.mdx (payment events carry payerAddress, payerEoaAddress, payee).
import { concat, encodeFunctionData, erc20Abi, getAddress, type Hex, parseUnits } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import { freshAddress, payer, untilPaid } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports()
})
afterAll(async () => t?.close())

/**
 * A minimal smart account for the test: it calls `address(calldata[0:20])` with `calldata[20:]` and reverts when
 * that call fails (so the tokens it pays with leave its own balance, while an EOA signs the transaction).
 */
const INIT = `0x${'6024'}80${'600b'}6000396000f3`
const RUNTIME = [
  '6014',
  '36',
  '03',
  '80',
  '6014',
  '6000',
  '37', // calldatacopy(0, 20, calldatasize - 20)
  '6000',
  '6000',
  '82',
  '6000',
  '6000', // retSize, retOffset, argsSize, argsOffset, value
  '6000',
  '35',
  '6060',
  '1c',
  '5a',
  'f1', // target = calldata[0:20]; call(gas, target, …)
  '6022',
  '57',
  '6000',
  '80',
  'fd',
  '5b',
  '00', // revert unless it succeeded
].join('')

describeTransports(
  'reconciliation fields through %s',
  () => t,
  { http: 7, msw: 8 },
  (client, account) => {
    const create = async (apiKey: string, amount = '10', headers?: Record<string, string>) => {
      const res = await client().call('POST', '/v2/request', {
        ...(headers ? { apiKey: null, headers } : { apiKey }),
        body: {
          amount,
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee: freshAddress(),
        },
      })
      expect(res.status).toBe(201)
      return res.body as { requestId: string; paymentReference: Hex }
    }

    /** Pays `amount` FAU to the request's reference straight through ERC20FeeProxy (what /pay would never build). */
    const payThroughProxy = async (proxy: Hex, payee: Hex, paymentReference: Hex, amount: string) => {
      const { wallet, publicClient } = payer(t.sandbox, account)
      const token = t.sandbox.chain!.tokens['FAU-sepolia']!
      const units = parseUnits(amount, 18)
      for (const tx of [
        {
          to: token,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [proxy, units] }),
        },
        {
          to: proxy,
          data: encodeFunctionData({
            abi: erc20FeeProxyAbi,
            functionName: 'transferFromWithReferenceAndFee',
            args: [token, payee, units, paymentReference, 0n, proxy],
          }),
        },
      ]) {
        const hash = await wallet.sendTransaction(tx)
        await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 5 })
      }
    }

    it('caps /pay to what is still owed, and reports an overpayment made on chain as its excess', async () => {
      const apiKey = newApiKey()
      const { requestId, paymentReference } = await create(apiKey)
      const { account: eoa } = payer(t.sandbox, account)
      const exact = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { wallet: eoa.address },
      })
      const asked = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { wallet: eoa.address, amount: '15.25' },
      })
      expect(asked.status).toBe(200)
      expect(asked.body.transactions).toEqual(exact.body.transactions)
      // an overpayment the API would not build: the payer calls the proxy with more than the request's amount
      const status0 = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
      const payee = status0.body.payee as Hex
      expect(payee).toMatch(/^0x/)
      await payThroughProxy(exact.body.transactions.at(-1).to, payee, paymentReference, '15.25')
      const { value: res } = await untilPaid(client(), apiKey, requestId)
      expect(res.body).toMatchObject({
        status: 'paid',
        requestAmount: '10',
        paidAmount: '15.25',
        receivedAmount: '15.25',
        remainingAmount: '0',
        excessAmount: '5.25',
        payee,
        payerAddress: eoa.address,
        payerEoaAddress: eoa.address,
        detectionSource: 'request-network',
        note: null,
      })
      const confirmed = t.sandbox.shared.tenants
        .get(apiKey)
        .events.find((e) => e.type === 'payment.confirmed')!
      expect(confirmed.payload).toMatchObject({
        payerAddress: eoa.address,
        payerEoaAddress: eoa.address,
        payee,
        totalAmountPaid: '15.25',
        expectedAmount: '10.0',
        excessAmount: '5.25',
      })
      const again = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { amount: '1' },
      })
      expect(again.status).toBe(400)
    })

    // release-notes/request-api.mdx (2026-Q1 • Accounting): "Paid / received / excess amount fields on the Payment
    // model and webhook payloads … the API now also returns `excessAmount` when a payer overpays";
    // api-reference/webhooks.mdx: the `.client_id` variant is "Same as `payment.confirmed`".
    it('puts excessAmount in payment.confirmed and its .client_id variant when a payer overpays, not before', async () => {
      const apiKey = newApiKey()
      const ids = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'shop', allowedDomains: ['https://shop.example.com'] },
      })
      const asClient = { 'x-client-id': ids.body.clientId as string, origin: 'https://shop.example.com' }
      const { requestId, paymentReference } = await create(apiKey, '10', asClient)
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      const proxy = pay.body.transactions.at(-1).to as Hex
      const payee = (await client().call('GET', `/v2/request/${requestId}`, { apiKey })).body.payee as Hex
      const world = t.sandbox.shared.tenants.get(apiKey)
      await payThroughProxy(proxy, payee, paymentReference, '4')
      const partial = await waitFor(() => world.events.find((e) => e.type === 'payment.partial'))
      expect(partial.payload).toMatchObject({ totalAmountPaid: '4.0', expectedAmount: '10.0' })
      expect(partial.payload).not.toHaveProperty('excessAmount')
      await payThroughProxy(proxy, payee, paymentReference, '8.5')
      await untilPaid(client(), apiKey, requestId)
      const confirmed = await waitFor(() => {
        const found = world.events.filter((e) => e.type.startsWith('payment.confirmed'))
        return found.length === 2 ? found : undefined
      })
      expect(confirmed.map((e) => e.type)).toEqual(['payment.confirmed', 'payment.confirmed.client_id'])
      for (const event of confirmed) {
        expect(event.payload).toMatchObject({
          requestId,
          amount: '8.5',
          totalAmountPaid: '12.5',
          expectedAmount: '10.0',
          excessAmount: '2.5',
        })
      }
      const status = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
      expect(status.body.excessAmount).toBe('2.5')
    })

    it('tells a smart-account payer from the EOA that signed', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '3')
      const before = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
      expect(before.body).toMatchObject({
        payerAddress: null,
        payerEoaAddress: null,
        detectionSource: null,
        receivedAmount: '0',
      })
      const { wallet, publicClient, account: eoa } = payer(t.sandbox, account)
      const deployHash = await wallet.sendTransaction({ data: `${INIT}${RUNTIME}` as Hex })
      const deployed = await publicClient.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 5 })
      const smartAccount = getAddress(deployed.contractAddress!)
      expect(smartAccount).toMatch(/^0x/)
      const funded = await client().call('POST', '/__sandbox/faucet', {
        apiKey,
        body: { address: smartAccount, currency: 'FAU-sepolia', amount: '5' },
      })
      expect(funded.status).toBe(200)
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { wallet: smartAccount },
      })
      for (const tx of pay.body.transactions as { to: Hex; data: Hex }[]) {
        const hash = await wallet.sendTransaction({ to: smartAccount, data: concat([tx.to, tx.data]) })
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 5 })
        expect(receipt.status).toBe('success')
      }
      const { value: res } = await untilPaid(client(), apiKey, requestId)
      expect(res.body).toMatchObject({ payerAddress: smartAccount, payerEoaAddress: eoa.address })
      const confirmed = t.sandbox.shared.tenants
        .get(apiKey)
        .events.find((e) => e.type === 'payment.confirmed')!
      expect(confirmed.payload).toMatchObject({ payerAddress: smartAccount, payerEoaAddress: eoa.address })
    })

    it('lists the caller’s scope without walletAddress: the account’s requests, by key or by client ID', async () => {
      const apiKey = newApiKey()
      const ids = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'shop', allowedDomains: ['https://shop.example.com'] },
      })
      const asClient = { 'x-client-id': ids.body.clientId as string, origin: 'https://shop.example.com' }
      const byKey = await create(apiKey)
      const byClient = await create(apiKey, '2', asClient)
      const all = await client().call('GET', '/v2/request', { apiKey })
      expect(all.status).toBe(200)
      expect(all.body.requests.map((r: { requestId: string }) => r.requestId)).toEqual([
        byClient.requestId,
        byKey.requestId,
      ])
      const own = await client().call('GET', '/v2/request', { apiKey: null, headers: asClient })
      expect(own.body).toEqual(all.body)
      expect(all.body.pagination).toMatchObject({ total: 2 })
      const other = await client().call('GET', '/v2/request', { apiKey: newApiKey() })
      expect(other.body.requests).toEqual([])
      const bad = await client().call('GET', '/v2/request', { apiKey, query: { walletAddress: 'nope' } })
      expect(bad.status).toBe(400)
    })
  },
)
