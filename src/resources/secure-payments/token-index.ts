// Which world holds a secure payment token (a link's or a multicall payout's): the directory's
// `securePaymentTokenToWorld`, named when the record is stored, named again when a world is filled back (a snapshot's
// restore; --state-dir keeps the map and names a world's tokens again when the world comes back from disk), forgotten
// with the world. The token routes and the payment page are public: a token the directory does not know reads no
// world (a guessed one revives nothing).
import type { CredentialDirectory } from '../../contract/ports.ts'
import type { World } from '../../contract/world.ts'
import type { SecureServices } from './context.ts'
import { securePaymentState } from './tables.ts'

type Directory = Pick<CredentialDirectory, 'securePaymentTokenToWorld'>

/** Names `world` as the holder of `token`. */
export function indexToken(directory: Directory, world: World, token: string): void {
  const known = directory.securePaymentTokenToWorld.get(token)
  // named already: not set again (with --state-dir each set is a row written)
  if (known?.tenant === world.tenant && known.scenario === world.scenario) return
  directory.securePaymentTokenToWorld.set(token, { tenant: world.tenant, scenario: world.scenario })
}

/** Names `world` for each of its links' and multicall payouts' tokens (a world filled back). */
export function indexSecurePaymentTokens(directory: Directory, world: World): void {
  const state = securePaymentState(world)
  for (const link of state.securePayments.all()) indexToken(directory, world, link.token)
  for (const multicall of state.multicallPayouts.all()) indexToken(directory, world, multicall.token)
}

/** The world the directory names for `token` (brought back if it waits on disk); undefined for a token it does not know. */
export function worldOfToken(
  shared: Pick<SecureServices, 'directory' | 'worlds'>,
  token: string,
): World | undefined {
  const owner = shared.directory.securePaymentTokenToWorld.get(token)
  return owner ? shared.worlds.get(owner.tenant, owner.scenario) : undefined
}
