// A chain kept for the next sandbox of the process (createTestSandbox's one chain per worker): an anvil snapshot of
// the chain as it started (contracts, tokens, conversion stack), and the way back to it.

import { createTronNode } from '../tron/node/node.ts'
import type { StartedChain } from './start-chain.ts'

/** The snapshot a reused chain goes back to (anvil's evm_snapshot id). */
export async function takeBaseline(chain: StartedChain): Promise<string> {
  return chain.rpc<string>('evm_snapshot', [])
}

/**
 * Puts `chain` back as it was at `baseline`: every block, balance, code and storage slot since is gone, its clock is
 * real time again (a clock jump made since is undone), and the Tron node over it forgets its transactions. Returns
 * the next baseline (a snapshot is used up by its revert), or null when the chain cannot go back (an anvil that was
 * restarted has lost its snapshots): such a chain is stopped, not reused.
 */
export async function backToBaseline(chain: StartedChain, baseline: string): Promise<string | null> {
  try {
    if (!(await chain.rpc<boolean>('evm_revert', [baseline]))) return null
    const next = await chain.rpc<string>('evm_snapshot', [])
    await chain.rpc('evm_setTime', [Math.floor(Date.now() / 1000)])
    if (chain.tron) chain.tron = createTronNode(chain)
    return next
  } catch {
    return null
  }
}
