// Multicall payouts on Tron (api-features/payouts.mdx, Multicall payouts: "`tron_batch` — all recipients on Tron,
// settled via the Tron batch contract"; api-reference/secure-payments.mdx: derived when every child is on Tron):
// the bundle's steps signed with TronWeb unmodified and sent through /tron/broadcast, every child paid by one
// transaction of the batch contract at Request Network's published Tron address, each child detected and completed.
import { TronWeb } from 'tronweb'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import {
  freshTronAddress,
  type TronInfo,
  type TronStep,
  trc20Balance,
  tronInfo,
  tronPayoutBody,
} from './steps.ts'

/** Request Network's ERC20BatchPayments on Tron mainnet (@requestnetwork/smart-contracts, its `tron` deployment). */
const PUBLISHED_TRON_BATCH = 'TRZbXXuLd3HW5utzVysA3rpLgU7sVBrd1D'

let t: Transports
let tron: TronInfo
beforeAll(async () => {
  t = await startTransports(newApiKey, { networks: ['tron'] })
  tron = await tronInfo(t.server.url)
})
afterAll(async () => {
  await t?.close()
})

describeTransports(
  'Tron multicall payouts (tron_batch) driven by TronWeb through %s',
  () => t,
  { http: 7, msw: 8 },
  (client, payerIndex) => {
    const call = (method: string, path: string, apiKey: string, body?: unknown) =>
      client().call(method, path, { apiKey, ...(body ? { body } : {}) })
    const payout = (apiKey: string, creator: string, amount: string, recipient?: string) =>
      call('POST', '/v2/secure-payments/payouts', apiKey, tronPayoutBody(creator, amount, recipient))
    /** Signs a step with TronWeb (built by the node) and sends it through the bundle's /tron/broadcast. */
    const broadcast = async (apiKey: string, token: string, tw: TronWeb, from: string, step: TronStep) => {
      const { transaction } = await tw.transactionBuilder.triggerSmartContract(
        step.to,
        step.functionSelector,
        { feeLimit: step.feeLimit, rawParameter: step.parameter },
        [],
        from,
      )
      const signedTransaction = await tw.trx.sign(transaction)
      return call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, { signedTransaction })
    }

    it('pays three Tron payout links in one batch transaction: each child detected, completed, fees taken once', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const amounts = ['10', '2.5', '7']
      const recipients = amounts.map(() => freshTronAddress())
      const links = await Promise.all(amounts.map((a, i) => payout(apiKey, payer.address, a, recipients[i])))
      for (const l of links) expect(l.status, l.text).toBe(201)
      // no requestedExecutionKind: every child on Tron, so tron_batch
      const created = await call('POST', '/v2/secure-payments/multicall-payouts', apiKey, {
        childTokens: links.map((l) => l.body.token),
      })
      expect(created.status, created.text).toBe(201)
      const { token } = created.body
      const pay = await call('GET', `/v2/secure-payments/${token}/pay?wallet=${payer.address}`, apiKey)
      expect(pay.status, pay.text).toBe(200)
      expect(pay.body).toMatchObject({ paymentType: 'multicall', executionKind: 'tron_batch' })
      const requestIds = links.map((l) => l.body.requestIds[0])
      expect(pay.body.children.map((c: { requestId: string }) => c.requestId)).toEqual(requestIds)
      expect(pay.body.references).toHaveLength(3)
      const batchStep = pay.body.transactions.at(-1)
      expect(batchStep).toMatchObject({
        to: PUBLISHED_TRON_BATCH,
        functionSelector:
          'batchERC20PaymentsWithReference(address,address[],uint256[],bytes[],uint256[],address)',
      })
      expect(tron.contracts.ERC20BatchPayments).toBe(PUBLISHED_TRON_BATCH)
      const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
      const usdt = tron.tokens['USDT-tron']!
      const treasury = links[0]!.body.feePlan.fees.find((f: { type: string }) => f.type === 'tron_resource')
        .destinationRef.tronAddress as string
      const [treasuryBefore, payerBefore, trxBefore] = await Promise.all([
        trc20Balance(tron, usdt, treasury),
        trc20Balance(tron, usdt, payer.address),
        tw.trx.getBalance(payer.address),
      ])
      let txid = ''
      for (const step of pay.body.transactions) {
        const sent = await broadcast(apiKey, token, tw, payer.address, step)
        expect(sent.status, sent.text).toBe(200)
        expect(sent.body.result).toBe(true)
        txid = sent.body.txid
      }
      // every child paid by the one batch transaction, each detected with it
      for (const requestId of requestIds) {
        const status = await waitFor(async () => {
          const res = await call('GET', `/v2/request/${requestId}`, apiKey)
          return res.body.hasBeenPaid ? res.body : undefined
        })
        expect(status.status).toBe('paid')
        const payments = await call('GET', `/v2/payments?requestId=${requestId}`, apiKey)
        expect(payments.body.payments[0]).toMatchObject({ sourceNetwork: 'tron', sourceTxHash: txid })
      }
      const info = await tw.trx.getTransactionInfo(txid)
      expect(info.receipt.result).toBe('SUCCESS')
      const paidTo = await Promise.all(recipients.map((r) => trc20Balance(tron, usdt, r)))
      expect(paidTo).toEqual([10_000_000n, 2_500_000n, 7_000_000n])
      // the three resource fees in the same transaction, the payer charged amounts + fees, no TRX (sponsored)
      expect(await trc20Balance(tron, usdt, treasury)).toBe(treasuryBefore + 3n * 3_990_000n)
      expect(await trc20Balance(tron, usdt, payer.address)).toBe(payerBefore - 19_500_000n - 3n * 3_990_000n)
      expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore)
      // every child link and the bundle completed: 409 on their token routes; the batch is not taken twice
      await waitFor(async () => {
        const states = await Promise.all(
          [...links.map((l) => l.body.token), token].map((x) =>
            call('GET', `/v2/secure-payments/${x}`, apiKey),
          ),
        )
        return states.every((s) => s.status === 409) ? true : undefined
      })
      const again = await broadcast(apiKey, token, tw, payer.address, batchStep)
      expect(again.status).toBe(409)
    })

    it('takes only the steps the bundle expects, from its owner, and one batch of two sent at once', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
      const recipients = [freshTronAddress(), freshTronAddress()]
      const links = await Promise.all(recipients.map((r) => payout(apiKey, payer.address, '4', r)))
      const created = await call('POST', '/v2/secure-payments/multicall-payouts', apiKey, {
        childTokens: links.map((l) => l.body.token),
      })
      const { token } = created.body
      const pay = await call('GET', `/v2/secure-payments/${token}/pay?wallet=${payer.address}`, apiKey)
      expect(pay.status, pay.text).toBe(200)
      // another key cannot read or send the bundle's steps
      const stranger = newApiKey()
      expect((await call('GET', `/v2/secure-payments/${token}/pay`, stranger)).status).toBeGreaterThanOrEqual(
        400,
      )
      const foreign = await broadcast(stranger, token, tw, payer.address, pay.body.transactions[0])
      expect(foreign.status).toBeGreaterThanOrEqual(400)
      expect(foreign.status).toBeLessThan(500)
      // a transfer the bundle does not expect is refused before the chain
      const transfer = {
        to: tron.tokens['USDT-tron']!,
        functionSelector: 'transfer(address,uint256)',
        parameter: pay.body.transactions.at(-1).parameter.slice(0, 128),
        feeLimit: 100_000_000,
      }
      const refused = await broadcast(apiKey, token, tw, payer.address, transfer)
      expect(refused.status).toBe(400)
      expect(refused.body.message).toMatch(/does not match/)
      for (const step of pay.body.transactions.slice(0, -1))
        expect((await broadcast(apiKey, token, tw, payer.address, step)).status).toBe(200)
      // the batch signed twice and sent at once: one goes out, the other is refused
      const batchStep = pay.body.transactions.at(-1)
      const both = await Promise.all([
        broadcast(apiKey, token, tw, payer.address, batchStep),
        broadcast(apiKey, token, tw, payer.address, batchStep),
      ])
      // (400 while the first is in flight, 409 once it paid everything)
      const [sent, second] = both.map((r) => r.status).sort()
      expect(sent).toBe(200)
      expect([400, 409]).toContain(second)
      for (const r of recipients)
        await waitFor(async () =>
          (await trc20Balance(tron, tron.tokens['USDT-tron']!, r)) === 4_000_000n ? true : undefined,
        )
      // paid once: nothing left to send
      const after = await call('GET', `/v2/secure-payments/${token}/pay?wallet=${payer.address}`, apiKey)
      expect(after.status).toBe(409)
      for (const r of recipients)
        expect(await trc20Balance(tron, tron.tokens['USDT-tron']!, r)).toBe(4_000_000n)
    })

    it('derives tron_batch for Tron children and refuses another kind for them', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const links = await Promise.all(['1', '2'].map((a) => payout(apiKey, payer.address, a)))
      const childTokens = links.map((l) => l.body.token)
      const evm = await call('POST', '/v2/secure-payments/multicall-payouts', apiKey, {
        childTokens,
        requestedExecutionKind: 'evm_same_chain',
      })
      expect(evm.status).toBe(400)
      expect(evm.body.message).toMatch(/tron_batch/)
      const asked = await call('POST', '/v2/secure-payments/multicall-payouts', apiKey, {
        childTokens,
        requestedExecutionKind: 'tron_batch',
      })
      expect(asked.status, asked.text).toBe(201)
    })
  },
)
