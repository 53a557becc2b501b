// The tokens of the secure payment links and multicall payouts of worlds waiting on disk (--state-dir evicts the least
// recently used world past --max-worlds): a payer's page names only its token, so a token no world in memory holds is
// looked up here and its world brought back. Kept per sandbox (by its worlds), filled as worlds leave memory for the
// disk, emptied of a key's tokens by its reset.
import type { WorldLookup } from '../../contract/ports.ts'
import type { World } from '../../contract/world.ts'
import { securePaymentState } from './state.ts'

/** a sandbox's worlds -> token -> the key and scenario of the world on disk that holds it */
const parked = new WeakMap<WorldLookup, Map<string, { tenant: string; scenario: string }>>()

/** Notes the link and multicall tokens of a world leaving memory for the disk. */
export function parkSecurePaymentTokens(worlds: WorldLookup, world: World): void {
  const state = securePaymentState(world)
  let tokens = parked.get(worlds)
  if (!tokens) {
    tokens = new Map()
    parked.set(worlds, tokens)
  }
  const owner = { tenant: world.tenant, scenario: world.scenario }
  for (const link of state.securePayments.all()) tokens.set(link.token, owner)
  for (const multicall of state.multicallPayouts.all()) tokens.set(multicall.token, owner)
}

/** Forgets the tokens of a key's worlds on disk (its reset deletes them). */
export function forgetParkedTokens(worlds: WorldLookup, tenant: string): void {
  const tokens = parked.get(worlds)
  if (!tokens) return
  for (const [token, owner] of tokens) if (owner.tenant === tenant) tokens.delete(token)
}

/** The world on disk that holds `token`, brought back into memory; undefined when none does. */
export function reviveTokenWorld(worlds: WorldLookup, token: string): World | undefined {
  const tokens = parked.get(worlds)
  const owner = tokens?.get(token)
  if (!owner) return undefined
  tokens!.delete(token)
  return worlds.get(owner.tenant, owner.scenario)
}
