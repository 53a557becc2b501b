// What the Tron tests share: paying the API's Tron steps with TronWeb (unmodified) as an integrator does, and fresh
// Tron wallets.
import { TronWeb } from 'tronweb'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'
import { toTronAddress } from '../../src/tron/index.ts'

/** The sandbox's Tron network as GET /__sandbox/chain lists it. */
export interface TronInfo {
  fullHost: string
  tokens: Record<string, string>
  contracts: Record<string, string>
  accounts: { address: string; privateKey: string }[]
}

/** A Tron step of the API. */
export type TronStep = { to: string; functionSelector: string; parameter: string; feeLimit: number }

/** The `tron` key of the sandbox's `/__sandbox/chain`. */
export async function tronInfo(baseUrl: string): Promise<TronInfo> {
  const info = await (await fetch(`${baseUrl}/__sandbox/chain`)).json()
  return info.chains.find((c: { network: string }) => c.network === 'tron').tron
}

/** A fresh Tron wallet (a payee nobody else pays). */
export const freshTronAddress = () => toTronAddress(privateKeyToAccount(generatePrivateKey()).address)

/** The body of `POST /v2/secure-payments/payouts` for a USDT-tron link of `amount` by `creator`, to `recipient` or a
 * fresh one. */
export const tronPayoutBody = (creator: string, amount: string, recipient = freshTronAddress()) => ({
  recipient,
  creatorWalletAddress: creator,
  network: 'tron',
  currency: 'USDT-tron',
  amount,
})

/** Sends the API's Tron steps from `payer` as TronWeb does (built by the node, signed locally, broadcast). */
export async function payWithTronWeb(
  tron: TronInfo,
  payer: { address: string; privateKey: string },
  steps: TronStep[],
): Promise<{ txids: string[]; fees: number }> {
  const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: payer.privateKey })
  const txids: string[] = []
  let fees = 0
  for (const step of steps) {
    const { transaction } = await tw.transactionBuilder.triggerSmartContract(
      step.to,
      step.functionSelector,
      { feeLimit: step.feeLimit, rawParameter: step.parameter },
      [],
      payer.address,
    )
    const sent = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction))
    expect(sent.result).toBe(true)
    const info = await tw.trx.getTransactionInfo(sent.txid)
    expect(info.receipt.result).toBe('SUCCESS')
    txids.push(sent.txid)
    fees += info.fee ?? 0
  }
  return { txids, fees }
}

/** The balance of a TRC-20 token (`T…`) of `holder`, read through TronWeb. */
export async function trc20Balance(tron: TronInfo, token: string, holder: string): Promise<bigint> {
  const tw = new TronWeb({ fullHost: tron.fullHost, privateKey: tron.accounts[0]!.privateKey })
  const contract = await tw.contract().at(token)
  return BigInt(await contract.balanceOf(holder).call())
}

/** A Tron step of the API as TronWeb builds it (on the node, from `from`) and signs it locally: not yet sent. */
export async function signStep(
  tw: TronWeb,
  from: string,
  step: { to: string; functionSelector: string; parameter: string; feeLimit: number },
) {
  const built = await tw.transactionBuilder.triggerSmartContract(
    step.to,
    step.functionSelector,
    { feeLimit: step.feeLimit, rawParameter: step.parameter },
    [],
    from,
  )
  return { transaction: built.transaction, signed: await tw.trx.sign(built.transaction) }
}

/** A Tron step of the API as TronWeb sends it: built by the node, signed locally, broadcast; its receipt. */
export async function sendStep(
  tw: TronWeb,
  from: string,
  step: { to: string; functionSelector: string; parameter: string; feeLimit: number },
) {
  const sent = await tw.trx.sendRawTransaction((await signStep(tw, from, step)).signed)
  expect(sent.result).toBe(true)
  const info = await tw.trx.getTransactionInfo(sent.txid)
  expect(info.receipt.result).toBe('SUCCESS')
  return { txid: sent.txid as string, fee: info.fee as number }
}
