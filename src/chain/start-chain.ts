import { readFileSync } from 'node:fs'
import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  defineChain,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { createTronNode } from '../tron/node/node.ts'
import { sandboxTokenAbi } from './abis.ts'
import { type AnvilProcess, spawnAnvil, waitForRpc } from './anvil.ts'
import { installCommerceEscrow } from './commerce-escrow.ts'
import { addressOfKey, mnemonicKeys } from './hd-keys.ts'
import { mintUnsigned } from './initial-mints.ts'
import { batchedContext, type ChainContext, installContracts } from './install-contracts.ts'
import { allowance, balanceOf, jsonRpc, rawRequest } from './json-rpc.ts'
import { ownHttp } from './own-traffic.ts'
import { installRecurringProxy } from './recurring.ts'
import { newDeploymentSecret, sandboxKeys } from './sandbox-keys.ts'
import { createSender, type TransactionSender } from './sender.ts'
import type {
  ChainCurrency,
  LiveChain,
  NetworkName,
  SandboxAccount,
  SandboxKeys,
  StartChainOptions,
} from './types.ts'

/** anvil's default mnemonic: its 10 accounts are the sandbox's user wallets. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** ETH given to each sandbox role key. */
export const ROLE_BALANCE = parseEther('10000')

/** Chain id of a network, from fixtures/networks.json. */
export function networkChainId(network: NetworkName): number {
  const url = new URL('../../fixtures/networks.json', import.meta.url)
  const networks = JSON.parse(readFileSync(url, 'utf8')) as Record<string, { chainId?: number }>
  const chainId = networks[network]?.chainId
  if (chainId === undefined) throw new Error(`unknown network ${network}`)
  return chainId
}

/** The first `count` accounts of a mnemonic (BIP-44 m/44'/60'/0'/0/i), with their private keys. */
export function mnemonicAccounts(mnemonic = DEFAULT_MNEMONIC, count = 10): SandboxAccount[] {
  return mnemonicKeys(mnemonic, count).map((privateKey) => ({
    address: addressOfKey(privateKey),
    privateKey,
  }))
}

/** A viem chain object for a sandbox network at `rpcUrl` (native currency from the fixture list when known). */
export function sandboxChain(
  network: NetworkName,
  chainId: number,
  rpcUrl: string,
  currencies: readonly ChainCurrency[],
): Chain {
  const native = currencies.find((c) => c.network === network && c.type === 'ETH')
  return defineChain({
    id: chainId,
    name: `Request Sandbox (${network})`,
    nativeCurrency: { name: native?.name ?? 'Ether', symbol: native?.symbol ?? 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

/** A LiveChain as startChain returns it: also tells the pid of the anvil it spawned (null when given rpcUrl). */
export interface StartedChain extends LiveChain {
  pid: number | null
}

/**
 * Starts (or connects to) an anvil for `options.network`, installs the proxies and tokens at their real addresses,
 * funds the role keys with ETH and mints `fundTokens` whole tokens of every token to each default account.
 */
export async function startChain(options: StartChainOptions): Promise<StartedChain> {
  const network = options.network ?? 'sepolia'
  const chainId = networkChainId(network)
  const spawning = options.rpcUrl ? null : spawnAnvil({ chainId })
  // Key derivation is CPU work: do it while anvil boots.
  const accounts = mnemonicAccounts()
  // the sandbox's own keys: the deployment's (secret, never served), else fresh ones for this chain alone
  const keys = options.keys ?? sandboxKeys(newDeploymentSecret())
  const anvil: AnvilProcess | null = spawning ? await spawning : null
  try {
    const rpcUrl = anvil?.rpcUrl ?? options.rpcUrl!
    if (!anvil) await waitForRpc(rpcUrl, chainId)
    return await setUpChain(network, chainId, rpcUrl, options, accounts, keys, anvil)
  } catch (error) {
    await anvil?.stop()
    throw error
  }
}

async function setUpChain(
  network: NetworkName,
  chainId: number,
  rpcUrl: string,
  options: StartChainOptions,
  accounts: SandboxAccount[],
  keys: SandboxKeys,
  anvil: AnvilProcess | null,
): Promise<StartedChain> {
  const { roles } = keys
  const chain = sandboxChain(network, chainId, rpcUrl, options.currencies)
  const transport = ownHttp(rpcUrl)
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 })
  const rpc = jsonRpc(rpcUrl)
  const testClient = createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 50 })
  const ctx: ChainContext = { rpcUrl, publicClient, testClient, roles }
  // Installation makes ~200 calls, most of them together (a contract's code and storage slots): batched
  const installCtx = batchedContext(ctx)
  const [installed, recurring, escrow] = await Promise.all([
    installContracts(installCtx, { network, currencies: options.currencies, contracts: options.contracts }),
    installRecurringProxy(installCtx, options.contracts),
    installCommerceEscrow(installCtx, options.contracts),
    ...Object.values(roles).map((r) =>
      installCtx.testClient.setBalance({ address: r.address, value: ROLE_BALANCE }),
    ),
  ])

  // the deployer's sender signs (viem's secp256k1 tables built on its first use): made when first needed
  let deployerSender: TransactionSender | null = null
  const deployer = () => {
    deployerSender ??= createSender({ rpcUrl, publicClient }, roles.deployer.privateKey)
    return deployerSender
  }
  const installedTokens = new Set(installed.tokenList.map((t) => t.address.toLowerCase()))

  const holders = accounts.map((a) => a.address)
  const whole = String(options.fundTokens ?? 1_000_000)
  if (anvil) {
    await mintUnsigned(installCtx, roles.deployer.address, installed.tokenList, holders, whole)
  } else {
    // a node reached by rpcUrl: one signed mintBatch per token, all sent first (in nonce order), receipts together
    const sent = installed.tokenList.map((token) =>
      deployer().submit(
        {
          to: token.address,
          abi: sandboxTokenAbi,
          functionName: 'mintBatch',
          args: [holders, parseUnits(whole, token.decimals)],
        },
        { simulate: false },
      ),
    )
    await Promise.all(sent.map(async (hash) => deployer().confirm(await hash)))
  }

  const live: StartedChain = {
    network,
    chainId,
    rpcUrl,
    pid: anvil?.pid ?? null,
    publicClient,
    testClient,
    contracts: { ...installed.contracts, ...recurring, ...escrow },
    tokens: installed.tokens,
    accounts,
    roles,
    derivedAccount: keys.derive,
    isSandboxAccount: keys.isOwn,
    rpc,
    balanceOf(token: Address | 'native', owner: Address) {
      return balanceOf(rpc, token, owner)
    },
    allowance(token: Address, owner: Address, spender: Address) {
      return allowance(rpc, token, owner, spender)
    },
    async fund(token: Address | 'native', to: Address, amount: bigint) {
      if (token === 'native') {
        await rawRequest(ctx, 'anvil_addBalance', [to, toHex(amount)])
        return null
      }
      if (!installedTokens.has(token.toLowerCase()))
        throw new Error(`${token} is not a token installed on ${network}`)
      const hash = await deployer().submit(
        { to: token, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] },
        { simulate: false },
      )
      return (await deployer().confirm(hash)).transactionHash
    },
    async stop() {
      await anvil?.stop()
    },
  }
  // the `tron` chain is also served as a Tron full node (TronGrid's HTTP API) by the sandbox
  if (network === 'tron') live.tron = createTronNode(live)
  return live
}
