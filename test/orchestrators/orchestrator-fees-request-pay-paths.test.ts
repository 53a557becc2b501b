// Orchestrator fees on the other paths of `/v2/request/{id}/pay` (orchestrators/fees.mdx: an orchestrator "can
// attach fees to the payments made under the client IDs you've linked"; `payer` "adds the fee on top of the amount
// the payer pays"; `usdCap` "caps the fee"). The page says nothing of conversion or cross-chain payments in
// particular: a fiat invoice paid in a token pays the fee priced in the invoice currency and converted as the payment
// is (by the chain's ChainlinkConversionPath); a payment from another chain carries it in the intent the payer signs
// on its source chain, and the fee reaches its address on the request's chain. Balances are read from the chains.
import type { Address } from 'viem'
import { expect, it } from 'vitest'
import { execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { type CrosschainAnswer, signAnswer, walletOn } from '../support/crosschain.ts'
import { linkFreshPlatform, SHOP_ORIGIN } from '../support/orchestrator-fees.ts'

const t = useTransports(newApiKey, { networks: ['sepolia', 'base', 'arbitrum-one'] })

describeTransports(
  'orchestrator fees of conversion and cross-chain requests paid through /v2/request/{id}/pay on %s',
  () => t,
  { http: 5, msw: 6 },
  (client, payerIndex) => {
    const balance = (network: string, currency: string, owner: string) => {
      const chain = t.sandbox.shared.chains.get(network)!
      const token = t.sandbox.shared.currencies.byId(currency)!
      return chain.balanceOf(token.type === 'ETH' ? 'native' : (token.address as Address), owner as Address)
    }
    /** A platform client ID linked to a fresh orchestrator with the fee configs `configs`. */
    const linkedPlatform = (configs: Record<string, unknown>[]) =>
      linkFreshPlatform(client(), 'orc_paths', configs)
    const createAs = async (clientId: string, body: Record<string, unknown>) => {
      const created = await client().call('POST', '/v2/request', {
        apiKey: null,
        headers: { 'x-client-id': clientId, origin: SHOP_ORIGIN },
        body,
      })
      expect(created.status, created.text).toBe(201)
      return created.body.requestId as string
    }
    const untilPaid = (owner: string, requestId: string) =>
      until(
        () => client().call('GET', `/v2/request/${requestId}`, { apiKey: owner }),
        (r) => r.body.hasBeenPaid === true,
        { timeoutMs: 20_000, what: 'the request paid' },
      )

    it('a fiat invoice paid in a token pays the fee priced in the invoice currency, converted as the payment is', async () => {
      const [feeAddress, capped] = [freshAddress(), freshAddress()]
      const { clientId, owner } = await linkedPlatform([
        { bps: 250, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: feeAddress },
      ])
      const sepolia = t.sandbox.shared.chains.get('sepolia')!
      const wallet = sepolia.accounts[payerIndex]!.address

      // 100 EUR paid in USDC at 1 EUR = 1.08 USD: 108 USDC to the payee, 2.5 EUR = 2.7 USDC to the orchestrator
      const payee = freshAddress()
      const eur = await createAs(clientId, {
        payee,
        amount: '100',
        invoiceCurrency: 'EUR',
        paymentCurrency: 'USDC-sepolia',
      })
      const before = await balance('sepolia', 'USDC-sepolia', wallet)
      const pay = await client().call('GET', `/v2/request/${eur}/pay`, { apiKey: owner, query: { wallet } })
      expect(pay.status, pay.text).toBe(200)
      expect(pay.body.metadata.paymentTransactionIndex).toBe(pay.body.transactions.length - 1)
      await execute(t.sandbox, pay.body.transactions, payerIndex)
      await untilPaid(owner, eur)
      expect(await balance('sepolia', 'USDC-sepolia', payee)).toBe(108_000_000n)
      expect(await balance('sepolia', 'USDC-sepolia', feeAddress)).toBe(2_700_000n)
      expect(before - (await balance('sepolia', 'USDC-sepolia', wallet))).toBe(110_700_000n)

      // 100 USD paid in ETH (1 ETH = 2500 USD) with a 10 % fee capped at 1 USD: 0.0004 ETH to the orchestrator
      const other = await linkedPlatform([
        { bps: 1000, usdCap: '1', feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: capped },
      ])
      const ethPayee = freshAddress()
      const usd = await createAs(other.clientId, {
        payee: ethPayee,
        amount: '100',
        invoiceCurrency: 'USD',
        paymentCurrency: 'ETH-sepolia-sepolia',
      })
      const ethPay = await client().call('GET', `/v2/request/${usd}/pay`, {
        apiKey: other.owner,
        query: { wallet },
      })
      expect(ethPay.status, ethPay.text).toBe(200)
      await execute(t.sandbox, ethPay.body.transactions, payerIndex)
      await untilPaid(other.owner, usd)
      expect(await balance('sepolia', 'ETH-sepolia-sepolia', ethPayee)).toBe(4n * 10n ** 16n)
      expect(await balance('sepolia', 'ETH-sepolia-sepolia', capped)).toBe(4n * 10n ** 14n)
    })

    it('a request paid from another chain signs its fee into the intent, and the fee reaches its address', async () => {
      const feeAddress = freshAddress()
      const { clientId, owner } = await linkedPlatform([
        { bps: 250, feeBearer: 'payer', flow: 'incoming', evmRecipientAddress: feeAddress },
      ])
      const payee = freshAddress()
      const requestId = await createAs(clientId, {
        payee,
        amount: '100',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
      })
      const arbitrum = t.sandbox.shared.chains.get('arbitrum-one')!
      const payer = walletOn(client(), arbitrum, payerIndex - 3)
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey: owner,
        query: { wallet: payer.account.address, chain: 'ARBITRUM', token: 'USDC' },
      })
      expect(pay.status, pay.text).toBe(200)
      // the payment, the platform fee (none), the 0.1 % bridge fee, then the orchestrator fee
      const permitted = JSON.parse(pay.body.paymentIntent).values.permitted.map(
        (p: { amount: string }) => p.amount,
      )
      expect(permitted).toEqual(['100000000', '0', '100000', '2500000'])
      const before = await balance('arbitrum-one', 'USDC-arbitrum-one', payer.account.address)
      const sent = await client().call('POST', `/v2/request/payment-intents/${pay.body.paymentIntentId}`, {
        apiKey: owner,
        body: await signAnswer(payer.account, pay.body as CrosschainAnswer),
      })
      expect(sent.status, sent.text).toBeLessThan(300)
      await untilPaid(owner, requestId)
      await until(
        () => balance('base', 'USDC-base', feeAddress),
        (units) => units > 0n,
        { timeoutMs: 20_000, what: 'the fee leg paid' },
      )
      expect(await balance('base', 'USDC-base', payee)).toBe(100_000_000n)
      expect(await balance('base', 'USDC-base', feeAddress)).toBe(2_500_000n)
      expect(before - (await balance('arbitrum-one', 'USDC-arbitrum-one', payer.account.address))).toBe(
        102_600_000n,
      )
    })
  },
)
