// Detection does not care who sends the payment, and follows the chain when it goes back in time.
import { type Hex, toHex } from 'viem'
import { expect, it } from 'vitest'
import {
  type ApiTransaction,
  execute,
  freshAddress,
  payer,
  until,
  untilPaid,
  weiOf,
} from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result as T
}

describeTransports(
  'the payment detector through %s',
  () => t,
  { http: 6, msw: 7 },
  (client, account) => {
    const rpcUrl = () => `${client().baseUrl}/rpc`

    async function requestWithCalldata(apiKey: string, amount = '3') {
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: {
          amount,
          invoiceCurrency: 'fUSDT-sepolia',
          paymentCurrency: 'fUSDT-sepolia',
          payee: freshAddress(),
        },
      })
      const pay = await client().call('GET', `/v2/request/${created.body.requestId}/pay`, { apiKey })
      return {
        requestId: created.body.requestId as string,
        transactions: pay.body.transactions as ApiTransaction[],
      }
    }
    const status = (apiKey: string, requestId: string) =>
      client().call('GET', `/v2/request/${requestId}`, { apiKey })

    it('detects payments sent through /rpc by a node-held key (eth_sendTransaction) and a signing wallet (eth_sendRawTransaction)', async () => {
      const apiKey = newApiKey()
      const unlocked = await requestWithCalldata(apiKey)
      const from = t.sandbox.chain!.accounts[account]!.address
      for (const tx of unlocked.transactions) {
        const hash = await rpc<Hex>(rpcUrl(), 'eth_sendTransaction', [
          { from, to: tx.to, data: tx.data, value: toHex(weiOf(tx)) },
        ])
        await until(
          () => rpc<{ status: string } | null>(rpcUrl(), 'eth_getTransactionReceipt', [hash]),
          (r) => r?.status === '0x1',
        )
      }
      const signed = await requestWithCalldata(apiKey)
      const { wallet, publicClient } = payer(t.sandbox, account, rpcUrl())
      for (const tx of signed.transactions) {
        const hash = await wallet.sendTransaction({
          to: tx.to as `0x${string}`,
          data: tx.data as `0x${string}`,
          value: weiOf(tx),
        })
        await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 5 })
      }
      for (const { requestId } of [unlocked, signed]) {
        const { value } = await untilPaid(client(), apiKey, requestId)
        expect(value.body.payments).toEqual([expect.objectContaining({ amount: '3', payer: from })])
      }
    })

    it('rolls a payment back when evm_revert removes its block, and counts it once when it is sent again', async () => {
      const apiKey = newApiKey()
      const { requestId, transactions } = await requestWithCalldata(apiKey)
      const test = t.sandbox.chain!.testClient
      const before = await test.snapshot()
      await execute(t.sandbox, transactions, account)
      await untilPaid(client(), apiKey, requestId)
      // A revert that keeps the payment's block changes nothing.
      const after = await test.snapshot()
      await test.mine({ blocks: 3 })
      await test.revert({ id: after })
      await t.sandbox.detectors.get('sepolia')!.sync()
      expect((await status(apiKey, requestId)).body.payments).toHaveLength(1)

      await test.revert({ id: before })
      const { value: rolled } = await until(
        () => status(apiKey, requestId),
        (r) => r.body.payments.length === 0,
      )
      expect(rolled.body).toMatchObject({
        hasBeenPaid: false,
        isListening: true,
        status: 'pending',
        txHash: null,
      })

      await execute(t.sandbox, transactions, account)
      const { value: paid } = await untilPaid(client(), apiKey, requestId)
      expect(paid.body.payments).toHaveLength(1)
      expect(paid.body.paidAmount).toBe('3')
    })
  },
)
