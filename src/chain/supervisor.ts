// Keeps an embedded anvil alive: its state is saved every second (anvil_dumpState, only when the chain moved or
// every few seconds otherwise), and when the process dies it is started again on the same port with that state
// (anvil_loadState), so every client, the detector and the wallets keep their URL. Meanwhile health says `degraded`.
// A chain reached by --rpc-url (no process of ours) is checked instead: when its node was reset and the contracts
// are gone, `reinstall` puts them back.
import { readFileSync } from 'node:fs'
import type { Address } from 'viem'
import { type AnvilProcess, spawnAnvil } from './anvil.ts'
import type { StartedChain } from './start-chain.ts'

/** What GET /__sandbox/health reports of one chain. */
export interface ChainHealth {
  network: string
  status: 'ok' | 'degraded'
  /** why it is degraded */
  reason?: string
  /** how many times anvil was restarted */
  restarts: number
  /** when the state the chain would come back with was saved (ISO), null before the first save */
  savedAt: string | null
}

/** Options of superviseChain. */
export interface ChainSupervisorOptions {
  /** how often the process is checked (default 200 ms) */
  checkMs?: number
  /** how often the state is saved when the chain moved (default 1000 ms) */
  saveMs?: number
  log?: (message: string, error?: unknown) => void
  /** a chain reached by rpcUrl: installs the contracts again when ERC20FeeProxy is gone (checked every saveMs) */
  reinstall?: () => Promise<void>
  /**
   * Test only: ms the supervisor waits, once it saw anvil die and reported `degraded`, before starting it again
   * (default 0). The real outage (~60 ms of restart after up to `checkMs` to notice) is too short for a test to
   * watch calls fail during it; this widens it without changing what happens in it.
   */
  restartDelayMs?: number
}

/** A supervised chain. */
export interface ChainSupervisor {
  health(): ChainHealth
  /** the last saved state (anvil_dumpState's hex), null before the first save */
  savedState(): string | null
  /** saves the state now */
  save(): Promise<void>
  /** loads a saved state into the chain (a restart with --state-dir) */
  restore(state: string): Promise<void>
  /**
   * Resolves once the saved state includes `block` (a dump now unless a later one holds it); a failed dump is
   * logged, not thrown (anvil dying meanwhile: the restart reports it).
   */
  saveThrough(block: bigint): Promise<void>
  /** Calls `listener` with each new saved state (--state-dir writes it at once); a save waits for its promise. */
  onSave(listener: (state: string) => Promise<void> | undefined): void
  /** resolves once the chain answers again (at once when it does) */
  ready(): Promise<void>
  /** stops supervising and the anvil it restarted, if any */
  stop(): Promise<void>
}

// the restarted anvil listens on the chain's own port: the chain's JSON-RPC caller reaches it
const PROBE_MS = 2000

