// What resources and control read from a live chain (and the one balance they set), so that none of them
// calls viem's clients directly.
import type { Address, Hash, Hex, Transaction, TransactionReceipt } from 'viem'
import { erc20FeeProxyAbi, erc2612Abi, permit2Abi } from './abis.ts'
import { PERMIT2_ADDRESS } from './install-contracts.ts'
import type { LiveChain } from './types.ts'

/** The chain's current gas price (wei). */
export async function currentGasPrice(chain: LiveChain): Promise<bigint> {
  return BigInt(await chain.rpc<string>('eth_gasPrice'))
}

/** The latest block number, never cached. */
export async function blockNumber(chain: LiveChain): Promise<number> {
  return Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }))
}

/** Whether Permit2's unordered `nonce` of `owner` is still unused on chain. */
export async function permit2NonceFree(chain: LiveChain, owner: Address, nonce: bigint): Promise<boolean> {
  const bits = (await chain.publicClient.readContract({
    address: PERMIT2_ADDRESS,
    abi: permit2Abi,
    functionName: 'nonceBitmap',
    args: [owner, nonce >> 8n],
  })) as bigint
  return (bits & (1n << (nonce & 0xffn))) === 0n
}

/** The EIP-2612 nonce of `owner` on `token`. */
export function eip2612Nonce(chain: LiveChain, token: Address, owner: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: erc2612Abi,
    functionName: 'nonces',
    args: [owner],
  })
}

/** Sets `address`'s native balance to `amount` wei (the faucet for ETH currencies). */
export async function setNativeBalance(chain: LiveChain, address: Address, amount: bigint): Promise<void> {
  await chain.testClient.setBalance({ address, value: amount })
}

/** A catch that turns viem's `name` error into null and rethrows anything else. */
const notFound =
  (name: string) =>
  (error: unknown): null => {
    if ((error as Error).name === name) return null
    throw error
  }

/** A transaction with its receipt (null while pending) and its block's time; null when the chain does not know it. */
export async function transactionWithReceipt(
  chain: LiveChain,
  hash: Hash,
): Promise<{ transaction: Transaction; receipt: TransactionReceipt | null; timestamp: Date | null } | null> {
  // only "not found" means null: a node that does not answer must stay an error (503), not look like a 404
  const transaction = await chain.publicClient
    .getTransaction({ hash })
    .catch(notFound('TransactionNotFoundError'))
  if (!transaction) return null
  const receipt = await chain.publicClient
    .getTransactionReceipt({ hash })
    .catch(notFound('TransactionReceiptNotFoundError'))
  const block =
    transaction.blockNumber === null
      ? null
      : await chain.publicClient.getBlock({ blockNumber: transaction.blockNumber })
  return { transaction, receipt, timestamp: block ? new Date(Number(block.timestamp) * 1000) : null }
}

/** One ERC20FeeProxy payment as its log and transaction tell it. */
export interface FeeProxyPayment {
  txHash: Hash
  /** who sent the transaction */
  from: Address
  token: Address
  to: Address
  amount: bigint
  fee: bigint
  feeAddress: Address
}

/** The ERC20FeeProxy payments on `chain` carrying `reference` (every block), with the sender of each. */
export async function feeProxyPayments(chain: LiveChain, reference: Hex): Promise<FeeProxyPayment[]> {
  const proxy = chain.contracts.ERC20FeeProxy
  if (!proxy) return []
  const logs = await chain.publicClient.getLogs({
    address: proxy,
    event: erc20FeeProxyAbi[1],
    args: { paymentReference: reference },
    fromBlock: 0n,
    toBlock: 'latest',
  })
  return Promise.all(
    logs.map(async (log) => {
      const transaction = await chain.publicClient.getTransaction({ hash: log.transactionHash })
      return {
        txHash: log.transactionHash,
        from: transaction.from,
        token: log.args.tokenAddress!,
        to: log.args.to!,
        amount: log.args.amount!,
        fee: log.args.feeAmount!,
        feeAddress: log.args.feeAddress!,
      }
    }),
  )
}
