// Orchestrator fees on Tron (orchestrators/fees.mdx: `tronRecipientAddress` "Tron address that receives the fee";
// "A single fee configuration can include both recipient addresses to apply on EVM and Tron. Provide only the
// address for the chain you collect on when the fee is single-chain."; `payer` adds the fee on top; `recipient`
// deducts it from what the recipient receives). The fees reach the config's Tron address in TRC-20 transfers the
// payer signs with TronWeb like the other Tron steps; a config with only an EVM address takes nothing on Tron.
// Balances are read through TronWeb.
import { TronWeb } from 'tronweb'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { toTronAddress } from '../../src/tron/index.ts'
import { freshAddress } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { linkFreshPlatform, SHOP_ORIGIN } from '../support/orchestrator-fees.ts'
import { waitFor } from '../support/wait.ts'
import {
  freshTronAddress,
  payWithTronWeb,
  type TronInfo,
  type TronStep,
  trc20Balance,
  tronInfo,
} from './steps.ts'

let t: Transports
let tron: TronInfo
beforeAll(async () => {
  t = await startTransports(newApiKey, { networks: ['tron'] })
  tron = await tronInfo(t.server.url)
})
afterAll(async () => t?.close())

/** A Tron step of the API built by the node for `from` and signed with TronWeb, not broadcast. */
async function signStep(tw: TronWeb, from: string, step: TronStep) {
  const built = await tw.transactionBuilder.triggerSmartContract(
    step.to,
    step.functionSelector,
    { feeLimit: step.feeLimit, rawParameter: step.parameter },
    [],
    from,
  )
  return tw.trx.sign(built.transaction)
}

