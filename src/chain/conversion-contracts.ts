// Request Network's conversion stack on a live chain: ChainlinkConversionPath, one AggregatorMock per feed,
// Erc20ConversionProxy and EthConversionProxy, all installed without transactions (installAt), so nothing
// shifts a nonce and the published addresses can be used. Registering the feeds in the path contract is a
// function call whose storage effects are traced and written, for the same reason.
import { type Address, encodeFunctionData, getAddress, type Hex, keccak256, toHex } from 'viem'
import { chainlinkConversionPathAbi } from './abis.ts'
import { artifacts } from './artifacts.ts'
import { batchedContext, type ChainContext, installAt } from './install-contracts.ts'
import { rawRequest } from './json-rpc.ts'

/** One price feed: 1 `base` = answer / 10^8 `quote` (base and quote are currency hashes or token addresses). */
export interface FeedSpec {
  base: Address
  quote: Address
  address: Address
  /** the answer with 8 decimals */
  answer: bigint
}

/** Where one conversion stack lives. */
export interface ConversionStack {
  path: Address
  erc20Proxy: Address | null
  ethProxy: Address | null
  /** hash of the chain's native currency (ChainlinkConversionPath reads it as 18 decimals) */
  nativeHash: Address
  erc20FeeProxy: Address | null
  ethFeeProxy: Address | null
  /**
   * BatchConversionPayments wired to this stack's proxies and path (batch payouts with conversion rows pay through
   * it); null where the network has no batch contract
   */
  batch: Address | null
}

/** Decimals of every feed the sandbox installs (Chainlink's fiat feeds use 8). */
export const FEED_DECIMALS = 8
/** AggregatorMock's third constructor argument, as Request Network's own tests deploy it. */
const FEED_ROUND_AGE = 60

/** A fixed address derived from a label: `keccak256("request-sandbox:" + label)`, last 20 bytes. */
export function sandboxAddress(label: string): Address {
  return getAddress(`0x${keccak256(toHex(`request-sandbox:${label}`)).slice(-40)}`)
}

type PrestateDiff = { post?: Record<string, { storage?: Record<Hex, Hex> }> }

/**
 * Applies the storage effects of calling `to` with `data` from `from` without sending a transaction
 * (debug_traceCall with the prestate tracer in diff mode). Only storage of `to` is written.
 */
export async function applyCallEffects(
  ctx: ChainContext,
  to: Address,
  data: Hex,
  from: Address,
): Promise<void> {
  const trace = await rawRequest<PrestateDiff>(ctx, 'debug_traceCall', [
    { from, to, data },
    'latest',
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  ])
  const storage = trace.post?.[to.toLowerCase()]?.storage ?? {}
  await Promise.all(
    Object.entries(storage).map(([index, value]) =>
      ctx.testClient.setStorageAt({ address: to, index: index as Hex, value: value as Hex }),
    ),
  )
}

/** Installs (or re-installs with new answers) price feeds at their addresses. */
export async function installFeeds(chain: ChainContext, feeds: readonly FeedSpec[]): Promise<void> {
  const ctx = batchedContext(chain)
  await Promise.all(
    feeds.map((f) =>
      installAt(ctx, artifacts.AggregatorMock, [f.answer, FEED_DECIMALS, FEED_ROUND_AGE], f.address),
    ),
  )
}

const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'

/**
 * Installs a whole stack: the path contract, its feeds (registered in it), the conversion proxies, and the batch
 * contract that pays through them (its constructor storage: the fee proxies, these conversion proxies and path,
 * owner the deployer, batch fee 0).
 */
export async function installConversionStack(
  chain: ChainContext,
  stack: ConversionStack,
  feeds: readonly FeedSpec[],
): Promise<void> {
  const ctx = batchedContext(chain)
  const owner = ctx.roles.deployer.address
  await Promise.all([
    installAt(ctx, artifacts.ChainlinkConversionPath, [stack.nativeHash, owner], stack.path),
    installFeeds(ctx, feeds),
    stack.erc20Proxy && stack.erc20FeeProxy
      ? installAt(
          ctx,
          artifacts.Erc20ConversionProxy,
          [stack.erc20FeeProxy, stack.path, owner],
          stack.erc20Proxy,
        )
      : null,
    stack.ethProxy && stack.ethFeeProxy
      ? installAt(
          ctx,
          artifacts.EthConversionProxy,
          [stack.ethFeeProxy, stack.path, stack.nativeHash, owner],
          stack.ethProxy,
        )
      : null,
    stack.batch && stack.erc20FeeProxy && stack.ethFeeProxy
      ? installAt(
          ctx,
          artifacts.BatchConversionPayments,
          [
            stack.erc20FeeProxy,
            stack.ethFeeProxy,
            stack.erc20Proxy ?? ZERO_ADDRESS,
            stack.ethProxy ?? ZERO_ADDRESS,
            stack.path,
            owner,
          ],
          stack.batch,
        )
      : null,
  ])
  if (feeds.length === 0) return
  const data = encodeFunctionData({
    abi: chainlinkConversionPathAbi,
    functionName: 'updateAggregatorsList',
    args: [feeds.map((f) => f.base), feeds.map((f) => f.quote), feeds.map((f) => f.address)],
  })
  await applyCallEffects(ctx, stack.path, data, owner)
}

/** ChainlinkConversionPath.getConversion: `amount` of path[0] in path[last]'s base units, read on chain. */
export async function readConversion(
  ctx: Pick<ChainContext, 'publicClient'>,
  pathContract: Address,
  amount: bigint,
  path: readonly Address[],
): Promise<bigint> {
  const [result] = (await ctx.publicClient.readContract({
    address: pathContract,
    abi: chainlinkConversionPathAbi,
    functionName: 'getConversion',
    args: [amount, path],
  })) as readonly [bigint, bigint]
  return result
}
