// The harness under jest (ESM): the same MSW handlers, a tenant per test, the chain, the detector's event.
// Run by test/examples/jest.test.ts as `jest` in a child process; it imports the compiled package like an app.
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { setupServer } from 'msw/node'
import { createTestSandbox } from 'request-sandbox/msw'
import { createWalletClient, defineChain, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

let rn
let server
beforeAll(async () => {
  rn = await createTestSandbox({ baseUrl: 'https://api.example.test/rn' })
  server = setupServer(...rn.handlers)
  server.listen({ onUnhandledRequest: 'error' })
})
afterAll(async () => {
  server.close()
  await rn.close()
})

it('creates an invoice through fetch, pays it on chain, and sees payment.confirmed', async () => {
  const tenant = await rn.tenant()
  const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
  const created = await fetch('https://api.example.test/rn/v2/request', {
    method: 'POST',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '2',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
    }),
  })
  expect(created.status).toBe(201)
  const { requestId } = await created.json()
  const payer = tenant.chain.accounts[7]
  const pay = await fetch(`https://api.example.test/rn/v2/request/${requestId}/pay?wallet=${payer.address}`, {
    headers: tenant.headers,
  })
  const { transactions } = await pay.json()
  const chain = defineChain({
    id: tenant.chain.chainId,
    name: 'sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [tenant.chain.rpcUrl] } },
  })
  const wallet = createWalletClient({
    chain,
    transport: http(),
    account: privateKeyToAccount(payer.privateKey),
  })
  for (const tx of transactions) {
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value.hex) })
    await tenant.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  }
  const event = await tenant.waitForEvent('payment.confirmed')
  expect(event.payload.requestId).toBe(requestId)
})
