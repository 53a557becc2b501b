// Paying from the tests: a default anvil account signs locally (as a browser or a backend wallet would) and
// sends the calldata the API returned, through the sandbox's own /rpc or straight to anvil; the one
// `ApiTransaction` type the tests read the API's transactions as, and the one `advance` of a key's clock.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type ApiTransaction, sendApiTransactions } from '../../src/chain/index.ts'
import type { Sandbox } from '../../src/sandbox.ts'
import { type ApiClient, createRequestWith } from './clients.ts'
import { until, type WaitOptions } from './wait.ts'

/** A transaction as the API returns it (the chain's own type, what `sendApiTransactions` takes). */
export type { ApiTransaction }
export { until }

/** The wei a transaction of the API sends, whichever form its `value` takes. */
export function weiOf(tx: ApiTransaction): bigint {
  const v = tx.value
  if (v === undefined || v === null) return 0n
  return BigInt(typeof v === 'object' ? v.hex : v)
}

/** A fresh address nobody holds a key of in the tests (a payee whose balance starts at zero). */
export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** Wallet and public clients of default account `index`, on `rpcUrl` (default: the chain's own anvil). */
export function payer(sandbox: Sandbox, index: number, rpcUrl = sandbox.chain!.rpcUrl) {
  const info = sandbox.chain!
  const chain = defineChain({
    id: info.chainId,
    name: 'sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const account = privateKeyToAccount(info.accounts[index]!.privateKey)
  const transport = http(rpcUrl)
  return {
    account,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 5 }),
    wallet: createWalletClient({ account, chain, transport }),
  }
}

/** Sends the API's transactions in order from account `index`; each must succeed. */
export async function execute(
  sandbox: Sandbox,
  transactions: ApiTransaction[],
  index: number,
): Promise<TransactionReceipt[]> {
  const chain = sandbox.chain!
  return sendApiTransactions(chain, chain.accounts[index]!.privateKey, transactions, { pollingInterval: 5 })
}

/**
 * Creates a request through `client`, asks its calldata (GET /v2/request/{id}/pay with `query`) and sends it from
 * default account `index`; throws unless the create answers 201 and the pay 200.
 */
export async function createAndPay(
  sandbox: Sandbox,
  client: ApiClient,
  apiKey: string,
  body: Record<string, unknown>,
  index: number,
  query: Record<string, string> = {},
) {
  const created = await createRequestWith(client, apiKey, body)
  const pay = await client.call('GET', `/v2/request/${created.requestId}/pay`, { apiKey, query })
  if (pay.status !== 200) throw new Error(`GET /v2/request/{id}/pay answered ${pay.status}: ${pay.text}`)
  const receipts = await execute(sandbox, pay.body.transactions, index)
  return { ...created, pay: pay.body, receipts }
}

/** Polls GET /v2/request/{requestId} until the detector has marked it paid (hasBeenPaid true). */
export function untilPaid(client: ApiClient, apiKey: string, requestId: string, options?: WaitOptions) {
  return until(
    () => client.call('GET', `/v2/request/${requestId}`, { apiKey }),
    (r) => r.body.hasBeenPaid === true,
    { what: `request ${requestId} paid`, ...options },
  )
}

/**
 * Moves the key's clock (and the chain) forward by POST /__sandbox/clock/advance, by `seconds` or `{ to }` an
 * ISO time; resolves, with the answer's body, once every timed transition and payment that fell due has run. Throws
 * unless it answers 200.
 */
export async function advance(client: ApiClient, apiKey: string, by: number | { to: string }) {
  const body = typeof by === 'number' ? { seconds: by } : by
  const res = await client.call('POST', '/__sandbox/clock/advance', { apiKey, body })
  if (res.status !== 200) throw new Error(`clock advance failed: ${res.status} ${res.text}`)
  return res.body
}