/** Whether a contract is deployed at `address` (health checks a dev node under --rpc-url was not reset). */
export async function hasCode(
  chain: { publicClient: StartedChain['publicClient'] },
  address: Address,
): Promise<boolean> {
  const code = await chain.publicClient.getCode({ address })
  return !!code && code !== '0x'
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  // a killed process its parent has not reaped yet still takes signals: on Linux its state says it is a zombie
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

/** Supervises the anvil a chain spawned (a chain reached by --rpc-url has none: its health is checked elsewhere). */
export function superviseChain(chain: StartedChain, options: ChainSupervisorOptions = {}): ChainSupervisor {
  const log = options.log ?? (() => {})
  const saveMs = options.saveMs ?? 1000
  const port = Number(new URL(chain.rpcUrl).port)
  let pid = chain.pid
  let restarted: AnvilProcess | null = null
  let state: string | null = null
  let savedAt: Date | null = null
  let savedBlock: string | null = null
  /** the block number the saved state holds at least */
  let savedNumber = -1n
  let dumping: Promise<void> | null = null
  const saveListeners: ((state: string) => Promise<void> | undefined)[] = []
  let lastSaveTry = 0
  let degraded: string | null = null
  let restarts = 0
  let busy = false
  let stopped = false
  let waiters: (() => void)[] = []

  async function save(force = false): Promise<void> {
    const block = await chain.rpc<string>('eth_blockNumber', [], PROBE_MS)
    // a chain that made no block may still have changed (faucet ETH, admin calls): saved every 5 s anyway
    if (!force && block === savedBlock && Date.now() - (savedAt?.getTime() ?? 0) < 5 * saveMs) return
    const dumped = await chain.rpc<string>('anvil_dumpState', [], 10_000)
    state = dumped
    savedBlock = block
    if (BigInt(block) > savedNumber) savedNumber = BigInt(block)
    savedAt = new Date()
    await Promise.all(
      saveListeners.map(async (listener) => {
        try {
          await listener(dumped)
        } catch (error) {
          log(`the saved state of ${chain.network} could not be written`, error)
        }
      }),
    )
  }

  async function saveThrough(block: bigint): Promise<void> {
    for (let tries = 0; savedNumber < block && tries < 3; tries++) {
      dumping ??= save(true).finally(() => {
        dumping = null
      })
      try {
        await dumping
      } catch (error) {
        log(`the state of ${chain.network} could not be saved through block ${block}`, error)
        return
      }
    }
  }

  async function restart(): Promise<void> {
    const since = new Date()
    degraded = `anvil of ${chain.network} (pid ${pid}) exited at ${since.toISOString()}; restarting it with the state saved at ${savedAt?.toISOString() ?? 'start'}`
    log(degraded)
    if (options.restartDelayMs) {
      await new Promise((resolve) => setTimeout(resolve, options.restartDelayMs))
      if (stopped) return
    }
    try {
      const next = await spawnAnvil({ chainId: chain.chainId, port })
      if (state) await chain.rpc('anvil_loadState', [state], 10_000)
      restarted = next
      pid = next.pid
      chain.pid = next.pid
      restarts++
      degraded = null
      log(`anvil of ${chain.network} restarted in ${Date.now() - since.getTime()} ms (pid ${next.pid})`)
      for (const w of waiters) w()
      waiters = []
    } catch (error) {
      degraded = `anvil of ${chain.network} exited and could not be restarted yet: ${(error as Error).message}`
      log(degraded, error)
    }
  }

  async function checkRemote(): Promise<void> {
    const proxy = chain.contracts.ERC20FeeProxy
    if (!options.reinstall || !proxy) return
    let installed: boolean
    try {
      installed = await hasCode(chain, proxy)
    } catch {
      return // a node that does not answer: health reports it, nothing to reinstall yet
    }
    if (installed) return
    const since = Date.now()
    degraded = `the node at ${chain.rpcUrl} lost the contracts (ERC20FeeProxy at ${proxy}; was it reset?): reinstalling them`
    log(degraded)
    try {
      await options.reinstall()
      restarts++
      degraded = null
      log(`contracts reinstalled on ${chain.network} in ${Date.now() - since} ms`)
    } catch (error) {
      degraded = `the node at ${chain.rpcUrl} lost the contracts and reinstalling them failed: ${(error as Error).message}`
      log(degraded, error)
    }
  }

  async function tick(): Promise<void> {
    if (busy || stopped) return
    busy = true
    try {
      if (pid === null) {
        if (Date.now() - lastSaveTry >= saveMs) {
          lastSaveTry = Date.now()
          await checkRemote()
        }
      } else if (!alive(pid)) await restart()
      else if (Date.now() - lastSaveTry >= saveMs) {
        lastSaveTry = Date.now()
        await save().catch(() => {})
      }
    } finally {
      busy = false
    }
  }

  const timer = setInterval(() => void tick(), options.checkMs ?? 200)
  timer.unref()
  void tick()

  return {
    health: () => {
      // from the moment anvil is gone, not from the supervisor's next check
      const reason =
        degraded ??
        (pid !== null && !stopped && !alive(pid)
          ? `anvil of ${chain.network} (pid ${pid}) is not running; restarting it with the state saved at ${savedAt?.toISOString() ?? 'start'}`
          : null)
      return {
        network: chain.network,
        status: reason ? 'degraded' : 'ok',
        ...(reason ? { reason } : {}),
        restarts,
        savedAt: savedAt?.toISOString() ?? null,
      }
    },
    saveThrough,
    onSave: (listener) => {
      saveListeners.push(listener)
    },
    savedState: () => state,
    save: () => save(true),
    async restore(saved) {
      await chain.rpc('anvil_loadState', [saved], 30_000)
      state = saved
      savedAt = new Date()
      savedBlock = await chain.rpc<string>('eth_blockNumber', [], PROBE_MS)
      savedNumber = BigInt(savedBlock)
    },
    ready: () => (degraded ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    async stop() {
      stopped = true
      clearInterval(timer)
      for (const w of waiters) w()
      waiters = []
      await restarted?.stop()
    },
  }
}
