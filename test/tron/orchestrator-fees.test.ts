// Orchestrator fees on Tron (orchestrators/fees.mdx: `tronRecipientAddress` "Tron address that receives the fee";
// "A single fee configuration can include both recipient addresses to apply on EVM and Tron. Provide only the
// address for the chain you collect on when the fee is single-chain."; `payer` adds the fee on top; `recipient`
// deducts it from what the recipient receives). The fees reach the config's Tron address in TRC-20 transfers the
// payer signs with TronWeb like the other Tron steps; a config with only an EVM address takes nothing on Tron.
// Balances are read through TronWeb.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshAddress } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { freshTronAddress, payWithTronWeb, type TronInfo, trc20Balance, tronInfo } from './steps.ts'

let t: Transports
let tron: TronInfo
beforeAll(async () => {
  t = await startTransports(newApiKey, { networks: ['tron'] })
  tron = await tronInfo(t.server.url)
})
afterAll(async () => t?.close())

const ORIGIN = 'https://shop.example.com'

describeTransports(
  'orchestrator fees on Tron through %s',
  () => t,
  { http: 5, msw: 6 },
  (client, payerIndex) => {
    const orc = (k: string, method: string, path: string, body?: unknown) =>
      client().call(method, path, { apiKey: null, headers: { 'x-orchestrator-key': k }, body })
    const usdt = (holder: string) => trc20Balance(tron, tron.tokens['USDT-tron']!, holder)
    /** A platform client ID linked to a fresh orchestrator with the fee configs `configs`. */
    const linkedPlatform = async (configs: Record<string, unknown>[]) => {
      const orchestrator = `orc_tron_${randomBytes(8).toString('hex')}`
      const owner = newApiKey()
      const created = await client().call('POST', '/v2/client-ids', {
        apiKey: owner,
        body: { label: 'Shop', allowedDomains: [ORIGIN] },
      })
      const clientId = created.body.clientId as string
      const linked = await client().call('POST', '/v2/orchestrators/client-ids', {
        apiKey: owner,
        headers: { 'x-orchestrator-key': orchestrator },
        body: { clientId },
      })
      expect(linked.status, linked.text).toBe(201)
      for (const config of configs) {
        const res = await orc(orchestrator, 'POST', '/v2/orchestrators/fee-configs', config)
        expect(res.status, res.text).toBe(201)
      }
      return { orchestrator, clientId, owner }
    }
    const untilPaid = (owner: string, requestId: string) =>
      waitFor(async () => {
        const res = await client().call('GET', `/v2/request/${requestId}`, { apiKey: owner })
        return res.body.hasBeenPaid ? res.body : undefined
      })

    it('/v2/request/{id}/pay of a Tron request pays its payer-borne fee to the Tron address, in its own currency or converted', async () => {
      const [tronFee, evmOnly] = [freshTronAddress(), freshAddress()]
      const { clientId, owner } = await linkedPlatform([
        { bps: 250, feeBearer: 'payer', flow: 'incoming', tronRecipientAddress: tronFee },
        // single-chain on EVM: nothing on Tron
        { bps: 100, feeBearer: 'recipient', flow: 'incoming', evmRecipientAddress: evmOnly },
      ])
      const payer = tron.accounts[payerIndex]!
      const create = async (body: Record<string, unknown>) => {
        const res = await client().call('POST', '/v2/request', {
          apiKey: null,
          headers: { 'x-client-id': clientId, origin: ORIGIN },
          body,
        })
        expect(res.status, res.text).toBe(201)
        return res.body.requestId as string
      }
      const pay = async (requestId: string) => {
        const res = await client().call('GET', `/v2/request/${requestId}/pay`, {
          apiKey: owner,
          query: { wallet: payer.address },
        })
        expect(res.status, res.text).toBe(200)
        expect(res.body.metadata.paymentTransactionIndex).toBe(res.body.transactions.length - 1)
        expect(res.body.metadata.hasEnoughBalance).toBe(true)
        await payWithTronWeb(tron, payer, res.body.transactions)
        await untilPaid(owner, requestId)
      }

      // 40 USDT: 1 USDT of fee on top, to the Tron address
      const payee = freshTronAddress()
      const before = await usdt(payer.address)
      await pay(
        await create({ payee, amount: '40', invoiceCurrency: 'USDT-tron', paymentCurrency: 'USDT-tron' }),
      )
      expect(await usdt(payee)).toBe(40_000_000n)
      expect(await usdt(tronFee)).toBe(1_000_000n)
      expect(before - (await usdt(payer.address))).toBe(41_000_000n)

      // 20 EUR at 1.08 USD: 21.6 USDT to the payee; 0.5 EUR of fee, converted as the payment is: 0.54 USDT
      const eurPayee = freshTronAddress()
      await pay(
        await create({ payee: eurPayee, amount: '20', invoiceCurrency: 'EUR', paymentCurrency: 'USDT-tron' }),
      )
      expect(await usdt(eurPayee)).toBe(21_600_000n)
      expect(await usdt(tronFee)).toBe(1_540_000n)
    })
  },
)
