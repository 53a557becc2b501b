// A new wallet funded to pay in a currency (gas and 1000 of the token, or 10 of the native coin): what triggers
// and world files pay from.
import { BadRequestError, SandboxError } from '../contract/sandbox-error.ts'
import type { ResourceServices } from '../resources/services.ts'
import { nativeFaucetId } from './faucet.ts'
import type { ScenarioSeedApi } from './scenarios/define.ts'

export async function fundedWallet(
  api: Pick<ScenarioSeedApi, 'wallet' | 'fund'>,
  shared: Pick<ResourceServices, 'currencies' | 'chains'>,
  currency: string,
) {
  const wallet = api.wallet()
  const fixture = shared.currencies.byId(currency)
  if (!fixture) throw new BadRequestError(`Unknown currency ${currency}`)
  const network = fixture.network
  if (!shared.chains.get(network))
    throw new SandboxError(503, `No live chain for ${network}: start the sandbox with --networks ${network}`)
  await api.fund(wallet.address, fixture.type === 'ETH' ? currency : nativeFaucetId(network), '10')
  if (fixture.type !== 'ETH') await api.fund(wallet.address, currency, '1000')
  return wallet
}
