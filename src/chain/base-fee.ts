// A base fee no caller can drive up. Anyone may send transactions through /rpc (anvil's default accounts are public,
// the faucet hands out ETH), and each block fuller than half its gas limit raises the next block's base fee by up to
// 12.5%: one stranger sending 30,000,000-gas loops one after the other took it from 0.77 to 6,500 gwei in 1,000
// blocks (10 s), on the way to fees that the sandbox's own accounts (10,000 ETH each), the test wallets and every
// payer's faucet ETH cannot pay. anvil keeps a base fee of 0 as it is, whatever the blocks hold (it takes a 0 as set
// on purpose), so on a shared listener the sandbox sets it to 0 before it forwards a caller's transaction. Gas still
// costs its priority fee: eth_gasPrice and eth_maxPriorityFeePerGas answer 1 gwei as before.
import type { LiveChain } from './types.ts'

/** Sets the chain's base fee to 0 for good, unless it is already. A set made while blocks are mining may be lost to
 * them: the next call sets it again. */
export async function pinBaseFee(chain: Pick<LiveChain, 'rpc'>): Promise<void> {
  const pending = await chain.rpc<{ baseFeePerGas?: string } | null>('eth_getBlockByNumber', [
    'pending',
    false,
  ])
  if (pending?.baseFeePerGas && BigInt(pending.baseFeePerGas) !== 0n)
    await chain.rpc('anvil_setNextBlockBaseFeePerGas', ['0x0'])
}
