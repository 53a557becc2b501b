// Sending the API's transactions as a wallet would: the one sender of the scenario seeds and the tests (and of an
// app's tests through `request-sandbox/msw`). viem only, no Node built-ins.
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  type HttpTransport,
  http,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
} from 'viem'

/** A transaction as the API returns it: `value` as ethers' BigNumber JSON, or a hex string (the cancel endpoint). */
export interface ApiTransaction {
  to: string
  data: string
  value: { hex: string } | string | number
}

/** Where a wallet sends: a chain id and a JSON-RPC URL (anvil's own, or the sandbox's `/rpc/<network>`). */
export interface WalletTarget {
  chainId: number
  rpcUrl: string
  name?: string
}

/** The value of an API transaction in wei, whichever way the API wrote it. */
export function transactionValue(value: ApiTransaction['value']): bigint {
  return BigInt(typeof value === 'object' ? value.hex : value)
}

/** A wallet client of `account` and a public client on `target` (receipts polled every `pollingInterval` ms). */
export function walletClients(
  target: WalletTarget,
  account: Account,
  pollingInterval = 50,
): {
  chain: Chain
  publicClient: PublicClient<HttpTransport, Chain>
  wallet: WalletClient<HttpTransport, Chain, Account>
} {
  const chain = defineChain({
    id: target.chainId,
    name: target.name ?? 'Request Sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [target.rpcUrl] } },
  })
  const transport = http(target.rpcUrl)
  return {
    chain,
    publicClient: createPublicClient({ chain, transport, pollingInterval }),
    wallet: createWalletClient({ account, chain, transport }),
  }
}

/**
 * Sends the API's transactions in order from `account`, each after the previous one's receipt, exactly as returned
 * (value read from its BigNumber JSON or hex); throws `transaction <hash> reverted` when one fails.
 */
export async function sendApiTransactions(
  target: WalletTarget,
  account: Account,
  transactions: readonly ApiTransaction[],
  options: { pollingInterval?: number } = {},
): Promise<TransactionReceipt[]> {
  const { wallet, publicClient } = walletClients(target, account, options.pollingInterval)
  const receipts: TransactionReceipt[] = []
  for (const tx of transactions) {
    const hash = await wallet.sendTransaction({
      to: getAddress(tx.to),
      data: tx.data as Hex,
      value: transactionValue(tx.value),
    })
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: options.pollingInterval ?? 50,
    })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
    receipts.push(receipt)
  }
  return receipts
}
