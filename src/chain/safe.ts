// The Safe{Wallet} v1.4.1 contracts (singletons, proxy factory, fallback handler, MultiSend) at their canonical
// addresses: runtime code generated from their npm artifacts by scripts/gen-safe-contracts.mjs (checked against the
// published code hashes), installed with anvil_setCode (none of them needs constructor storage). A payer's Safe is
// created through SafeProxyFactory like on a real network (api-features/safe-multisig-payments.mdx).

import { readFileSync } from 'node:fs'
import { type Address, getAddress, type Hex } from 'viem'
import type { LiveChain } from './types.ts'

interface SafeContract {
  address: Address
  codeHash: Hex
  code: Hex
}

/** Names of the installed Safe contracts. */
export type SafeContractName =
  | 'Safe'
  | 'SafeL2'
  | 'SafeProxyFactory'
  | 'CompatibilityFallbackHandler'
  | 'MultiSend'
  | 'MultiSendCallOnly'

let loaded: Record<SafeContractName, SafeContract> | undefined

/** The generated Safe contracts (read once). */
export function safeContracts(): Record<SafeContractName, SafeContract> {
  loaded ??= JSON.parse(readFileSync(new URL('./artifacts/safe-1.4.1.json', import.meta.url), 'utf8'))
    .contracts as Record<SafeContractName, SafeContract>
  return loaded
}

/** Installs the Safe contracts at their canonical addresses; answers name -> address for the chain's contracts. */
export async function installSafeContracts(ctx: Pick<LiveChain, 'testClient'>) {
  const entries = Object.entries(safeContracts()) as [SafeContractName, SafeContract][]
  await Promise.all(entries.map(([, c]) => ctx.testClient.setCode({ address: c.address, bytecode: c.code })))
  return Object.fromEntries(entries.map(([name, c]) => [name, getAddress(c.address)])) as Record<
    SafeContractName,
    Address
  >
}
