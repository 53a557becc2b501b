// Chain time: anvil time only moves forward and is shared by every tenant, so it follows the furthest tenant clock.
import type { LiveChain } from './types.ts'

/** The latest block's timestamp, in seconds. */
export async function chainTime(chain: Pick<LiveChain, 'publicClient'>): Promise<number> {
  const block = await chain.publicClient.getBlock({ blockTag: 'latest' })
  return Number(block.timestamp)
}

/**
 * Moves every live chain's time up to `now` when it is behind (anvil time only moves forward and is shared by
 * all tenants: chain time follows the furthest tenant clock). Mines one block at that time.
 */
export async function syncChainTime(chains: Iterable<LiveChain>, now: Date): Promise<void> {
  const target = BigInt(Math.floor(now.getTime() / 1000))
  for (const chain of chains) {
    const block = await chain.publicClient.getBlock({ blockTag: 'latest' })
    if (block.timestamp >= target) continue
    await chain.testClient.setNextBlockTimestamp({ timestamp: target })
    await chain.testClient.mine({ blocks: 1 })
  }
}
