// Cross-chain routes on the command's default flags (issue 31 item 5). api-features/crosschain-payments.mdx: "Fetch
// payment routes" with GET /v2/request/{requestId}/routes, the payer picks one, then GET /v2/request/{requestId}/pay
// with the route's `chain` and `token`; Arbitrum One is a supported source chain. A sandbox started as `npm start`
// runs sepolia only and starts the other documented networks on first use: the routes list offers every documented
// source (a network not running yet included), and paying the chosen route starts its network and settles.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { startServer } from '../../src/server.ts'
import { createRequestWith, describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { type CrosschainAnswer, erc20PaymentLogs, signAnswer, walletOn } from '../support/crosschain.ts'
import { waitFor } from '../support/wait.ts'

// what `npm start` asks of the sandbox: the default network list (sepolia), other networks started on first use
const t = useTransports(newApiKey, { networksOnUse: 'start' })

const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

it('runs as `npm start` does: sepolia only until a call names another network', () => {
  expect([...t.sandbox.chains.keys()]).toEqual(['sepolia'])
})

describeTransports(
  'cross-chain routes on default flags through %s',
  () => t,
  { http: 1, msw: 2 },
  (client, accountIndex) => {
    it('offers the Arbitrum route of a USDC-base request (crosschain-payments.mdx "Fetch payment routes"), and paying it settles on base', async () => {
      const apiKey = newApiKey()
      // anvil's account of this transport (the same key on every chain)
      const payerAddress = privateKeyToAccount(t.sandbox.chain!.accounts[accountIndex]!.privateKey).address
      const payee = privateKeyToAccount(generatePrivateKey()).address
      // a USDC-base request starts base (its currency names it)
      const { requestId, paymentReference } = await createRequestWith(client(), apiKey, {
        amount: '12.5',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee,
      })
      const arbitrumRan = t.sandbox.chains.has('arbitrum-one')
      const listed = await client().call('GET', `/v2/request/${requestId}/routes`, {
        apiKey,
        query: { wallet },
      })
      expect(listed.status).toBe(200)
      const ids = listed.body.routes.map((r: { id: string }) => r.id)
      expect(ids[0]).toBe('REQUEST_NETWORK_PAYMENT')
      // every documented source chain is offered (crosschain-payments.mdx "Supported Chains")
      for (const chain of ['ETHEREUM', 'ARBITRUM', 'OPTIMISM', 'POLYGON'])
        expect(ids).toContain(`${chain}_BASE_USDC_USDC`)
      const route = listed.body.routes.find((r: { id: string }) => r.id === 'ARBITRUM_BASE_USDC_USDC')
      expect(route).toMatchObject({ chain: 'ARBITRUM', token: 'USDC', speed: expect.any(Number) })
      // listing routes starts nothing: the network starts when the route is paid
      expect(t.sandbox.chains.has('arbitrum-one')).toBe(arbitrumRan)

      const pay = await client().call<CrosschainAnswer>('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { wallet: payerAddress, chain: route.chain, token: route.token },
      })
      expect(pay.status, JSON.stringify(pay.body)).toBe(200)
      // the pay call started the route's network
      const arbitrum = t.sandbox.chains.get('arbitrum-one')!
      const base = t.sandbox.chains.get('base')!
      const payer = walletOn(client(), arbitrum, accountIndex)
      const sent = await client().call('POST', `/v2/request/payment-intents/${pay.body.paymentIntentId}`, {
        apiKey,
        body: await signAnswer(payer.account, pay.body),
      })
      expect(sent.status, JSON.stringify(sent.body)).toBe(200)
      const [log] = await waitFor(async () => {
        const logs = await erc20PaymentLogs(base, paymentReference as `0x${string}`)
        return logs.length ? logs : undefined
      })
      expect(log!.args).toMatchObject({
        tokenAddress: base.tokens['USDC-base'],
        to: payee,
        amount: 12_500_000n,
      })
      const status = await waitFor(async () => {
        const res = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
        return res.body.hasBeenPaid ? res.body : undefined
      })
      expect(status).toMatchObject({ hasBeenPaid: true, status: 'paid', txHash: log!.transactionHash })
    })
  },
)

it('offers no route from a network the operator keeps from starting (--networks-on-use base, docs/shared-demo.md)', async () => {
  const narrowed = await startServer({ port: 0, networksOnUse: 'start', startableNetworks: ['base'] })
  try {
    const apiKey = newApiKey()
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' }
    const created = await fetch(`${narrowed.url}/v2/request`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: '12.5',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee: wallet,
      }),
    })
    expect(created.status).toBe(201)
    const { requestId } = (await created.json()) as { requestId: string }
    const listed = await fetch(`${narrowed.url}/v2/request/${requestId}/routes?wallet=${wallet}`, { headers })
    const { routes } = (await listed.json()) as { routes: { id: string; chain: string }[] }
    // base's own routes only: no other network may start here
    expect(routes[0]!.id).toBe('REQUEST_NETWORK_PAYMENT')
    expect(routes.map((r) => r.chain)).toEqual(routes.map(() => 'BASE'))
  } finally {
    await narrowed.close()
  }
})
