// Orchestrator fees beyond a same-chain payment (orchestrators/fees.mdx, orchestrators/overview.mdx):
// - POST /v2/secure-payments/fees/preview with the orchestrator pair (x-orchestrator-key + the x-client-id it linked)
//   answers the plan creation fixes (client-ID override, else orchestrator default; payer-borne on top,
//   recipient-borne deducted; USD cap), checked against the created link and the balances its payment moves;
// - a paired link paid cross-chain (secure-payment-pages.mdx: the payer picks another chain) carries its
//   orchestrator fees in the signed intent: the operator pays each to its address on the link's chain.
// Balances are read from the chains; both transports.
import { randomBytes } from 'node:crypto'
import type { Address } from 'viem'
import { expect, it } from 'vitest'
import { freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { type CrosschainAnswer, signAnswer, walletOn } from '../support/crosschain.ts'
import { type FeeConfigs, linkFreshPlatform, SHOP_ORIGIN } from '../support/orchestrator-fees.ts'

const t = useTransports(newApiKey, { networks: ['base', 'arbitrum-one'] })

const TOKEN = 'USDC-base' // 6 decimals, 1 USD in the sandbox's rates
const usdc = (amount: string) => BigInt(Math.round(Number(amount) * 1e6))

describeTransports(
  'orchestrator fees in the preview and cross-chain through %s',
  () => t,
  { http: 2, msw: 3 },
  (client, account) => {
    const balance = (network: string, currencyId: string, owner: string) => {
      const chain = t.sandbox.shared.chains.get(network)!
      const token = t.sandbox.shared.currencies.byId(currencyId)!
      return chain.balanceOf(token.address as Address, owner as Address)
    }
    const onBase = (owner: string) => balance('base', TOKEN, owner)
    /** A platform client ID linked to a fresh orchestrator, with the fees of `configs`. */
    const linkedPlatform = (configs: FeeConfigs) => linkFreshPlatform(client(), 'orc_fees', configs)
    const paired = (orchestrator: string, clientId: string) => ({
      apiKey: null,
      headers: { 'x-orchestrator-key': orchestrator, 'x-client-id': clientId, origin: SHOP_ORIGIN },
    })

    it('previews the fees creation fixes for the pair, and the payment moves exactly those', async () => {
      const [payerDefault, recipientDefault, recipientOverride, outgoing] = [
        freshAddress(),
        freshAddress(),
        freshAddress(),
        freshAddress(),
      ]
      const { orchestrator, clientId } = await linkedPlatform((clientId) => [
        { bps: 250, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: payerDefault },
        { bps: 100, feeBearer: 'recipient', flow: 'incoming', evmRecipientAddress: recipientDefault },
        {
          bps: 200,
          feeBearer: 'recipient',
          flow: 'incoming',
          evmRecipientAddress: recipientOverride,
          clientId,
        },
        { bps: 1000, usdCap: '3', feeBearer: 'payer', flow: 'outgoing', evmRecipientAddress: outgoing },
      ])
      const preview = await client().call('POST', '/v2/secure-payments/fees/preview', {
        ...paired(orchestrator, clientId),
        body: { amount: '100', currency: TOKEN, flow: 'get_paid' },
      })
      expect(preview.status, preview.text).toBe(200)
      expect(preview.body).toMatchObject({
        grossAmountUsd: '100.00',
        netRecipientAmountUsd: '98.00',
        payerTotalAmountUsd: '102.50',
        totalFeesUsd: '4.50',
        payerBorneFeesUsd: '2.50',
        payeeBorneFeesUsd: '2.00',
      })
      expect(preview.body.fees).toEqual([
        expect.objectContaining({
          type: 'orchestrator_fee',
          feeBearer: 'payer',
          feeBearerSource: 'fee_config',
          percentageBps: 250,
          calculatedAmountUsd: '2.50',
          destinationRef: { evmAddress: payerDefault },
          configSource: 'orchestrator_default',
        }),
        expect.objectContaining({
          type: 'orchestrator_fee',
          feeBearer: 'payee',
          percentageBps: 200,
          calculatedAmountUsd: '2.00',
          destinationRef: { evmAddress: recipientOverride },
          configSource: 'client_id',
        }),
      ])
      // the outgoing flow: 10 % of 50 is 5, capped at 3 USD, on top
      const payout = await client().call('POST', '/v2/secure-payments/fees/preview', {
        ...paired(orchestrator, clientId),
        body: { amount: '50', currency: 'USDC', flow: 'pay' },
      })
      expect(payout.status, payout.text).toBe(200)
      expect(payout.body).toMatchObject({ payerTotalAmountUsd: '53.00', netRecipientAmountUsd: '50.00' })
      expect(payout.body.fees).toEqual([
        expect.objectContaining({ percentageBps: 1000, capUsd: '3', calculatedAmountUsd: '3.00' }),
      ])

      // creation fixes the plan the preview showed
      const payee = freshAddress()
      const link = await client().call('POST', '/v2/secure-payments', {
        ...paired(orchestrator, clientId),
        body: { requests: [{ payee, currency: TOKEN, amount: '100' }] },
      })
      expect(link.status, link.text).toBe(201)
      expect(link.body.feePlan).toEqual(preview.body)
      // and its payment moves what the preview said, to the addresses it named
      const wallet = t.sandbox.shared.chains.get('base')!.accounts[account]!.address
      const before = await onBase(wallet)
      const pay = await client().call('GET', `/__sandbox/secure-payments/${link.body.token}/pay`, {
        apiKey: null,
        query: { wallet },
      })
      expect(pay.status, pay.text).toBe(200)
      const chain = t.sandbox.shared.chains.get('base')!
      for (const tx of pay.body.transactions) await walletOn(client(), chain, account).send(tx)
      await until(
        () => client().call('GET', `/__sandbox/secure-payments/${link.body.token}`, { apiKey: null }),
        (r) => r.status === 409,
        { what: 'the link completed' },
      )
      expect(await onBase(payee)).toBe(usdc('98'))
      expect(await onBase(payerDefault)).toBe(usdc('2.5'))
      expect(await onBase(recipientOverride)).toBe(usdc('2'))
      expect(await onBase(recipientDefault)).toBe(0n)
      expect(before - (await onBase(wallet))).toBe(usdc('102.5'))

      // without the pair: no orchestrator fee; the pair must be complete and linked
      const owner = t.sandbox.shared.directory.clientIdToTenant.get(clientId)!.tenant
      const plain = await client().call('POST', '/v2/secure-payments/fees/preview', {
        apiKey: owner,
        body: { amount: '100', currency: TOKEN, flow: 'get_paid' },
      })
      expect(plain.status).toBe(200)
      expect(plain.body).toMatchObject({ fees: [], payerTotalAmountUsd: '100.00' })
      const alone = await client().call('POST', '/v2/secure-payments/fees/preview', {
        apiKey: null,
        headers: { 'x-orchestrator-key': orchestrator },
        body: { amount: '100', currency: TOKEN, flow: 'get_paid' },
      })
      expect(alone.status).toBe(401)
      const stranger = await client().call('POST', '/v2/secure-payments/fees/preview', {
        ...paired(`orc_other_${randomBytes(8).toString('hex')}`, clientId),
        body: { amount: '100', currency: TOKEN, flow: 'get_paid' },
      })
      expect(stranger.status).toBe(403)
      const linkedAlone = await client().call('POST', '/v2/secure-payments/fees/preview', {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body: { amount: '100', currency: TOKEN, flow: 'get_paid' },
      })
      expect(linkedAlone.status).toBe(403)
    })

    it('moves the orchestrator fees of a link paid from another chain to their addresses', async () => {
      const [payerFee, recipientFee] = [freshAddress(), freshAddress()]
      const { orchestrator, clientId } = await linkedPlatform((clientId) => [
        { bps: 250, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: payerFee },
        { bps: 200, feeBearer: 'recipient', flow: 'incoming', evmRecipientAddress: recipientFee, clientId },
      ])
      const payee = freshAddress()
      const link = await client().call('POST', '/v2/secure-payments', {
        ...paired(orchestrator, clientId),
        body: { requests: [{ payee, currency: TOKEN, amount: '100' }] },
      })
      expect(link.status, link.text).toBe(201)
      const { token } = link.body
      const arbitrum = t.sandbox.shared.chains.get('arbitrum-one')!
      const payer = walletOn(client(), arbitrum, account)
      const asClient = { apiKey: null, headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN } }
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        ...asClient,
        query: { chain: 'ARBITRUM', token: 'USDC', wallet: payer.account.address },
      })
      expect(pay.status, pay.text).toBe(200)
      expect(pay.body.metadata.routeType).toBe('crosschain')
      // the breakdown shows them; the intent the payer signs permits them beside the payment and the 0.1 % bridge fee
      expect(pay.body.feeBundle.amountSummary).toMatchObject({
        grossAmount: '100',
        netRecipientAmount: '98',
        payeeBorneFees: '2',
        payerTotal: '102.5',
      })
      expect(
        pay.body.feeBundle.fees.map((f: { feeType: string; recipient: string; amount: string }) => [
          f.feeType,
          f.recipient,
          f.amount,
        ]),
      ).toEqual([
        ['orchestrator_fee', payerFee, '2.5'],
        ['orchestrator_fee', recipientFee, '2'],
      ])
      const permitted = JSON.parse(pay.body.paymentIntent).values.permitted.map(
        (p: { amount: string }) => p.amount,
      )
      expect(permitted).toEqual(['98000000', '0', '98000', '2500000', '2000000'])

      // a second intent of the same link, asked for before the first is sent
      const payAgain = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        ...asClient,
        query: { chain: 'ARBITRUM', token: 'USDC', wallet: payer.account.address },
      })
      expect(payAgain.status, payAgain.text).toBe(200)
      const sourceBefore = await balance('arbitrum-one', 'USDC-arbitrum-one', payer.account.address)
      const signed = await signAnswer(payer.account, pay.body as CrosschainAnswer)
      const recorded = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        ...asClient,
        body: {
          chain: 'ARBITRUM',
          token: 'USDC',
          paymentIntentId: pay.body.paymentIntentId,
          payerAddress: payer.account.address,
          ...signed,
        },
      })
      expect(recorded.status, recorded.text).toBe(200)
      // the request is being paid: the second intent, sent straight to the intents endpoint, is refused and moves
      // nothing (else the payee and both fees would be paid twice, the operator paying the fee legs again)
      const second = await client().call(
        'POST',
        `/v2/request/payment-intents/${payAgain.body.paymentIntentId}`,
        {
          ...asClient,
          body: await signAnswer(payer.account, payAgain.body as CrosschainAnswer),
        },
      )
      expect(second.status, second.text).toBe(400)
      expect(second.body.message).toMatch(/already being paid/)
      await until(
        () => client().call('GET', `/__sandbox/secure-payments/${token}`, { apiKey: null }),
        (r) => r.status === 409,
        { timeoutMs: 20_000, what: 'the link completed' },
      )
      expect(await onBase(payee)).toBe(usdc('98'))
      expect(await onBase(payerFee)).toBe(usdc('2.5'))
      expect(await onBase(recipientFee)).toBe(usdc('2'))
      const paid = sourceBefore - (await balance('arbitrum-one', 'USDC-arbitrum-one', payer.account.address))
      expect(paid).toBe(usdc('102.598')) // 98 + 0.098 bridge fee + 2.5 + 2
    })
  },
)
