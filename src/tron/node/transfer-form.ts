// A transfer the detector read on the `tron` chain, put in the form Tron tooling names it.
import type { Address, Hex } from 'viem'
import { toTronAddress } from '../address.ts'
import { WEI_PER_SUN } from './context.ts'
import type { TronNode } from './types.ts'

/** The fields of a detected transfer that differ on Tron. */
export interface TronFormFields {
  txHash: Hex
  gasFee: bigint
  to: Address
  from: Address
  payer: Address
  feeAddress: Address
  tokenAddress: Address | null
}

/**
 * Rewrites a transfer on the Tron chain as Tron tooling names it: `T…` addresses, the Tron transaction id (when the
 * sandbox's Tron node executed it) and the TRX it burnt as gas (in 18-decimal units, as the EVM chains' wei).
 */
export async function tronForm(tron: TronNode, t: TronFormFields): Promise<void> {
  const [txId, feeSun] = await Promise.all([tron.txIdOf(t.txHash), tron.feeOf(t.txHash)])
  if (txId) t.txHash = txId as Hex
  if (feeSun !== null) t.gasFee = feeSun * WEI_PER_SUN
  t.to = toTronAddress(t.to) as Address
  t.from = toTronAddress(t.from) as Address
  t.payer = toTronAddress(t.payer) as Address
  t.feeAddress = toTronAddress(t.feeAddress) as Address
  if (t.tokenAddress) t.tokenAddress = toTronAddress(t.tokenAddress) as Address
}
