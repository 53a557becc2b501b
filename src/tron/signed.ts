// A Tron wallet's signed transactions as the sandbox reads and makes them: the TRC-20 call a signed transaction
// carries (read from its raw_data_hex), whether a transaction executed (its receipt), and a step built on the node
// and signed with a known key (a page's test wallet).
import type { Hex } from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { toTronAddress } from './address.ts'
import { decodeRawData, decodeTrigger } from './node/protobuf.ts'
import type { TronNode } from './node/types.ts'
import { TRON_FEE_LIMIT } from './steps.ts'

/** A signed Tron transaction as TronWeb sends it. */
export type SignedTronTransaction = Record<string, unknown> & { raw_data_hex: string }

/** The signed transaction's owner (`T…`) and TRC-20 call; throws when it is not a TriggerSmartContract. */
export function readTrc20Call(signed: { raw_data_hex: string }): {
  owner: string
  contract: string
  data: string
} {
  const raw = decodeRawData(Buffer.from(signed.raw_data_hex, 'hex'))
  if (raw.contract.type !== 31) throw new Error('not a TriggerSmartContract')
  const call = decodeTrigger(raw.contract.value)
  return {
    owner: toTronAddress(call.owner.toString('hex')),
    contract: `0x${call.contract.subarray(1).toString('hex')}`,
    data: `0x${call.data.toString('hex')}`,
  }
}

/** True when the Tron transaction `txId` executed (its receipt says SUCCESS). */
export async function tronExecuted(node: TronNode, txId: string): Promise<boolean> {
  const info = (await node.call('wallet/gettransactioninfobyid', { value: txId })).body as {
    receipt?: { result?: string }
  }
  return info.receipt?.result === 'SUCCESS'
}

/** The step built on the node as the key's account and signed with it; null when the node cannot build it. */
export async function signStepWith(
  node: TronNode,
  privateKey: Hex,
  step: { to: string; data: string },
): Promise<SignedTronTransaction | null> {
  const owner = privateKeyToAccount(privateKey).address
  const built = (
    await node.call('wallet/triggersmartcontract', {
      owner_address: toTronAddress(owner),
      contract_address: step.to,
      data: step.data.replace(/^0x/, ''),
      fee_limit: TRON_FEE_LIMIT,
      visible: true,
    })
  ).body as { transaction?: Record<string, unknown> & { txID: string; raw_data_hex: string } }
  if (!built.transaction) return null
  const signature = await sign({ hash: `0x${built.transaction.txID}`, privateKey, to: 'hex' })
  return { ...built.transaction, signature: [signature.slice(2)] }
}
