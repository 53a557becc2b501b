// The tokens every default account holds from the start: one mintBatch per token, from the deployer (the minter).
import { type Address, encodeFunctionData, type Hash, parseUnits, toHex } from 'viem'
import { sandboxTokenAbi } from './abis.ts'
import type { ChainContext, InstalledToken } from './install-contracts.ts'
import { rawRequest } from './json-rpc.ts'

/** Gas of one mintBatch to the ten default accounts (about 300,000 used). */
const MINT_GAS = 2_000_000n

/**
 * Mints `whole` tokens of each of `tokens` to each of `holders` on the sandbox's own anvil: sent unsigned (anvil's
 * eth_sendUnsignedTransaction, from the deployer, nonces given), all in one JSON-RPC batch of `ctx`'s batched client,
 * then the receipts read together. No signature and no nonce, fee or gas round trips per transaction: the start's
 * mints cost a few requests. Throws when a mint did not succeed.
 */
export async function mintUnsigned(
  ctx: ChainContext,
  deployer: Address,
  tokens: readonly InstalledToken[],
  holders: readonly Address[],
  whole: string,
): Promise<void> {
  const nonce = await ctx.publicClient.getTransactionCount({ address: deployer, blockTag: 'pending' })
  const hashes = await Promise.all(
    tokens.map((token, i) =>
      rawRequest<Hash>(ctx, 'eth_sendUnsignedTransaction', [
        {
          from: deployer,
          to: token.address,
          nonce: toHex(nonce + i),
          gas: toHex(MINT_GAS),
          data: encodeFunctionData({
            abi: sandboxTokenAbi,
            functionName: 'mintBatch',
            args: [[...holders], parseUnits(whole, token.decimals)],
          }),
        },
      ]),
    ),
  )
  await Promise.all(
    hashes.map(async (hash) => {
      const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== 'success') throw new Error(`the start's mint ${hash} reverted`)
    }),
  )
}
