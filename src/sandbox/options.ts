// The options of createSandbox (src/sandbox.ts re-exports them): one place the steps of src/sandbox/ read.

import type { NetworkName } from '../chain/index.ts'
import type { ClaimedKeys } from '../contract/claimed-share.ts'
import type { RateLimitMode } from '../pipeline/index.ts'
import type { Telemetry } from '../telemetry/index.ts'
import type { WebhookDeliveryOptions } from '../webhooks/index.ts'

/** Options of createSandbox. */
export interface SandboxOptions {
  /** OpenTelemetry traces (`startTelemetry`): each call a span, detection and deliveries in its trace */
  telemetry?: Telemetry
  /**
   * The chain: `'embedded'` (default) spawns anvil and installs the contracts; `{rpcUrl}` uses a running anvil
   * (installing the contracts on it); `false` runs without a chain (no balance checks, no /rpc).
   */
  chain?: 'embedded' | { rpcUrl: string } | false
  /** networks to run, one anvil each (default ['sepolia']); the first one is served at /rpc */
  networks?: NetworkName[]
  /**
   * Embedded chains without `stateDir` only: `close()` keeps the chains running for the next sandbox of this process
   * with the same `networks` and `seed`, which gets them back at the state they started with (blocks, balances,
   * contracts' storage and clock reverted) and so starts in milliseconds. createTestSandbox sets it (default false).
   */
  reuseChains?: boolean
  /**
   * A network a call names (a currency, `network`, the pay query's `chain`) that is not running: `'start'` starts
   * its anvil and contracts, then the call proceeds (what the command does); `'refuse'` answers 400 naming
   * `--only-networks` (the command's fixed list); `'published'` (default) answers with the network's published
   * addresses and reads no chain. Only with embedded chains.
   */
  networksOnUse?: 'start' | 'refuse' | 'published'
  /**
   * With `networksOnUse: 'start'`, the networks a call may start (`'all'`: every documented one, the default, on any
   * listener: a fixed set, so at most what `--networks` listing all eight runs). An operator of a shared demo narrows it; a call naming
   * a network outside the list answers 400 naming `--networks` and `--networks-on-use`.
   */
  startableNetworks?: NetworkName[] | 'all'
  /** strict mode: only these API keys pass (otherwise every key is its own tenant) */
  apiKeys?: string[]
  /** strict mode: the keys it admits besides `apiKeys` (the live keys of claimable sandboxes: server.ts) */
  admitsKey?: (key: string) => boolean
  /**
   * the keys of claimable sandboxes (server.ts): together they hold at most half of each sandbox-wide total (streams,
   * worlds in memory, snapshot bytes, journal bytes: `claimedShare`), the rest kept for the other keys
   */
  claimedKey?: ClaimedKeys
  /**
   * strict mode for orchestrators: only these `x-orchestrator-key`s pass (otherwise every `orc_…` key is its own, except
   * in strict mode: with `apiKeys` and without this list, none)
   */
  orchestratorKeys?: string[]
  /** tenant-clock ms a submitted KYC waits before the sandbox's provider approves it (default 5000) */
  complianceDelayMs?: number
  /** tenant-clock ms a new bank payment detail stays pending before it is approved (default 3000) */
  paymentDetailDelayMs?: number
  /**
   * makes ids and fake data the same run after run (scenario wallets included); without `exposed`, the sandbox's own
   * accounts too (derived from the seed instead of a fresh secret; with `stateDir`, at its first start)
   */
  seed?: number
  /** where unexpected errors are reported (default: console.error) */
  log?: (message: string, error?: unknown) => void
  /** the scenario of keys that chose none (default 'default') */
  scenario?: string
  /** folders of extra scenarios (TypeScript, JavaScript or JSON files) beside the built-in ones */
  scenarioDirs?: string[]
  /** webhook delivery: retry schedule, timeout, a server-wide URL and secret */
  webhooks?: WebhookDeliveryOptions
  /**
   * Worlds (key x scenario) kept in memory (default 1000). Past it the least recently used one is evicted: with
   * `stateDir` to disk, back on its next use; without, its state is dropped (the key starts afresh, as after a
   * reset), and when none of its key's worlds is left, the key's journal and seeded id sequence go too.
   */
  maxWorlds?: number
  /**
   * Keeps the state across restarts in this folder (`state.db`, an embedded database: a change is committed before
   * the answer that reports it leaves): worlds, clocks, scenario choices, webhooks, client IDs, sessions and each
   * embedded chain's anvil state. Without it, state lives in memory.
   */
  stateDir?: string
  /**
   * Bounds of named snapshots: how many one key may keep (default 50), the bytes one key's take (default 64 MB) and
   * every key's together (default 1024 MB with `stateDir`, on disk; 256 MB without, in memory). Past one, a save
   * answers 507 naming it.
   */
  snapshots?: { maxPerKey?: number; keyBytes?: number; totalBytes?: number }
  /** the largest `x-sandbox-delay` accepted, in ms (default 30 000) */
  maxDelayMs?: number
  /** `documented`: the production limit of api-reference/authentication.mdx on client-ID calls (default `off`) */
  rateLimit?: RateLimitMode
  /**
   * JSON-RPC admin methods (anvil_*, evm_*, ...) the strict-mode keys may call through /rpc: names, `prefix_*`, or
   * `*`. Without strict mode any API key may call them; without a key, nobody.
   */
  rpcAdmin?: string[]
  /**
   * /rpc requests executing contract code (eth_call, eth_estimateGas, ...) one client address may have under way;
   * everyone together twice it; past it 429 (default 1 on a shared listener, none on loopback).
   */
  rpcExecutingPerAddress?: number
  /** KB of raw transactions one client address may send through /rpc a minute (default 256 on a shared listener) */
  rpcTxKbPerMinute?: number
  /**
   * Test only: ms an embedded anvil that died stays down (health `degraded`) before its supervisor starts it again
   * (default 0: at once). Lets a test watch the outage's 503 answers; never needed otherwise.
   */
  chainRestartDelayMs?: number
  /**
   * The listener is not loopback-only (`startServer` sets it from `host`): webhooks reach public addresses only unless
   * `webhooks.hosts` allows more, `/__sandbox/keys` needs `adminKey`, /rpc admin methods need `rpcAdmin`.
   */
  exposed?: boolean
  /**
   * Platform worlds one orchestrator key may create through hosted onboarding, and one wallet may have (one per
   * orchestrator that onboarded it); past it a completion answers 429 (default 20)
   */
  maxOnboardedPlatforms?: number
  /**
   * Open (unused) link intents one orchestrator key may hold, and client IDs one onboarded platform may receive;
   * past it intent creation or the completion answers 429 (default 100)
   */
  maxLinkIntents?: number
  /** strict mode (`apiKeys`) with the portal on: registration, login and issued keys (issued keys are tenants) */
  portal?: boolean
  /** origins allowed credentialed CORS (the portal cookie) and cross-origin control writes, besides the sandbox's own */
  allowedOrigins?: string[]
  /** the value of `x-sandbox-admin-key` that lists every key (`/__sandbox/keys`, the dashboard's key picker) */
  adminKey?: string
  /** how far past real time a key's clock may be moved, in seconds (default ten years) */
  maxClockAdvanceSeconds?: number
  /** portal registrations and key creations a client address may make per minute (default 10; 120 on loopback) */
  signupsPerMinute?: number
  /** wallet-login challenges one client address may have waiting for their signature (default 20; 1000 on loopback) */
  challengesPerAddress?: number
  /** streams of each kind (live journal, listen clients) one key may hold open (default 10) */
  maxStreamsPerKey?: number
  /** streams of every key the sandbox holds open (default 1000, or half the process's open-file limit if lower) */
  maxStreamsTotal?: number
  /** faucet calls and triggers of every key together a minute on a shared listener (default 300; a key's own: 30) */
  faucetTotal?: number
}
