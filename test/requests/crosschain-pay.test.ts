// The crosschain variant of the pay endpoints: chain + token naming another source answer a payment intent to sign.
import { decodeFunctionData, maxUint256 } from 'viem'
import { expect, it } from 'vitest'
import { erc20Abi, PERMIT2_ADDRESS } from '../../src/chain/index.ts'
import { intentState } from '../../src/resources/payment-intents/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument, assertMatchesExample, documents } from '../support/openapi.ts'

const t = useTransports(newApiKey, { networks: ['base', 'arbitrum-one', 'sepolia'] })

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const wallet = '0xb07D2398d2004378cad234DA0EF14f1c94A530e4'
const feeAddress = '0x1111111111111111111111111111111111111111'
const PAY = '/v2/request/{requestId}/pay'

/** The types of the service's own example intent (the sandbox must ask for the same signature shape). */
function documentedIntentTypes(): unknown {
  type Doc = {
    paths: Record<
      string,
      { get: { responses: Record<string, { content: Record<string, { examples: Examples }> }> } }
    >
  }
  type Examples = Record<string, { value: { paymentIntent: string } }>
  const examples = (documents.v2 as Doc).paths[PAY]!.get.responses['200']!.content['application/json']!
    .examples
  return JSON.parse(examples.currencyThatSupportsEIP2612!.value.paymentIntent).types
}

