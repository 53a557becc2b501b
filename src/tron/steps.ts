// One step of a Tron payment in the API's Tron form: the contract `T…`, the calldata and TronWeb's trigger arguments
// (functionSelector, parameter, feeLimit), as the pay endpoints and secure payments hand them to a Tron wallet.
import type { Hex } from 'viem'
import { toTronAddress } from './address.ts'

/** fee_limit of each step (sun): 100 TRX, well above what a TRC-20 approve or payment burns */
export const TRON_FEE_LIMIT = 100_000_000

/** A Tron step as the API answers it. */
export interface TronStep {
  to: string
  data: string
  value: 0
  functionSelector: string
  parameter: string
  feeLimit: number
}

/** One Tron step of the API: the contract `T…`, the calldata and TronWeb's trigger arguments. */
export function tronStep(contract: Hex, functionSelector: string, data: Hex): TronStep {
  return {
    to: toTronAddress(contract),
    data,
    value: 0,
    functionSelector,
    parameter: data.slice(10),
    feeLimit: TRON_FEE_LIMIT,
  }
}
