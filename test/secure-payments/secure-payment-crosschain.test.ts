// A secure payment link on base paid from arbitrum-one: /{token}/pay with chain + token issues the sandbox's
// cross-chain intent (with the secure-payments metadata), the payer signs it and records it with /{token}/intent
// (no API key: the token is the credential), the operator settles on base and the detector completes the link.
import { expect, it } from 'vitest'
import { freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { type CrosschainAnswer, signAnswer, walletOn } from '../support/crosschain.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports(newApiKey, { networks: ['base', 'arbitrum-one'] })

describeTransports(
  'a secure payment paid cross-chain through %s',
  () => t,
  { http: 6, msw: 7 },
  (client, account) => {
    it('issues the intent with the secure-payments metadata, takes it signed at /intent and completes on base', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: { requests: [{ payee: freshAddress(), currency: 'USDC-base', amount: '10' }] },
      })
      expect(created.status).toBe(201)
      const { token, requestIds } = created.body
      const arbitrum = t.sandbox.shared.chains.get('arbitrum-one')!
      const payer = walletOn(client(), arbitrum, account)
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { chain: 'ARBITRUM', token: 'USDC', wallet: payer.account.address },
      })
      expect(pay.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/{token}/pay', 200, pay.body)
      expect(pay.body.metadata).toMatchObject({ routeType: 'crosschain', paymentTransactionIndex: 0 })
      expect(pay.body.paymentIntentId).toEqual(expect.any(String))

      const signed = await signAnswer(payer.account, pay.body as CrosschainAnswer)
      const forged = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: { chain: 'ARBITRUM', token: 'USDC', paymentIntentId: 'not-this-one', ...signed },
      })
      expect(forged.status).toBe(400)
      const recorded = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: {
          chain: 'ARBITRUM',
          token: 'USDC',
          executionKind: 'evm_cross_chain',
          paymentIntentId: pay.body.paymentIntentId,
          payerAddress: payer.account.address,
          ...signed,
        },
      })
      expect(recorded.status).toBe(200)
      expect(recorded.body).toMatchObject({ intentId: pay.body.paymentIntentId, isListening: true })
      await until(
        () => client().call('GET', `/v2/secure-payments/${token}`, { apiKey }),
        (res) => res.status === 409,
        { timeoutMs: 20_000 },
      )
      expect((await client().call('GET', `/v2/request/${requestIds[0]}`, { apiKey })).body.hasBeenPaid).toBe(
        true,
      )
      const byRequest = await client().call('GET', '/v2/secure-payments', {
        apiKey,
        query: { requestId: requestIds[0] },
      })
      expect(byRequest.body).toMatchObject({ status: 'completed', executionKind: 'evm_cross_chain' })
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments', 200, byRequest.body)
    })
  },
)
