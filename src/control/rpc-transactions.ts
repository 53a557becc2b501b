// The transactions a caller sends through /rpc on a shared listener are ones the chain mines now. anvil keeps a
// transaction whose nonce is ahead of its sender's in its pool until the gap fills, with no bound: a stranger holding
// one of anvil's public accounts parked 300 transactions of 120 KB (nonces 1,000 on) and anvil grew by 40 MB, never
// to shrink (about 3 GB, and the chain of every key gone, in a few minutes). So a transaction whose nonce is more than
// MAX_NONCE_GAP past its sender's next one (pending transactions counted: a wallet sending several at once is ahead
// of what anvil has taken in by a few) answers 400 before it reaches anvil.
import { type Hex, parseTransaction, recoverTransactionAddress } from 'viem'
import type { LiveChain } from '../chain/index.ts'
import { SandboxError } from '../contract/sandbox-error.ts'

/** How far ahead of its sender's next nonce a transaction may be. */
export const MAX_NONCE_GAP = 16

/** The raw transactions of eth_sendRawTransaction calls in a JSON-RPC body (one call or a batch). */
function rawTransactions(calls: readonly unknown[]): Hex[] {
  return calls.flatMap((call) => {
    const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown }
    const raw = Array.isArray(params) ? params[0] : undefined
    return method === 'eth_sendRawTransaction' && typeof raw === 'string' && raw.startsWith('0x')
      ? [raw as Hex]
      : []
  })
}

/** Refuses (400) a raw transaction whose nonce is more than MAX_NONCE_GAP ahead of its sender's next one; one that does not parse passes to
 * the chain, which answers for it. */
export async function checkRawNonces(
  chain: Pick<LiveChain, 'rpc'>,
  calls: readonly unknown[],
): Promise<void> {
  for (const raw of rawTransactions(calls)) {
    let nonce: number | undefined
    let from: string
    try {
      nonce = parseTransaction(raw).nonce
      from = await recoverTransactionAddress({ serializedTransaction: raw as never })
    } catch {
      continue
    }
    if (nonce === undefined) continue
    // a chain that does not answer: the call goes on, and answers 503 as any other
    const count = await chain.rpc<Hex>('eth_getTransactionCount', [from, 'pending']).catch(() => null)
    if (count === null) continue
    const next = Number(count)
    if (nonce > next + MAX_NONCE_GAP)
      throw new SandboxError(
        400,
        `eth_sendRawTransaction: nonce ${nonce} is more than ${MAX_NONCE_GAP} ahead of ${from}'s next nonce (${next}): the sandbox's shared chain keeps no transaction waiting long for a nonce gap to fill; send nonce ${next} first`,
      )
  }
}
