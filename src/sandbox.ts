import { keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startChain } from './chain/start-chain.ts'
import type { ChainContracts, LiveChain, NetworkName } from './chain/types.ts'
import { loadNetworkTable } from './contract/networks.ts'
import type { NeutralRequest, NeutralResponse } from './contract/neutral.ts'
import type { SharedState } from './contract/route-context.ts'
import { createDispatcher } from './dispatch.ts'
import { loadCurrencyCatalog } from './resources/currencies/catalog.ts'
import { routes } from './routes.ts'
import { createIdGenerator } from './store/ids.ts'
import { Tenants } from './store/tenants.ts'

/** Options of createSandbox. */
export interface SandboxOptions {
  /**
   * The chain: `'embedded'` (default) spawns anvil and installs the contracts; `{rpcUrl}` uses a running anvil
   * (installing the contracts on it); `false` runs without a chain (no balance checks, no /rpc).
   */
  chain?: 'embedded' | { rpcUrl: string } | false
  network?: NetworkName
  /** strict mode: only these API keys pass (otherwise every key is its own tenant) */
  apiKeys?: string[]
  /** makes ids and fake data the same run after run */
  seed?: number
  /** where unexpected errors are reported (default: console.error) */
  log?: (message: string, error?: unknown) => void
}

/** One sandbox: all state of all tenants, the chain, and the dispatcher both transports call. */
export interface Sandbox {
  /** handles one neutral request (what the Express app and the MSW handlers call) */
  dispatch(request: NeutralRequest): Promise<NeutralResponse>
  shared: SharedState
  chain: LiveChain | null
  /** forgets one tenant's world */
  reset(tenant: string): void
  /** stops the embedded chain */
  close(): Promise<void>
}

/** Creates a sandbox; with the default options it spawns its own anvil chain. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const currencies = loadCurrencyCatalog()
  const networks = loadNetworkTable()
  const network = options.network ?? 'sepolia'
  const chainOption = options.chain ?? 'embedded'
  const chain =
    chainOption === false
      ? null
      : await startChain({
          network,
          ...(typeof chainOption === 'object' ? { rpcUrl: chainOption.rpcUrl } : {}),
          currencies: [...currencies.all],
          contracts: (networks[network]?.contracts ?? {}) as ChainContracts,
        })
  const log =
    options.log ??
    ((message: string, error?: unknown) => console.error(`[request-sandbox] ${message}`, error ?? ''))
  const offrampAddress = privateKeyToAccount(keccak256(toHex('request-sandbox:offramp'))).address
  const tenants = new Tenants()
  const shared: SharedState = {
    currencies,
    networks,
    chain,
    ids: createIdGenerator(options.seed),
    tenants,
    offrampAddress,
    now: () => new Date(),
    log,
  }
  const dispatch = createDispatcher(
    routes,
    shared,
    options.apiKeys ? { apiKeys: new Set(options.apiKeys) } : {},
  )
  let closed = false
  return {
    dispatch,
    shared,
    chain,
    reset: (tenant) => tenants.reset(tenant),
    async close() {
      if (closed) return
      closed = true
      await chain?.stop()
    },
  }
}
