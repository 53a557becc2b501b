// Secure payout links on every documented EVM network (issue 21 item 7). Pages: RequestNetwork/mintlify-docs
// resources/supported-chains-and-currencies.mdx ("payment destinations, payment links, and single payouts" on the
// 7 EVM chains: mainnet, arbitrum-one, optimism, base, matic, bsc, plus sepolia) and
// api-features/secure-payment-supported-networks-and-currencies.mdx (USDT0 on Arbitrum One, Optimism, Polygon).
// No chain runs here: a link is created without one (paying on chain: test/chain/documented-networks.test.ts).
import { expect, it } from 'vitest'
import { freshAddress } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

const DOCUMENTED = [
  ['mainnet', 'USDC-mainnet', 'USDT-mainnet'],
  ['arbitrum-one', 'USDC-arbitrum-one', 'USDT0-arbitrum-one'],
  ['optimism', 'USDC-optimism', 'USDT-optimism', 'USDT0-optimism'],
  ['base', 'USDC-base', 'USDT-base'],
  ['matic', 'USDC-matic', 'USDT-matic', 'USDT0-matic'],
  ['bsc', 'USDC-bsc', 'USDT-bsc'],
  ['sepolia', 'USDC-sepolia', 'FAU-sepolia'],
] as const

describeTransports(
  'payout links on every documented EVM network through %s',
  () => t,
  (client) => {
    it('creates a payout link for each documented EVM network and token, and shows it on its network', async () => {
      const apiKey = newApiKey()
      for (const [network, ...currencies] of DOCUMENTED) {
        for (const currency of currencies) {
          const created = await client().call('POST', '/v2/secure-payments/payouts', {
            apiKey,
            body: {
              recipient: freshAddress(),
              creatorWalletAddress: freshAddress(),
              network,
              currency,
              amount: '5',
            },
          })
          expect(created.status, `${network} ${currency}: ${created.text}`).toBe(201)
          const shown = await client().call('GET', `/v2/secure-payments/${created.body.token}`, { apiKey })
          expect(shown.status).toBe(200)
          expect(JSON.stringify(shown.body)).toContain(currency)
        }
      }
    })
  },
)
