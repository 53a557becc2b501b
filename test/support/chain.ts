// Paying from the tests: a default anvil account signs locally (as a browser or a backend wallet would) and
// sends the calldata the API returned, through the sandbox's own /rpc or straight to anvil, with the sandbox's
// own sender (src/harness/wallet.ts, which the scenario seeds use too).
import type { Address, Hex, TransactionReceipt } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { sendApiTransactions, walletClients } from '../../src/harness/wallet.ts'
import type { Sandbox } from '../../src/sandbox.ts'

/** A transaction as the pay endpoints return it. */
export type ApiTransaction = { to: Address; data: Hex; value: { type: 'BigNumber'; hex: Hex } }
export { until } from './wait.ts'

/** A fresh address nobody holds a key of in the tests (a payee whose balance starts at zero). */
export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** Wallet and public clients of default account `index`, on `rpcUrl` (default: the chain's own anvil). */
export function payer(sandbox: Sandbox, index: number, rpcUrl = sandbox.chain!.rpcUrl) {
  const info = sandbox.chain!
  const account = privateKeyToAccount(info.accounts[index]!.privateKey)
  const { publicClient, wallet } = walletClients(
    { chainId: info.chainId, rpcUrl, name: 'sandbox' },
    account,
    5,
  )
  return { account, publicClient, wallet }
}

/** Sends the API's transactions in order from account `index`; each must succeed. */
export function execute(
  sandbox: Sandbox,
  transactions: readonly ApiTransaction[],
  index: number,
): Promise<TransactionReceipt[]> {
  const chain = sandbox.chain!
  const account = privateKeyToAccount(chain.accounts[index]!.privateKey)
  return sendApiTransactions(chain, account, transactions, { pollingInterval: 5 })
}
