// The Tron node's types (apart from node.ts, so that src/chain/types.ts can name the node without a cycle).
import type { Hex } from 'viem'
import type { JsonRpcCall } from '../../chain/json-rpc.ts'

type Json = Record<string, unknown>

/** What the node needs of its live chain. */
export interface TronChain {
  chainId: number
  rpc: JsonRpcCall
  contracts: Record<string, string>
  tokens: Record<string, string>
  roles: { deployer: { address: string } }
}

/** A TronGrid answer: HTTP 200 with a JSON body, as the real API answers even its refusals. */
export interface TronReply {
  status: number
  body: unknown
}

/** What readiness checks read of an account. */
export interface TronAccountResources {
  /** TRX balance in sun */
  balanceSun: bigint
  /** free bandwidth left today */
  freeBandwidth: number
  /** staked energy left (always 0: the sandbox has no staking) */
  energy: bigint
}

/** The node of the `tron` chain. */
export interface TronNode {
  /** one TronGrid call: `path` is `wallet/<method>` or `walletsolidity/<method>` */
  call(path: string, body: Json): Promise<TronReply>
  /** wallet/broadcasttransaction; `sponsored`: energy and bandwidth are the service's (no TRX of the owner burnt) */
  broadcast(signed: Json, options?: { sponsored?: boolean }): Promise<TronReply>
  /** the Tron transaction id of an EVM transaction the node executed (waits for broadcasts in progress) */
  txIdOf(evmHash: string): Promise<string | null>
  /** the sun burnt by a transaction the node executed (bandwidth + energy), by its EVM hash */
  feeOf(evmHash: string): Promise<bigint | null>
  /** balance and resources of an account (any address form) */
  resources(address: string): Promise<TronAccountResources>
  /** energy a call would use now (0 when it reverts) */
  estimateEnergy(owner: string, contract: string, data: Hex): Promise<bigint>
  /** bytes of bandwidth a signed TriggerSmartContract with this calldata uses */
  bandwidthOf(owner: string, contract: string, data: Hex): number
}