describeTransports(
  'orchestrator fees on Tron through %s',
  () => t,
  { http: 5, msw: 6 },
  (client, payerIndex) => {
    const usdt = (holder: string) => trc20Balance(tron, tron.tokens['USDT-tron']!, holder)
    /** A platform client ID linked to a fresh orchestrator with the fee configs `configs`. */
    const linkedPlatform = (configs: Record<string, unknown>[]) =>
      linkFreshPlatform(client(), 'orc_tron', configs)
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
          headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN },
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

    it('a paired Tron link pays its fees to the Tron addresses in its own steps; the broadcast takes them once and nothing else', async () => {
      const [payerFee, recipientFee, evmOnly, bothEvm] = [
        freshTronAddress(),
        freshTronAddress(),
        freshAddress(),
        freshAddress(),
      ]
      const { orchestrator, clientId } = await linkedPlatform([
        { bps: 250, feeBearer: 'payer', flow: 'incoming', tronRecipientAddress: payerFee },
        {
          bps: 100,
          feeBearer: 'recipient',
          flow: 'incoming',
          evmRecipientAddress: bothEvm,
          tronRecipientAddress: recipientFee,
        },
        // single-chain on EVM: nothing on Tron
        { bps: 900, feeBearer: 'payer', flow: 'outgoing', evmRecipientAddress: evmOnly },
      ])
      const payee = freshTronAddress()
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: { requests: [{ payee, currency: 'USDT-tron', amount: '100' }] },
      })
      expect(created.status, created.text).toBe(201)
      const orchestratorFees = created.body.feePlan.fees.filter(
        (f: { type: string }) => f.type === 'orchestrator_fee',
      )
      expect(orchestratorFees.map((f: { destinationRef: unknown }) => f.destinationRef)).toEqual([
        { tronAddress: payerFee },
        { tronAddress: recipientFee },
      ])
      expect(created.body.feePlan).toMatchObject({
        netRecipientAmountUsd: '99.00',
        payerTotalAmountUsd: '106.49',
      })
      const { token } = created.body
      const page = (path: string, init?: { body: unknown }) =>
        fetch(`${t.server.url}/__sandbox/secure-payments/${token}${path}`, {
          method: init ? 'POST' : 'GET',
          headers: { 'content-type': 'application/json' },
          ...(init ? { body: JSON.stringify(init.body) } : {}),
        }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }))
      const payer = tron.accounts[payerIndex]!
      const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
      const pay = await page(`/pay?wallet=${payer.address}`)
      expect(pay.status).toBe(200)
      expect(pay.body.feeBundle.amountSummary).toMatchObject({
        grossAmount: '100',
        netRecipientAmount: '99',
        payeeBorneFees: '1',
        payerTotal: '106.49',
      })
      const steps = pay.body.transactions as TronStep[]
      expect(steps.at(pay.body.metadata.paymentTransactionIndex)!.functionSelector).toMatch(
        /^transferFromWithReferenceAndFee/,
      )
      const before = await usdt(payer.address)

      // a transfer the link does not fix (another address, or another amount) is refused before it reaches the chain
      const usdtToken = tron.tokens['USDT-tron']!
      const stranger = await tw.transactionBuilder.triggerSmartContract(
        usdtToken,
        'transfer(address,uint256)',
        { feeLimit: 100_000_000 },
        [
          { type: 'address', value: payerFee },
          { type: 'uint256', value: 2_500_001 },
        ],
        payer.address,
      )
      const refused = await page('/tron/broadcast', {
        body: { signedTransaction: await tw.trx.sign(stranger.transaction) },
      })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toMatch(/does not match/)

      const legs: unknown[] = []
      for (const step of steps) {
        const signedTransaction = await signStep(tw, payer.address, step)
        const sent = await page('/tron/broadcast', { body: { signedTransaction } })
        expect(sent.status, JSON.stringify(sent.body)).toBe(200)
        if (step.functionSelector === 'transfer(address,uint256)') legs.push(signedTransaction)
      }
      await waitFor(async () => ((await page('')).status === 409 ? true : undefined))
      expect(await usdt(payee)).toBe(99_000_000n)
      expect(await usdt(payerFee)).toBe(2_500_000n)
      expect(await usdt(recipientFee)).toBe(1_000_000n)
      expect(await usdt(toTronAddress(evmOnly))).toBe(0n)
      expect(await usdt(toTronAddress(bothEvm))).toBe(0n)
      expect(before - (await usdt(payer.address))).toBe(106_490_000n)
      // the two orchestrator legs and the resource-fee leg
      expect(legs).toHaveLength(3)
    })

    it('a paired Tron link takes each orchestrator fee leg once, and completes only once every leg executed', async () => {
      const payerFee = freshTronAddress()
      const { orchestrator, clientId, owner } = await linkedPlatform([
        { bps: 500, feeBearer: 'payer', flow: 'incoming', tronRecipientAddress: payerFee },
      ])
      const payer = tron.accounts[payerIndex]!
      const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
      const newLink = async () => {
        const created = await client().call('POST', '/v2/secure-payments', {
          apiKey: null,
          headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
          body: { requests: [{ payee: freshTronAddress(), currency: 'USDT-tron', amount: '10' }] },
        })
        expect(created.status, created.text).toBe(201)
        const { token } = created.body
        const page = (path: string, body?: unknown) =>
          fetch(`${t.server.url}/__sandbox/secure-payments/${token}${path}`, {
            method: body ? 'POST' : 'GET',
            headers: { 'content-type': 'application/json' },
            ...(body ? { body: JSON.stringify(body) } : {}),
          }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }))
        const steps = (await page(`/pay?wallet=${payer.address}`)).body.transactions as TronStep[]
        // the orchestrator leg: the transfer before the payment (the resource-fee leg is the last step)
        const leg = steps.find(
          (s, i) => s.functionSelector === 'transfer(address,uint256)' && i < steps.length - 1,
        )!
        expect(leg).toBeDefined()
        const send = async (step: TronStep) =>
          page('/tron/broadcast', { signedTransaction: await signStep(tw, payer.address, step) })
        return { requestId: created.body.requestIds[0] as string, page, steps, leg, send }
      }

      // 1. the orchestrator leg first, then again (another signed transaction of the same transfer): taken once
      const first = await newLink()
      expect((await first.send(first.leg)).status).toBe(200)
      const again = await first.send({ ...first.leg, feeLimit: first.leg.feeLimit + 1 })
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/orchestrator fee of the secure payment has already been sent/)
      expect(await usdt(payerFee)).toBe(500_000n)
      const rest = await first.page(`/pay?wallet=${payer.address}`)
      expect(rest.body.transactions).not.toContainEqual(first.leg)
      for (const step of rest.body.transactions) expect((await first.send(step)).status).toBe(200)
      await waitFor(async () => ((await first.page('')).status === 409 ? true : undefined))

      // 2. everything but the orchestrator leg: the request is paid, the link stays pending until the leg executes
      const second = await newLink()
      for (const step of second.steps.filter((s) => s !== second.leg))
        expect((await second.send(step)).status).toBe(200)
      await untilPaid(owner, second.requestId)
      const status = await client().call('GET', `/v2/secure-payments?requestId=${second.requestId}`, {
        apiKey: owner,
      })
      expect(status.body.status).toBe('pending')
      const left = await second.page(`/pay?wallet=${payer.address}`)
      expect(left.body.transactions).toEqual([second.leg])
      expect(left.body.metadata.requiredAmount).toBe('0.5')
      expect((await second.send(second.leg)).status).toBe(200)
      await waitFor(async () => ((await second.page('')).status === 409 ? true : undefined))
      expect(await usdt(payerFee)).toBe(1_000_000n)
    })

    it('two fees of a Tron link with the same transfer are two legs: each taken once, the link completed with both', async () => {
      const feeAddress = freshTronAddress()
      const { orchestrator, clientId } = await linkedPlatform([
        { bps: 500, feeBearer: 'payer', flow: 'incoming', tronRecipientAddress: feeAddress },
        { bps: 500, feeBearer: 'recipient', flow: 'incoming', tronRecipientAddress: feeAddress },
      ])
      const payee = freshTronAddress()
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey: null,
        headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: { requests: [{ payee, currency: 'USDT-tron', amount: '10' }] },
      })
      expect(created.status, created.text).toBe(201)
      const page = (path: string, body?: unknown) =>
        fetch(`${t.server.url}/__sandbox/secure-payments/${created.body.token}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }))
      const payer = tron.accounts[payerIndex]!
      const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
      const steps = (await page(`/pay?wallet=${payer.address}`)).body.transactions as TronStep[]
      const payment = steps.find((s) => s.functionSelector.startsWith('transferFromWithReferenceAndFee'))!
      const legs = steps
        .slice(0, steps.indexOf(payment))
        .filter((s) => s.functionSelector.startsWith('transfer('))
      expect(legs).toHaveLength(2)
      expect(legs[0]).toEqual(legs[1])
      const send = async (step: TronStep, salt = 0) =>
        page('/tron/broadcast', {
          signedTransaction: await signStep(tw, payer.address, { ...step, feeLimit: step.feeLimit + salt }),
        })
      expect((await send(legs[0]!)).status).toBe(200)
      expect((await send(legs[0]!, 1)).status).toBe(200)
      const third = await send(legs[0]!, 2)
      expect(third.status).toBe(400)
      expect(third.body.message).toMatch(/already been sent/)
      for (const step of steps.filter((s) => !legs.includes(s))) expect((await send(step)).status).toBe(200)
      await waitFor(async () => ((await page('')).status === 409 ? true : undefined))
      expect(await usdt(feeAddress)).toBe(1_000_000n)
      expect(await usdt(payee)).toBe(9_500_000n)
    })

    it('a tron_batch of paired payout links pays their orchestrator fees in the batch, to the Tron addresses', async () => {
      const [payerFee, recipientFee] = [freshTronAddress(), freshTronAddress()]
      const { orchestrator, clientId, owner } = await linkedPlatform([
        { bps: 200, feeBearer: 'payer', flow: 'outgoing', tronRecipientAddress: payerFee },
        { bps: 100, feeBearer: 'recipient', flow: 'outgoing', tronRecipientAddress: recipientFee },
      ])
      const payer = tron.accounts[payerIndex]!
      const recipients = [freshTronAddress(), freshTronAddress()]
      const links = await Promise.all(
        ['10', '5'].map((amount, i) =>
          client().call('POST', '/v2/secure-payments/payouts', {
            apiKey: null,
            headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
            body: {
              recipient: recipients[i],
              creatorWalletAddress: payer.address,
              network: 'tron',
              currency: 'USDT-tron',
              amount,
            },
          }),
        ),
      )
      for (const l of links) expect(l.status, l.text).toBe(201)
      const created = await client().call('POST', '/v2/secure-payments/multicall-payouts', {
        apiKey: owner,
        body: { childTokens: links.map((l) => l.body.token) },
      })
      expect(created.status, created.text).toBe(201)
      const { token } = created.body
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey: owner,
        query: { wallet: payer.address },
      })
      expect(pay.status, pay.text).toBe(200)
      expect(pay.body.executionKind).toBe('tron_batch')
      const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
      const before = await usdt(payer.address)
      for (const step of pay.body.transactions) {
        const sent = await client().call('POST', `/v2/secure-payments/${token}/tron/broadcast`, {
          apiKey: owner,
          body: { signedTransaction: await signStep(tw, payer.address, step) },
        })
        expect(sent.status, sent.text).toBe(200)
      }
      for (const l of links)
        await waitFor(async () => {
          const res = await client().call('GET', `/v2/secure-payments?requestId=${l.body.requestIds[0]}`, {
            apiKey: owner,
          })
          return res.body.status === 'completed' ? true : undefined
        })
      expect(await Promise.all(recipients.map(usdt))).toEqual([9_900_000n, 4_950_000n])
      expect(await usdt(payerFee)).toBe(300_000n)
      expect(await usdt(recipientFee)).toBe(150_000n)
      // the net amounts, both fees and the two resource fees
      expect(before - (await usdt(payer.address))).toBe(15_300_000n + 2n * 3_990_000n)
    })
  },
)
