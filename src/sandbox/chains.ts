// The live chains of one sandbox and everything that runs beside each: written once, used for the chains started
// with the sandbox and for a network started on its first use (networksOnUse 'start').
import {
  type ChainContracts,
  type ChainSupervisor,
  createRelayer,
  type LiveChain,
  type NetworkName,
  type Relayer,
  type SandboxKeys,
  type StartedChain,
  startChain,
  superviseChain,
} from '../chain/index.ts'
import type { CurrencyCatalog } from '../contract/currencies.ts'
import { ConversionRegistry } from '../resources/rates/index.ts'
import type { Catalogs } from './catalogs.ts'
import type { SandboxOptions } from './options.ts'

/** What runs beside one chain once it is set up (its detector, its escrow watcher, a protected port). */
export type ChainSetup = (chain: StartedChain) => void

/**
 * The sandbox's chains: each one started, supervised (an embedded anvil restarted with its state, a reset node
 * reached by rpcUrl given its contracts again), its receipts held until its saved state has their block, its
 * relayer, its conversion stack, then every `onEachChain` setup; a chain started later goes through the same steps.
 */
export class ChainFleet {
  readonly chains = new Map<string, LiveChain>()
  readonly supervisors = new Map<string, ChainSupervisor>()
  readonly relayers = new Map<string, Relayer>()
  /** the conversion stacks and feeds of every chain (the `conversion` service) */
  readonly conversion: ConversionRegistry
  readonly #started: StartedChain[] = []
  readonly #setups: ChainSetup[] = []
  readonly #starting = new Map<string, Promise<void>>()
  /** the chains started with the sandbox (or handed to it by `resume`), not those started on first use */
  readonly #initial = new Set<StartedChain>()
  readonly #option: SandboxOptions['chain']
  readonly #currencies: CurrencyCatalog
  readonly #networks: Catalogs['networks']
  readonly #options: Pick<SandboxOptions, 'log' | 'chainRestartDelayMs'>
  /** the deployment's keys: every chain's roles (the same on each) */
  readonly #keys: SandboxKeys
  #closed = false

