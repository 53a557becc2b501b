// Several live networks: one anvil each with its real chain id, the same contracts and tokens at their published
// addresses, reachable at /rpc/{network} (and /rpc for the first), default accounts and sandbox roles funded on each.
import { readFileSync } from 'node:fs'
import { type Address, parseAbi, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import { PERMIT2_ADDRESS } from '../../src/chain/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, {
  networks: ['base', 'arbitrum-one', 'optimism', 'mainnet', 'sepolia'],
})

const published = JSON.parse(
  readFileSync(new URL('../../fixtures/networks.json', import.meta.url), 'utf8'),
) as Record<string, { chainId: number; contracts: Record<string, string> }>
const expected = { base: 8453, 'arbitrum-one': 42161, optimism: 10, mainnet: 1, sepolia: 11155111 }

describeTransports(
  'live networks through %s',
  () => t,
  (client, transport) => {
    const rpc = async (path: string, method: string, params: unknown[] = []) =>
      (await client().call('POST', path, { apiKey: null, body: { jsonrpc: '2.0', id: 1, method, params } }))
        .body

    it('lists every chain in /__sandbox/chain with its chain id, RPC URL and contracts at published addresses', async () => {
      const res = await client().call('GET', '/__sandbox/chain', { apiKey: null })
      expect(res.status).toBe(200)
      expect(res.body.network).toBe('base')
      const chains = res.body.chains as {
        network: keyof typeof expected
        chainId: number
        rpcUrl: string
        anvilRpcUrl: string
        contracts: Record<string, Address>
        tokens: Record<string, Address>
      }[]
      expect(chains.map((c) => [c.network, c.chainId])).toEqual(Object.entries(expected))
      for (const chain of chains) {
        if (transport === 'http') expect(chain.rpcUrl).toBe(`${client().baseUrl}/rpc/${chain.network}`)
        expect(chain.anvilRpcUrl).toBe(t.sandbox.chains.get(chain.network)!.rpcUrl)
        const contracts = published[chain.network]!.contracts
        for (const name of ['ERC20FeeProxy', 'EthereumFeeProxy', 'BatchConversionPayments']) {
          expect(chain.contracts[name]).toBe(contracts[name])
        }
        expect(chain.contracts.Permit2).toBe(PERMIT2_ADDRESS)
        expect(Object.keys(chain.tokens).length).toBeGreaterThan(0)
      }
      expect(chains.find((c) => c.network === 'arbitrum-one')!.tokens['USDT0-arbitrum-one']).toBe(
        '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
      )
    })

    it('answers each network at /rpc/{network} with its chain id, and the first one at /rpc', async () => {
      for (const [network, chainId] of Object.entries(expected)) {
        expect((await rpc(`/rpc/${network}`, 'eth_chainId')).result).toBe(`0x${chainId.toString(16)}`)
      }
      expect((await rpc('/rpc', 'eth_chainId')).result).toBe('0x2105')
      const unknown = await client().call('POST', '/rpc/matic', {
        apiKey: null,
        body: { jsonrpc: '2.0', id: 1 },
      })
      expect(unknown.status).toBe(404)
    })

    it('funds the default accounts with every token and the operator with gas on every chain', async () => {
      const balanceOf = parseAbi(['function balanceOf(address) view returns (uint256)'])
      for (const chain of t.sandbox.chains.values()) {
        const holder = chain.accounts[9]!.address
        for (const [id, token] of Object.entries(chain.tokens)) {
          const decimals = t.sandbox.shared.currencies.byId(id)!.decimals
          const balance = await chain.publicClient.readContract({
            address: token,
            abi: balanceOf,
            functionName: 'balanceOf',
            args: [holder],
          })
          expect(balance, `${id} of ${holder}`).toBe(parseUnits('1000000', decimals))
        }
        expect(await chain.balanceOf('native', holder)).toBeGreaterThan(parseUnits('1000', 18))
        expect(await chain.balanceOf('native', chain.roles.operator.address)).toBeGreaterThan(
          parseUnits('1000', 18),
        )
        expect(await chain.publicClient.getCode({ address: PERMIT2_ADDRESS })).toMatch(/^0x[0-9a-f]{100,}$/)
      }
    })
  },
)
