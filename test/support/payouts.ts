// Helpers for recurring payout tests: a fresh funded payer per test, sending the API's transactions exactly as
// returned, signing the SchedulePermit as a wallet would.
import {
  type Address,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type LocalAccount,
  parseAbi,
  parseEther,
  parseUnits,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'
import { type LiveChain, sendApiTransactions } from '../../src/chain/index.ts'
import { type ApiTransaction, advance, freshAddress } from './chain.ts'
import type { ApiClient } from './clients.ts'
import type { Loose } from './loose.ts'

export { freshAddress } from './chain.ts'

/** A fresh payer with 10 ETH and `tokens` whole tokens of `token`. */
export async function fundedPayer(chain: LiveChain, token: Address, tokens = '100'): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund('native', account.address, parseEther('10'))
  await chain.fund(token, account.address, parseUnits(tokens, 18))
  return account
}

/** Sends one API transaction from `account`, exactly as returned (value read from its hex). */
export async function sendApiTransaction(
  chain: LiveChain,
  account: LocalAccount,
  tx: ApiTransaction,
): Promise<TransactionReceipt> {
  const [receipt] = await sendApiTransactions(chain, account, [tx])
  return receipt!
}

/** Moves `amount` of `token` from `account` to `to` (to empty a payer's balance). */
export async function transferToken(
  chain: LiveChain,
  account: LocalAccount,
  token: Address,
  to: Address,
  amount: bigint,
): Promise<void> {
  const wallet = createWalletClient({
    account,
    chain: chain.publicClient.chain,
    transport: http(chain.rpcUrl),
  })
  const abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)'])
  const hash = await wallet.writeContract({
    address: token,
    abi,
    functionName: 'transfer',
    args: [to, amount],
    chain: null,
  })
  await chain.publicClient.waitForTransactionReceipt({ hash })
}

/** Signs the API's recurringPaymentPermit (ethers-v5 shape) with viem, primaryType SchedulePermit. */
export function signPermit(
  account: LocalAccount,
  permit: { domain: Loose; types: Loose; values: Loose },
): Promise<Hex> {
  return account.signTypedData({
    domain: permit.domain,
    types: permit.types,
    primaryType: 'SchedulePermit',
    message: permit.values,
  })
}

/** A DAILY recurring payout body of `totalPayments` × `amount` FAU (1% fee) from `payer`, starting today. */
export function recurringBody(
  payer: Address,
  options: {
    totalPayments?: number
    amount?: string
    payee?: Address
    feeAddress?: Address
    /** YYYY-MM-DD; today's date by the wall clock unless given */
    startDate?: string
  } = {},
) {
  return {
    payee: options.payee ?? freshAddress(),
    amount: options.amount ?? '10',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    feePercentage: '1',
    feeAddress: options.feeAddress ?? freshAddress(),
    recurrence: {
      startDate: options.startDate ?? new Date().toISOString().slice(0, 10),
      frequency: 'DAILY',
      totalPayments: options.totalPayments ?? 3,
      payer: getAddress(payer),
    },
  }
}

/**
 * Moves the key's clock to one minute past its next UTC midnight and returns that day (YYYY-MM-DD): a DAILY payout
 * starting then is due at that midnight and at the next ones, so a test that moves the clock an hour sees its first
 * payment alone whatever the time of day it runs at (from 23:00 UTC, an hour past today's start reached the second).
 */
export async function startOfNextDay(client: ApiClient, apiKey: string): Promise<string> {
  const clock = await client.call('GET', '/__sandbox/clock', { apiKey })
  if (clock.status !== 200) throw new Error(`clock read failed: ${clock.status} ${clock.text}`)
  const now = new Date(clock.body.now as string)
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
  await advance(client, apiKey, { to: new Date(day.getTime() + 60_000).toISOString() })
  return day.toISOString().slice(0, 10)
}

/** Creates a recurring payout, sends its approval, signs and activates it; returns the creation body and id. */
export async function activePayout(
  client: ApiClient,
  apiKey: string,
  chain: LiveChain,
  payer: LocalAccount,
  body: ReturnType<typeof recurringBody>,
) {
  const created = await client.call('POST', '/v2/payouts', { apiKey, body })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  for (const tx of created.body.transactions) await sendApiTransaction(chain, payer, tx)
  const permitSignature = await signPermit(payer, created.body.recurringPaymentPermit)
  const activated = await client.call('POST', `/v2/payouts/recurring/${created.body.id}`, {
    apiKey,
    body: { permitSignature },
  })
  expect(activated.status, JSON.stringify(activated.body)).toBe(201)
  return { created: created.body, id: created.body.id as string, permitSignature }
}