  /** Starts the wanted networks (none with `chain: false`) and supervises each. */
  static async start(options: SandboxOptions, catalogs: Catalogs, keys: SandboxKeys): Promise<ChainFleet> {
    const fleet = new ChainFleet(options, catalogs, keys)
    const option = options.chain ?? 'embedded'
    if (option === false) return fleet
    if (typeof option === 'object' && catalogs.wanted.length > 1) {
      throw new Error('an rpcUrl serves one network: run several networks with embedded chains')
    }
    const settled = await Promise.allSettled(catalogs.wanted.map((network) => fleet.#startOne(network)))
    const failed = settled.find((s) => s.status === 'rejected')
    if (failed) {
      // one network could not start: those that did are stopped, not left running behind the error
      await Promise.all(
        settled.map((s) => (s.status === 'fulfilled' ? s.value.stop().catch(() => {}) : null)),
      )
      throw failed.reason
    }
    for (const s of settled) if (s.status === 'fulfilled') fleet.#adopt(s.value, true)
    return fleet
  }

  /**
   * A fleet around chains an earlier sandbox of this process ran (`release`), already back at the state they started
   * with: supervised, relayed and watched afresh, their default conversion stacks recorded as installed.
   */
  static resume(
    options: SandboxOptions,
    catalogs: Catalogs,
    keys: SandboxKeys,
    chains: readonly StartedChain[],
  ): ChainFleet {
    const fleet = new ChainFleet(options, catalogs, keys)
    for (const chain of chains) fleet.#adopt(chain, true)
    fleet.conversion.adoptDefaults()
    return fleet
  }

  private constructor(options: SandboxOptions, catalogs: Catalogs, keys: SandboxKeys) {
    this.#keys = keys
    this.#option = options.chain ?? 'embedded'
    this.#currencies = catalogs.currencies
    this.#networks = catalogs.networks
    this.#options = options
    this.conversion = new ConversionRegistry(catalogs.currencies, catalogs.networks, this.chains)
  }

  /** the first chain started (served at /rpc), or null without chains */
  get first(): LiveChain | null {
    return this.#started[0] ?? null
  }

  /** the chains started with the fleet (or handed to `resume`), in order */
  chainsStarted(): StartedChain[] {
    return [...this.#initial]
  }

  /** the networks whose anvil the sandbox runs itself (their state is saved with --state-dir) */
  embeddedNetworks(): Set<string> {
    return new Set(this.#started.filter((c) => c.pid !== null).map((c) => c.network))
  }

  /** Runs `setup` on every chain now and on each chain started later, after its conversion stack. */
  onEachChain(setup: ChainSetup): void {
    this.#setups.push(setup)
    for (const chain of this.#started) setup(chain)
  }

  /**
   * Starts a network on its first use (only with embedded chains): its anvil and contracts, the same steps as at
   * start-up, its conversion stack, then every `onEachChain` setup. Concurrent first calls share one start.
   */
  startNetwork(network: NetworkName): Promise<void> {
    let run = this.#starting.get(network)
    if (!run) {
      run = (async () => {
        const chain = await this.#startOne(network)
        if (this.#closed) {
          await chain.stop()
          return
        }
        this.#adopt(chain)
        try {
          await this.conversion.installDefaultsOn(chain)
        } catch (error) {
          // anvil died (or refused) midway: no half-set-up chain stays live, so the next call starts it afresh
          await this.#drop(chain)
          throw error
        }
        if (this.#closed) return
        for (const setup of this.#setups) setup(chain)
      })()
      this.#starting.set(network, run)
      run.catch(() => this.#starting.delete(network))
    }
    return run
  }

  /** No chain starts from now on (the sandbox is closing); `stop()` stops those that run. */
  stopStarting(): void {
    this.#closed = true
  }

  /** Stops every supervisor, then every chain. */
  async stop(): Promise<void> {
    this.#closed = true
    await Promise.all([...this.supervisors.values()].map((sup) => sup.stop()))
    await Promise.all(this.#started.map((c) => c.stop()))
  }

  /**
   * Stops every supervisor and the chains started on first use, and hands back the chains started with the fleet,
   * still running, for a later sandbox (`resume`); none if one of them had to be restarted (its anvil is then the
   * supervisor's, stopped with it) or is gone: those that run are stopped too.
   */
  async release(): Promise<StartedChain[]> {
    this.#closed = true
    const restarted = [...this.supervisors.values()].some((sup) => sup.health().restarts > 0)
    await Promise.all([...this.supervisors.values()].map((sup) => sup.stop()))
    const kept = this.#started.filter((c) => this.#initial.has(c))
    const alive = !restarted && kept.every((c) => c.pid !== null && isRunning(c.pid))
    await Promise.all(this.#started.filter((c) => !alive || !kept.includes(c)).map((c) => c.stop()))
    for (const chain of kept) delete chain.keepBlock
    return alive ? kept : []
  }

  #startOne(network: NetworkName): Promise<StartedChain> {
    return startChain({
      network,
      ...(typeof this.#option === 'object' ? { rpcUrl: this.#option.rpcUrl } : {}),
      currencies: [...this.#currencies.all],
      contracts: (this.#networks[network]?.contracts ?? {}) as ChainContracts,
      keys: this.#keys,
    })
  }

  /** The steps every started chain takes before its conversion stack: supervision, receipts, relayer. */
  #adopt(chain: StartedChain, initial = false): void {
    this.#started.push(chain)
    if (initial) this.#initial.add(chain)
    this.chains.set(chain.network, chain)
    const supervisor = superviseChain(chain, {
      ...(this.#options.log ? { log: this.#options.log } : {}),
      // a node reached by rpcUrl that was reset gets the contracts and the conversion stack again
      ...(chain.pid === null ? { reinstall: () => this.#reinstall(chain) } : {}),
      ...(this.#options.chainRestartDelayMs ? { restartDelayMs: this.#options.chainRestartDelayMs } : {}),
    })
    this.supervisors.set(chain.network, supervisor)
    // a receipt is handed out once the embedded anvil's saved state holds its block (kill -9 keeps the payment)
    if (chain.pid !== null) chain.keepBlock = (block) => supervisor.saveThrough(block)
    const relayer = createRelayer(chain)
    if (relayer) this.relayers.set(chain.network, relayer)
  }

  /** Undoes `#adopt` for a chain whose start failed after it: supervisor, relayer and the chain stopped, forgotten. */
  async #drop(chain: StartedChain): Promise<void> {
    const supervisor = this.supervisors.get(chain.network)
    this.supervisors.delete(chain.network)
    this.relayers.delete(chain.network)
    this.chains.delete(chain.network)
    this.#started.splice(this.#started.indexOf(chain), 1)
    await supervisor?.stop().catch(() => {})
    await chain.stop().catch(() => {})
  }

  async #reinstall(chain: StartedChain): Promise<void> {
    await startChain({
      network: chain.network,
      rpcUrl: chain.rpcUrl,
      currencies: [...this.#currencies.all],
      contracts: (this.#networks[chain.network]?.contracts ?? {}) as ChainContracts,
      keys: this.#keys,
    })
    await this.conversion.installDefaults()
  }
}

/** Whether the process `pid` runs (a signal 0 reaches it). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
