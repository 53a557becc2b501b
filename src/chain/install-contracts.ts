import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hash,
  type Hex,
  isAddressEqual,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { toEvmAddress } from '../tron/address.ts'
import { artifacts, type ContractArtifact } from './artifacts.ts'
import { rawRequest } from './json-rpc.ts'
import { ownHttp } from './own-traffic.ts'
import { installSafeContracts } from './safe.ts'
import type { ChainContracts, ChainCurrency, LiveChain, NetworkName } from './types.ts'

/** What the install helpers need of a chain (a LiveChain, or one being started). */
export type ChainContext = Pick<LiveChain, 'rpcUrl' | 'publicClient' | 'testClient' | 'roles'>

/** Runtime code and the storage slots a constructor leaves behind. */
export interface CreationState {
  code: Hex
  storage: Record<Hex, Hex>
}

/** An ERC-20 installed on the chain, with the currency ids that share its address. */
export interface InstalledToken {
  address: Address
  decimals: number
  ids: string[]
}

/** What installContracts put on the chain. */
export interface InstalledContracts {
  /** artifact name -> address */
  contracts: ChainContracts
  /** currency id -> token address */
  tokens: Record<string, Address>
  /** one entry per distinct token address */
  tokenList: InstalledToken[]
}

/** Request Network contracts whose constructors leave nothing that can't be copied: installed at their real addresses. */
export const CODE_ONLY_CONTRACTS = ['ERC20FeeProxy', 'EthereumFeeProxy'] as const

/** Permit2's canonical address (the same on every chain): the sandbox's own SandboxPermit2 is installed there. */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'

/**
 * Request Network's BatchConversionPayments at its published address: its constructor only writes storage (proxy
 * addresses, owner = the deployer, batch fee 0), which installAt copies. The conversion proxies are not there yet
 * (the conversion stack is installed after the contracts): installConversionStack installs it again wired to them.
 */
async function installBatch(ctx: ChainContext, contracts: ChainContracts, installed: ChainContracts) {
  const address = contracts.BatchConversionPayments
  if (!address || !installed.ERC20FeeProxy || !installed.EthereumFeeProxy) return []
  const args = [
    installed.ERC20FeeProxy,
    installed.EthereumFeeProxy,
    installed.Erc20ConversionProxy ?? ZERO_ADDRESS,
    installed.EthConversionProxy ?? ZERO_ADDRESS,
    installed.ChainlinkConversionPath ?? ZERO_ADDRESS,
    ctx.roles.deployer.address,
  ]
  return [
    ['BatchConversionPayments', await installAt(ctx, artifacts.BatchConversionPayments, args, address)],
  ] as const
}

/**
 * Request Network's Tron batch contract (ERC20BatchPayments, at its published Tron address) where it is listed: the
 * sandbox's own SandboxTronBatchPayments, its entry point, paying through the chain's ERC20FeeProxy (an immutable).
 */
async function installTronBatch(ctx: ChainContext, contracts: ChainContracts, installed: ChainContracts) {
  const address = contracts.ERC20BatchPayments
  if (!address || !installed.ERC20FeeProxy) return []
  const args = [installed.ERC20FeeProxy]
  return [
    ['ERC20BatchPayments', await installAt(ctx, artifacts.SandboxTronBatchPayments, args, address)],
  ] as const
}

type PrestateDiff = { post?: Record<string, { code?: Hex; storage?: Record<Hex, Hex> }> }

/**
 * The same chain with clients that send the calls of one tick as one JSON-RPC batch: an installation makes hundreds
 * of calls, most of them together (a contract's creation traced, its code and storage slots written), which batched
 * are a few dozen HTTP requests.
 */
export function batchedContext(ctx: ChainContext): ChainContext {
  const chain = ctx.publicClient.chain
  const transport = ownHttp(ctx.rpcUrl, { batch: { wait: 0 } })
  return {
    rpcUrl: ctx.rpcUrl,
    roles: ctx.roles,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    testClient: createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 50 }),
  }
}

const DIFF_TRACER = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }

/**
 * Runs a contract's creation code in an eth_call-like trace (no transaction) from `from` (default the deployer):
 * returns the runtime code (immutables filled in) and the storage its constructor wrote.
 * Falls back to a plain eth_call (code only) if the node has no debug_traceCall.
 */
export async function simulateCreation(
  ctx: ChainContext,
  artifact: ContractArtifact,
  args: readonly unknown[] = [],
  from: Address = ctx.roles.deployer.address,
): Promise<CreationState> {
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args })
  const [nonce, trace] = await Promise.all([
    ctx.publicClient.getTransactionCount({ address: from }),
    rawRequest<PrestateDiff>(ctx, 'debug_traceCall', [{ from, data }, 'latest', DIFF_TRACER]).catch(
      () => null,
    ),
  ])
  const created = getContractAddress({ from, nonce: BigInt(nonce) }).toLowerCase()
  const post = trace?.post?.[created]
  if (post?.code && post.code !== '0x') return { code: post.code, storage: post.storage ?? {} }
  // No trace (or the creation failed): eth_call returns the runtime code, or throws the constructor's revert.
  const { data: code } = await ctx.publicClient.call({ account: from, data })
  if (!code || code === '0x') throw new Error(`creation of ${artifact.contractName} returned no code`)
  return { code, storage: {} }
}

