// The fixtures every step of createSandbox reads: the currency catalog, the network table, the networks to run.
import type { NetworkName } from '../chain/index.ts'
import type { CurrencyCatalog } from '../contract/currencies.ts'
import { loadNetworkTable, type NetworkTable } from '../contract/networks.ts'
import { loadCurrencyCatalog } from '../resources/currencies/index.ts'
import type { SandboxOptions } from './options.ts'

export interface Catalogs {
  currencies: CurrencyCatalog
  networks: NetworkTable
  /** the networks started with the sandbox (default sepolia), each known to the network table */
  wanted: NetworkName[]
}

/** Loads the catalogs and checks the networks asked for. */
export function loadCatalogs(options: Pick<SandboxOptions, 'networks' | 'startableNetworks'>): Catalogs {
  const currencies = loadCurrencyCatalog()
  const networks = loadNetworkTable()
  const wanted = options.networks?.length ? [...new Set(options.networks)] : (['sepolia'] as NetworkName[])
  const startable = options.startableNetworks === 'all' ? [] : (options.startableNetworks ?? [])
  for (const [flag, list] of [
    ['--networks', wanted],
    ['--networks-on-use', startable],
  ] as const)
    for (const network of list)
      if (!Object.hasOwn(networks, network))
        throw new Error(
          `unknown network ${JSON.stringify(network)}: the networks the sandbox can run are ${Object.keys(networks).join(', ')} (${flag} takes a comma-separated list of them${flag === '--networks-on-use' ? ', or all' : ''})`,
        )
  return { currencies, networks, wanted }
}