describeTransports(
  'crosschain pay through %s',
  () => t,
  (client) => {
    const create = async (apiKey: string, amount: string, currency: string) =>
      (
        await client().call('POST', '/v2/request', {
          apiKey,
          body: { amount, invoiceCurrency: currency, paymentCurrency: currency, payee },
        })
      ).body as { requestId: string; paymentReference: string }
    const pay = (apiKey: string, requestId: string, query: Record<string, string>) =>
      client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, query })

    it('answers a Permit2 batch-witness intent naming the sandbox operator and an EIP-2612 permit for arbitrum-one USDC', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '2', 'USDC-base')
      const before = Math.floor(Date.now() / 1000)
      const res = await pay(apiKey, requestId, { wallet, chain: 'ARBITRUM', token: 'USDC' })
      expect(res.status).toBe(200)
      for (const doc of ['full', 'v2'] as const) {
        assertMatchesDocument(doc, 'GET', PAY, 200, res.body)
        assertMatchesExample(doc, 'GET', PAY, 200, 'currencyThatSupportsEIP2612', res.body)
      }
      expect(res.body.paymentIntentId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      expect(res.body).not.toHaveProperty('approvalCalldata')
      expect(res.body.metadata).toEqual({ supportsEIP2612: true })

      const arbitrum = t.sandbox.chains.get('arbitrum-one')!
      const base = t.sandbox.chains.get('base')!
      const operator = arbitrum.roles.operator.address
      const usdcArb = arbitrum.tokens['USDC-arbitrum-one']!
      const intent = JSON.parse(res.body.paymentIntent)
      expect(intent.domain).toEqual({ name: 'Permit2', chainId: 42161, verifyingContract: PERMIT2_ADDRESS })
      expect(arbitrum.contracts.Permit2).toBe(PERMIT2_ADDRESS)
      expect(intent.types).toEqual(documentedIntentTypes())
      expect(intent.types).not.toHaveProperty('EIP712Domain')
      const v = intent.values
      expect(v.permitted).toEqual([
        { token: usdcArb, amount: '2000000' },
        { token: usdcArb, amount: '0' },
        { token: usdcArb, amount: '2000' },
      ])
      expect(v.spender).toBe(operator)
      expect(Number(v.nonce)).toBeGreaterThanOrEqual(before * 1000)
      expect(Number(v.deadline) - before).toBeGreaterThanOrEqual(3600)
      expect(Number(v.deadline) - before).toBeLessThan(3700)
      expect(v.witness).toMatchObject({
        payment_type: 0,
        operator_data: { operator, treasury_account: operator, fee: '0' },
        amount: '2002000',
        source: { account: wallet, network_id: '42161', payment_token: usdcArb },
        destination: { account: payee, network_id: '8453', payment_token: base.tokens['USDC-base'] },
        processing_date: String(Number(v.deadline) + 4 * 3600),
        expires_at: v.deadline,
      })
      const permit = JSON.parse(res.body.approvalPermitPayload)
      expect(permit.domain).toEqual({
        name: 'USD Coin',
        version: '2',
        chainId: 42161,
        verifyingContract: usdcArb,
      })
      expect(permit.values).toEqual({
        owner: wallet,
        spender: PERMIT2_ADDRESS,
        value: maxUint256.toString(),
        nonce: '0',
        deadline: Number(v.deadline),
      })
      const status = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
      expect(status.body.isListening).toBe(true)
    })

    it('answers approvalCalldata approve(Permit2, max) with value "0x0" when the source token has no permit', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '10', 'USDC-base')
      const res = await pay(apiKey, requestId, { wallet, chain: 'ARBITRUM', token: 'USDT' })
      expect(res.status).toBe(200)
      assertMatchesDocument('v2', 'GET', PAY, 200, res.body)
      assertMatchesExample('v2', 'GET', PAY, 200, 'currencyThatDoesNotSupportEIP2612', res.body)
      const usdt0 = t.sandbox.chains.get('arbitrum-one')!.tokens['USDT0-arbitrum-one']!
      expect(res.body).not.toHaveProperty('approvalPermitPayload')
      expect(res.body.metadata).toEqual({ supportsEIP2612: false })
      expect(res.body.approvalCalldata).toMatchObject({ to: usdt0, value: '0x0' })
      const approve = decodeFunctionData({ abi: erc20Abi, data: res.body.approvalCalldata.data })
      expect(approve.args).toEqual([PERMIT2_ADDRESS, maxUint256])
      expect(JSON.parse(res.body.paymentIntent).values.permitted[0]).toEqual({
        token: usdt0,
        amount: '10000000',
      })
    })

    it('puts a platform fee in the second permitted slot beside the 0.1% crosschain fee', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '100', 'USDC-base')
      const res = await pay(apiKey, requestId, {
        wallet,
        chain: 'ARBITRUM',
        token: 'USDC',
        feePercentage: '2.5',
        feeAddress,
      })
      const values = JSON.parse(res.body.paymentIntent).values
      expect(values.permitted.map((p: { amount: string }) => p.amount)).toEqual([
        '100000000',
        '2500000',
        '100000',
      ])
      expect(values.witness.amount).toBe('102600000')
    })

    it("applies a client ID's own fee to the intent when called with x-client-id and Origin", async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '100', 'USDC-base')
      const created = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'shop', allowedDomains: ['https://shop.example'], feePercentage: '1.5', feeAddress },
      })
      expect(created.status).toBe(201)
      const res = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey: null,
        headers: { 'x-client-id': created.body.clientId, origin: 'https://shop.example' },
        query: { wallet, chain: 'ARBITRUM', token: 'USDC', feePercentage: '5', feeAddress: wallet },
      })
      expect(res.status).toBe(200)
      const values = JSON.parse(res.body.paymentIntent).values
      expect(values.permitted.map((p: { amount: string }) => p.amount)).toEqual([
        '100000000',
        '1500000',
        '100000',
      ])
      const intent = intentState(t.sandbox.shared.tenants.get(apiKey)).paymentIntents.get(
        res.body.paymentIntentId,
      )!
      expect(intent.feeAddress).toBe(feeAddress)
    })

    it('reads v1 by payment reference and pays same-chain when chain and token name the request own source', async () => {
      const apiKey = newApiKey()
      const { requestId, paymentReference } = await create(apiKey, '3', 'USDC-base')
      const v1 = await client().call('GET', `/v1/request/${paymentReference}/pay`, {
        apiKey,
        query: { wallet, chain: 'ARBITRUM', token: 'USDC' },
      })
      expect(v1.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v1/request/{paymentReference}/pay', 200, v1.body)
      expect(JSON.parse(v1.body.paymentIntent).values.witness.destination.network_id).toBe('8453')
      const same = await pay(apiKey, requestId, { wallet, chain: 'BASE', token: 'USDC' })
      expect(same.status).toBe(200)
      expect(same.body).not.toHaveProperty('paymentIntentId')
      expect(same.body.transactions.at(-1).to).toBe(t.sandbox.chains.get('base')!.contracts.ERC20FeeProxy)
    })

    it.each([
      ['FAU, the documented case', '5', 'FAU-sepolia', 'FAU is not supported in crosschain payment.'],
      ['a native currency', '5', 'ETH-base-base', 'ETH-base is not supported in crosschain payment.'],
      [
        'a testnet request',
        '5',
        'USDC-sepolia',
        'Crosschain payments are only available between mainnet networks; this request is paid on sepolia',
      ],
      [
        'an amount below 1',
        '0.5',
        'USDC-base',
        'Crosschain payments must be of at least 1 USDC (expectedAmount less than 1 is rejected)',
      ],
    ])('refuses %s with 400', async (_, amount, currency, message) => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, amount, currency)
      const res = await pay(apiKey, requestId, { wallet, chain: 'ARBITRUM', token: 'USDC' })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' })
    })

    it('refuses a partial crosschain amount below 1, a source chain the sandbox does not run, and a missing wallet', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '50', 'USDC-base')
      const small = await pay(apiKey, requestId, { wallet, chain: 'ARBITRUM', token: 'USDC', amount: '0.99' })
      expect(small.status).toBe(400)
      expect(small.body.message).toMatch(/at least 1 USDC/)
      const optimism = await pay(apiKey, requestId, { wallet, chain: 'OPTIMISM', token: 'USDC' })
      expect(optimism.status).toBe(400)
      expect(optimism.body.message).toContain('needs optimism running in this sandbox')
      expect(optimism.body.message).toContain('--networks base,optimism')
      const noWallet = await pay(apiKey, requestId, { chain: 'ARBITRUM', token: 'USDC' })
      expect(noWallet.status).toBe(400)
      expect(noWallet.body).toEqual({
        message: 'Validation failed',
        errors: [{ field: 'wallet', message: 'wallet is required for crosschain payments' }],
      })
      expect(intentState(t.sandbox.shared.tenants.get(apiKey)).paymentIntents.size).toBe(0)
    })

    it('refuses chain without token and unknown enum values with the documented field errors', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, '5', 'USDC-base')
      const alone = await pay(apiKey, requestId, { wallet, token: 'USDC' })
      expect(alone.body).toEqual({
        message: 'Validation failed',
        errors: [{ field: 'chain', message: 'chain and token must be provided together' }],
      })
      const badToken = await pay(apiKey, requestId, { wallet, chain: 'BASE', token: 'DAI' })
      expect(badToken.status).toBe(400)
      expect(badToken.body.errors).toEqual([
        { field: 'token', message: "Invalid enum value. Expected 'USDC' | 'USDT', received 'DAI'" },
      ])
    })
  },
)