/** Writes runtime code and storage slots at `address` (anvil_setCode / anvil_setStorageAt). */
export async function writeState(ctx: ChainContext, address: Address, state: CreationState): Promise<void> {
  await Promise.all([
    ctx.testClient.setCode({ address, bytecode: state.code }),
    ...Object.entries(state.storage).map(([index, value]) =>
      ctx.testClient.setStorageAt({ address, index: index as Hex, value: value as Hex }),
    ),
  ])
}

/**
 * Installs a contract at a fixed address without a transaction: simulates its creation (constructor `args`,
 * msg.sender = the deployer) and copies the resulting code and constructor-written storage to `address`.
 * Not for constructors that call other contracts or store address(this): those effects are not copied.
 */
export async function installAt(
  ctx: ChainContext,
  artifact: ContractArtifact,
  args: readonly unknown[],
  address: Address,
): Promise<Address> {
  await writeState(ctx, address, await simulateCreation(ctx, artifact, args))
  return getAddress(address)
}

/**
 * Deploys with a real transaction from roles.deployer. The contract lands at the CREATE address of the deployer
 * and its current nonce (nonce-determined: any earlier deployer transaction shifts it). If `address` is given
 * and differs, the deployed code and the storage the constructor wrote are also copied there, and `address` is
 * returned. Sends from the deployer: do not run it concurrently with other deployer transactions (fund()).
 */
export async function deployAt(
  ctx: ChainContext,
  artifact: ContractArtifact,
  args: readonly unknown[] = [],
  address?: Address,
): Promise<{ address: Address; deployedAt: Address; hash: Hash }> {
  const account = privateKeyToAccount(ctx.roles.deployer.privateKey)
  const chain = ctx.publicClient.chain
  const wallet = createWalletClient({ account, chain, transport: ownHttp(ctx.rpcUrl) })
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    chain: chain ?? null,
  })
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deployment of ${artifact.contractName} failed (${hash})`)
  }
  const deployedAt = getAddress(receipt.contractAddress)
  if (!address || isAddressEqual(address, deployedAt)) return { address: deployedAt, deployedAt, hash }
  const [code, trace] = await Promise.all([
    ctx.publicClient.getCode({ address: deployedAt }),
    rawRequest<PrestateDiff>(ctx, 'debug_traceTransaction', [hash, DIFF_TRACER]),
  ])
  const storage = trace.post?.[deployedAt.toLowerCase()]?.storage ?? {}
  await writeState(ctx, address, { code: code ?? '0x', storage })
  return { address: getAddress(address), deployedAt, hash }
}

/** The ERC-20 currencies of `network`, grouped by address (first currency of a group names the token). */
export function tokensOf(
  network: NetworkName,
  currencies: readonly ChainCurrency[],
): Map<string, ChainCurrency[]> {
  const groups = new Map<string, ChainCurrency[]>()
  for (const c of currencies) {
    if (c.network !== network || (c.type !== 'ERC20' && c.type !== 'TRC20') || !c.address) continue
    // TRC-20 tokens are listed at their `T…` address: installed at the EVM address behind it
    const key = toEvmAddress(c.address)
    groups.set(key, [...(groups.get(key) ?? []), c])
  }
  return groups
}

/**
 * Installs, at their real addresses and without transactions, the code-only Request Network proxies listed in
 * `contracts`, BatchConversionPayments and the Tron batch contract where they are listed, the sandbox's SandboxPermit2 at Permit2's address, and
 * one SandboxToken per distinct ERC-20 address of `network` (minter = roles.deployer), and the Safe v1.4.1
 * contracts at their canonical addresses (src/chain/safe.ts).
 */
export async function installContracts(
  ctx: ChainContext,
  options: { network: NetworkName; currencies: readonly ChainCurrency[]; contracts: ChainContracts },
): Promise<InstalledContracts> {
  const proxies = CODE_ONLY_CONTRACTS.filter((name) => options.contracts[name] !== undefined).map(
    async (name) => [name, await installAt(ctx, artifacts[name], [], options.contracts[name]!)] as const,
  )
  const tokens = [...tokensOf(options.network, options.currencies).values()].map(async (group) => {
    const head = group[0]!
    const args = [head.name, head.symbol, head.decimals, head.permit ?? '', ctx.roles.deployer.address]
    // Tether on Tron refuses to approve from a non-zero allowance (its own rule): SandboxTetherToken keeps it
    const artifact =
      head.type === 'TRC20' && head.symbol === 'USDT' ? artifacts.SandboxTetherToken : artifacts.SandboxToken
    const address = await installAt(ctx, artifact, args, getAddress(toEvmAddress(head.address!)))
    return { address, decimals: head.decimals, ids: group.map((c) => c.id) }
  })
  const permit2 = installAt(ctx, artifacts.SandboxPermit2, [], PERMIT2_ADDRESS).then(
    (a) => ['Permit2', a] as const,
  )
  const [installedProxies, tokenList, installedPermit2, safe] = await Promise.all([
    Promise.all(proxies),
    Promise.all(tokens),
    permit2,
    installSafeContracts(ctx),
  ])
  const proxyMap: ChainContracts = Object.fromEntries(installedProxies)
  const [batch, tronBatch] = await Promise.all([
    installBatch(ctx, options.contracts, proxyMap),
    installTronBatch(ctx, options.contracts, proxyMap),
  ])
  return {
    contracts: {
      ...proxyMap,
      ...Object.fromEntries(batch),
      ...Object.fromEntries(tronBatch),
      [installedPermit2[0]]: installedPermit2[1],
      ...safe,
    },
    tokens: Object.fromEntries(tokenList.flatMap((t) => t.ids.map((id) => [id, t.address]))),
    tokenList,
  }
}
