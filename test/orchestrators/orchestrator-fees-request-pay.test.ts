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

describeTransports(
  'orchestrator fees of a request paid through /v2/request/{id}/pay on %s',
  () => t,
  (client, transport) => {
    const payerIndex = transport === 'http' ? 5 : 6
    const orc = (k: string, method: string, path: string, body?: unknown) =>
      asOrchestrator(client(), k, method, path, body)
    const balance = (owner: string, currency: string) => sepoliaBalance(t, owner, currency)

    const linkedPlatform = (configs: FeeConfigs) => linkFreshPlatform(client(), 'orc_req', configs)
    /** An incoming fee of `bps` borne by the payer, to `evmRecipientAddress`. */
    const payerFee = (bps: number, evmRecipientAddress: string) =>
      ({ bps, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress }) as const

    const payRequest = async (owner: string, requestId: string) => {
      const wallet = t.sandbox.shared.chains.get('sepolia')!.accounts[payerIndex]!.address
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey: owner,
        query: { wallet },
      })
      expect(pay.status, pay.text).toBe(200)
      await execute(t.sandbox, pay.body.transactions, payerIndex)
      await until(
        () => client().call('GET', `/v2/request/${requestId}`, { apiKey: owner }),
        (r) => r.body.hasBeenPaid === true,
        { what: 'the request paid' },
      )
      return pay.body
    }

    it('a request made with a linked client ID pays its payer-borne fee, as configured at creation', async () => {
      const feeAddress = freshAddress()
      const { orchestrator, clientId, owner, configIds } = await linkedPlatform([
        payerFee(250, feeAddress),
        // outgoing fees apply to payouts, not to payments received
        { bps: 900, feeBearer: 'payer', flow: 'outgoing', evmRecipientAddress: freshAddress() },
      ])
      const payee = freshAddress()
      const created = await client().call('POST', '/v2/request', {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: { payee, amount: '100', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' },
      })
      expect(created.status, created.text).toBe(201)
      // a later change applies only to payments created after it
      const patched = await orc(orchestrator, 'PATCH', `/v2/orchestrators/fee-configs/${configIds[0]}`, {
        bps: 5000,
      })
      expect(patched.status, patched.text).toBe(200)
      const payer = t.sandbox.shared.chains.get('sepolia')!.accounts[payerIndex]!.address
      const before = await balance(payer, 'FAU-sepolia')
      const pay = await payRequest(owner, created.body.requestId)
      expect(pay.metadata.paymentTransactionIndex).toBe(pay.transactions.length - 1)
      expect(await balance(payee, 'FAU-sepolia')).toBe(units('100'))
      expect(await balance(feeAddress, 'FAU-sepolia')).toBe(units('2.5'))
      expect(before - (await balance(payer, 'FAU-sepolia'))).toBe(units('102.5'))

      // a native currency: a value transfer, capped at usdCap
      const capped = freshAddress()
      const own = await orc(orchestrator, 'POST', '/v2/orchestrators/fee-configs', {
        bps: 1000,
        usdCap: '1',
        feeBearer: 'payer',
        flow: 'incoming',
        evmRecipientAddress: capped,
        clientId,
      })
      expect(own.status, own.text).toBe(201)
      const eth = await client().call('POST', '/v2/request', {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: {
          payee: freshAddress(),
          amount: '0.01',
          invoiceCurrency: 'ETH-sepolia-sepolia',
          paymentCurrency: 'ETH-sepolia-sepolia',
        },
      })
      expect(eth.status, eth.text).toBe(201)
      await payRequest(owner, eth.body.requestId)
      const cappedUnits = await balance(capped, 'ETH-sepolia-sepolia')
      expect(cappedUnits > 0n).toBe(true)
      // 10 % of 0.01 ETH, capped at 1 USD at the sandbox's rate
      const rate = t.sandbox.shared.conversion.rate(null, 'ETH-sepolia-sepolia', 'USD')!
      expect(cappedUnits).toBe(10n ** 36n / rate)
      expect(cappedUnits < 10n ** 15n).toBe(true)
    })

    it("a request made with the platform's own API key pays no orchestrator fee", async () => {
      const feeAddress = freshAddress()
      const { owner } = await linkedPlatform([payerFee(250, feeAddress)])
      const created = await client().call('POST', '/v2/request', {
        apiKey: owner,
        body: {
          payee: freshAddress(),
          amount: '10',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
        },
      })
      const pay = await payRequest(owner, created.body.requestId)
      expect(pay.transactions).toHaveLength(pay.metadata.needsApproval ? 2 : 1) // approval, payment
      expect(await balance(feeAddress, 'FAU-sepolia')).toBe(0n)
    })

    it("a recurring request's children pay the fees captured when the series was created", async () => {
      const feeAddress = freshAddress()
      const { orchestrator, clientId, owner, configIds } = await linkedPlatform([payerFee(250, feeAddress)])
      const payee = freshAddress()
      const created = await client().call('POST', '/v2/request', {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: {
          payee,
          amount: '10',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          recurrence: { startDate: new Date().toISOString().slice(0, 10), frequency: 'DAILY' },
        },
      })
      expect(created.status, created.text).toBe(201)
      // a later change of the config does not reach the series' children
      const patched = await orc(orchestrator, 'PATCH', `/v2/orchestrators/fee-configs/${configIds[0]}`, {
        bps: 5000,
      })
      expect(patched.status, patched.text).toBe(200)
      const advanced = await client().call('POST', '/__sandbox/clock/advance', {
        apiKey: owner,
        body: { seconds: 86_400 },
      })
      expect(advanced.status, advanced.text).toBeLessThan(300)
      const journal = await client().call('GET', '/__sandbox/journal', {
        apiKey: owner,
        query: { type: 'event', event: 'request.recurring' },
      })
      const child = (journal.body.entries as { payload: { requestId: string; originalRequestId: string } }[])
        .map((e) => e.payload)
        .find((p) => p.originalRequestId === created.body.requestId)
      expect(child).toBeDefined()
      const payer = t.sandbox.shared.chains.get('sepolia')!.accounts[payerIndex]!.address
      const before = await balance(payer, 'FAU-sepolia')
      await payRequest(owner, child!.requestId)
      expect(await balance(payee, 'FAU-sepolia')).toBe(units('10'))
      expect(await balance(feeAddress, 'FAU-sepolia')).toBe(units('0.25'))
      expect(before - (await balance(payer, 'FAU-sepolia'))).toBe(units('10.25'))
    })
  },
)
