import type { Address, Hash, Hex, PublicClient, TestClient } from 'viem'
import type { TronNode } from '../tron/node/types.ts'
import type { JsonRpcCall } from './json-rpc.ts'

/** Networks the sandbox knows (ids as in Request Network's token list). */
export type NetworkName =
  | 'sepolia'
  | 'mainnet'
  | 'base'
  | 'arbitrum-one'
  | 'optimism'
  | 'matic'
  | 'bsc'
  | 'tron'

/** A key the sandbox or a user signs with. */
export interface SandboxAccount {
  address: Address
  privateKey: Hex
}

/** The roles the sandbox sends transactions as. */
export type SandboxRoles = { deployer: SandboxAccount; relayer: SandboxAccount; operator: SandboxAccount }

/** A deployment's keys (sandbox-keys.ts): its role accounts, and an account derived from its secret for any label. */
export interface SandboxKeys {
  roles: SandboxRoles
  /** the account derived from the deployment secret for `label` (the same label, the same account) */
  derive(label: string): SandboxAccount
  /** whether `address` is a role or an account derived so far (a test wallet in use): the sandbox's own */
  isOwn(address: string): boolean
}

/** Addresses of the contracts installed on a live chain, by artifact name (ERC20FeeProxy, EthereumFeeProxy, ...). */
export type ChainContracts = Record<string, Address>

/** What the chain needs to know of a currency to install it (a subset of the fixture entry). */
export interface ChainCurrency {
  id: string
  name: string
  symbol: string
  decimals: number
  type: string
  address?: string
  network?: string
  /** EIP-2612 domain version of the token, or null when the token has no permit. */
  permit?: string | null
}

/** Options of startChain. */
export interface StartChainOptions {
  network?: NetworkName
  /** Connect to this JSON-RPC endpoint instead of spawning anvil (it must be an anvil: anvil_* methods are used). */
  rpcUrl?: string
  /** Every currency of the fixture list; those of `network` with type ERC20 are installed as tokens. */
  currencies: ChainCurrency[]
  /** Contract addresses for `network` (fixtures/networks.json). */
  contracts: ChainContracts
  /** Whole tokens minted to each default account for each token (default 1,000,000). */
  fundTokens?: number
  /** the deployment's keys (sandbox-keys.ts): its roles and derived wallets; default fresh random ones */
  keys?: SandboxKeys
}

/** One running chain, shared by every tenant of a sandbox. */
export interface LiveChain {
  network: NetworkName
  chainId: number
  /** The chain's own JSON-RPC URL (anvil's port). */
  rpcUrl: string
  publicClient: PublicClient
  testClient: TestClient
  /** the lean JSON-RPC caller of the hot reads (json-rpc.ts): balances, allowances, gas price */
  rpc: JsonRpcCall
  contracts: ChainContracts
  /** currency id -> token address, for the ERC-20 currencies installed on this chain */
  tokens: Record<string, Address>
  /** anvil's well-known default mnemonic accounts (test test ... junk), funded with ETH and every token */
  accounts: SandboxAccount[]
  /**
   * the sandbox's own keys, distinct from the default accounts so users never race them for a nonce; derived from
   * the deployment's secret (sandbox-keys.ts): their private keys are never served
   */
  roles: SandboxRoles
  /** an account derived from the deployment's secret for `label` (a key's test wallet): the same on every chain */
  derivedAccount(label: string): SandboxAccount
  /** whether `address` is one the sandbox signs with: a role, or an account derived so far */
  isSandboxAccount(address: string): boolean
  /** ERC-20 balance, or the native balance when token is 'native' */
  balanceOf(token: Address | 'native', owner: Address): Promise<bigint>
  allowance(token: Address, owner: Address, spender: Address): Promise<bigint>
  /** Mints `amount` base units of an installed token to `to` (faucet); for 'native' adds to the ETH balance. */
  fund(token: Address | 'native', to: Address, amount: bigint): Promise<Hash | null>
  /** Stops the spawned anvil (by its pid); a no-op for a chain reached by rpcUrl. */
  stop(): Promise<void>
  /** the TronGrid-style full node over this chain (network `tron` only): tron/node.ts */
  tron?: TronNode
  /**
   * Resolves once the state the chain would come back with (after a kill of anvil or of the sandbox) includes
   * `block` (set by the sandbox for an embedded anvil: its supervisor saves the state). Receipts are handed out
   * (through /rpc, or to the relayer and operator) only after it: a payment whose receipt someone saw is kept.
   */
  keepBlock?: (block: bigint) => Promise<void>
}
