import { expect, it } from 'vitest'
import { execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import {
  asOrchestrator,
  type FeeConfigs,
  linkFreshPlatform,
  SHOP_ORIGIN,
  sepoliaBalance,
  units,
} from '../support/orchestrator-fees.ts'

const t = useTransports(newApiKey)

const TOKEN = 'FAU-sepolia' // 18 decimals, 1 USD in the sandbox's rates

describeTransports(
  'orchestrator fees on chain through %s',
  () => t,
  (client, transport) => {
    const payerIndex = transport === 'http' ? 3 : 4
    const orc = (k: string, method: string, path: string, body?: unknown) =>
      asOrchestrator(client(), k, method, path, body)
    const balance = (owner: string) => sepoliaBalance(t, owner, TOKEN)
    /** A platform client ID linked to a fresh orchestrator, with the fee configs `configs`. */
    const linkedPlatform = (configs: FeeConfigs) => linkFreshPlatform(client(), 'orc_fees', configs)
    const pairedLink = async (orchestrator: string, clientId: string, payee: string, amount: string) => {
      const res = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: { requests: [{ payee, currency: TOKEN, amount }] },
      })
      expect(res.status, res.text).toBe(201)
      return res.body
    }
    const payLink = async (token: string) => {
      const wallet = t.sandbox.shared.chains.get('sepolia')!.accounts[payerIndex]!.address
      const pay = await client().call('GET', `/__sandbox/secure-payments/${token}/pay`, {
        apiKey: null,
        query: { wallet },
      })
      expect(pay.status, pay.text).toBe(200)
      await execute(t.sandbox, pay.body.transactions, payerIndex)
      await until(
        () => client().call('GET', `/__sandbox/secure-payments/${token}`, { apiKey: null }),
        (r) => r.status === 409,
        { what: 'the link completed' },
      )
      return pay.body
    }

    it('pays a payer-borne default on top and deducts a recipient-borne override, each to its address', async () => {
      const defaultAddress = freshAddress()
      const overrideAddress = freshAddress()
      const recipientDefault = freshAddress()
      // default: 2.5 % payer-borne; default 1 % recipient-borne, replaced for this client ID by 2 % to another address
      const { orchestrator, clientId, configIds } = await linkedPlatform((clientId) => [
        { bps: 250, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: defaultAddress },
        { bps: 100, feeBearer: 'recipient', flow: 'incoming', evmRecipientAddress: recipientDefault },
        {
          bps: 200,
          feeBearer: 'recipient',
          flow: 'incoming',
          evmRecipientAddress: overrideAddress,
          clientId,
        },
        // an outgoing fee does not apply to a payment received
        { bps: 900, feeBearer: 'payer', flow: 'outgoing', evmRecipientAddress: freshAddress() },
      ])
      const payee = freshAddress()
      const link = await pairedLink(orchestrator, clientId, payee, '100')
      // the plan shows the fees as fixed at creation
      const fees = link.feePlan.fees.filter((f: { type: string }) => f.type === 'orchestrator_fee')
      expect(fees).toEqual([
        expect.objectContaining({
          feeBearer: 'payer',
          percentageBps: 250,
          calculatedAmountUsd: '2.50',
          destinationRef: { evmAddress: defaultAddress },
          configSource: 'orchestrator_default',
        }),
        expect.objectContaining({
          feeBearer: 'payee',
          percentageBps: 200,
          calculatedAmountUsd: '2.00',
          destinationRef: { evmAddress: overrideAddress },
          configSource: 'client_id',
        }),
      ])
      expect(link.feePlan).toMatchObject({
        grossAmountUsd: '100.00',
        netRecipientAmountUsd: '98.00',
        payerTotalAmountUsd: '102.50',
        payerBorneFeesUsd: '2.50',
        payeeBorneFeesUsd: '2.00',
      })
      // a later change applies only to payments created after it
      const patched = await orc(orchestrator, 'PATCH', `/v2/orchestrators/fee-configs/${configIds[0]}`, {
        bps: 5000,
      })
      expect(patched.status, patched.text).toBe(200)

      const payer = t.sandbox.shared.chains.get('sepolia')!.accounts[payerIndex]!.address
      const before = await balance(payer)
      const pay = await payLink(link.token)
      expect(pay.feeBundle.amountSummary).toMatchObject({
        grossAmount: '100',
        netRecipientAmount: '98',
        payeeBorneFees: '2',
        payerTotal: '102.5',
      })
      expect(await balance(payee)).toBe(units('98'))
      expect(await balance(defaultAddress)).toBe(units('2.5'))
      expect(await balance(overrideAddress)).toBe(units('2'))
      expect(await balance(recipientDefault)).toBe(0n)
      expect(before - (await balance(payer))).toBe(units('102.5'))
    })

    it('caps a fee at usdCap, applies outgoing fees to payouts, and takes nothing without paired authentication', async () => {
      const capped = freshAddress()
      const { orchestrator, clientId, owner } = await linkedPlatform([
        { bps: 1000, usdCap: '3', feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: capped },
      ])
      const payee = freshAddress()
      const link = await pairedLink(orchestrator, clientId, payee, '50')
      await payLink(link.token)
      expect(await balance(capped)).toBe(units('3')) // 10 % of 50 = 5, capped at 3 USD
      expect(await balance(payee)).toBe(units('50'))

      // outgoing: a payout link made with the pair carries the outgoing fee
      const outgoing = freshAddress()
      await orc(orchestrator, 'POST', '/v2/orchestrators/fee-configs', {
        bps: 100,
        feeBearer: 'recipient',
        flow: 'outgoing',
        evmRecipientAddress: outgoing,
      })
      const payer = t.sandbox.shared.chains.get('sepolia')!.accounts[payerIndex]!.address
      const recipient = freshAddress()
      const payout = await client().call('POST', '/v2/secure-payments/payouts', {
        apiKey: null,
        headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: { recipient, creatorWalletAddress: payer, network: 'sepolia', currency: TOKEN, amount: '20' },
      })
      expect(payout.status, payout.text).toBe(201)
      await payLink(payout.body.token)
      expect(await balance(recipient)).toBe(units('19.8'))
      expect(await balance(outgoing)).toBe(units('0.2'))

      // a batch link carries each request's fee: transfers beside the one batchPayments transaction
      const [a, b] = [freshAddress(), freshAddress()]
      const batch = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: {
          requests: [
            { payee: a, currency: TOKEN, amount: '10' },
            { payee: b, currency: TOKEN, amount: '40' },
          ],
        },
      })
      expect(batch.status, batch.text).toBe(201)
      const cappedBefore = await balance(capped)
      const batchPay = await client().call('GET', `/__sandbox/secure-payments/${batch.body.token}/pay`, {
        apiKey: null,
        query: { wallet: payer },
      })
      expect(batchPay.body.orchestratorFeeTransactions).toHaveLength(2)
      await execute(
        t.sandbox,
        [
          ...batchPay.body.ERC20ApprovalTransactions,
          ...batchPay.body.orchestratorFeeTransactions,
          batchPay.body.batchPaymentTransaction,
        ],
        payerIndex,
      )
      expect(await balance(a)).toBe(units('10'))
      expect(await balance(b)).toBe(units('40'))
      expect((await balance(capped)) - cappedBefore).toBe(units('4')) // 1 + 3 (10 % of 40 = 4, capped at 3)

      // the platform's own API key makes links without orchestrator fees (only the protocol fee, 0 here)
      const plain = await client().call('POST', '/v2/secure-payments', {
        apiKey: owner,
        body: { requests: [{ payee: freshAddress(), currency: TOKEN, amount: '10' }] },
      })
      expect(plain.body.feePlan.fees).toEqual([])
      const beforeCap = await balance(capped)
      await payLink(plain.body.token)
      expect(await balance(capped)).toBe(beforeCap)
    })
  },
)
