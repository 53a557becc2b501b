import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import v8 from 'node:v8'
import type { NetworkName } from './chain/index.ts'
import { parentOf, watchParent } from './cli/watchdog.ts'

const usage = `request-sandbox: a stateful Request Network API sandbox with its own anvil chain

Tools for a running sandbox (request-sandbox <tool> --help for each):
  trigger <event>     make an event happen for real (a request paid on the chain, a KYC approved, ...)
  logs tail           the calls, events and webhook deliveries of a key as they happen
  listen              forward a key's webhook deliveries to a local URL, signed with a stable secret
  webhooks <command>  chaos rules (duplicate, drop, delay, reorder, fail), deliveries with answers, redeliver
  fixtures <file>     load a world file (JSON or YAML: payers, bank details, requests paid on chain, ...);
                      fixtures import <har> turns a recording's objects into one
  snapshot <command>  save, load, ls, rm a key's state by name
  sandbox create      a sandbox of your own on a shared server started with --claimable: key, links, expiry
  mcp                 the tools for coding agents over MCP (stdio; --base drives a running sandbox, else its own)
  verify --against <url>  compare the real service's answers with a sandbox's: where the sandbox drifted
  proxy --target <url>    forward an app's calls to a service and record them as HAR (credentials masked)

Options:
  --port <n>          port to listen on (env PORT; default 8080; 0 picks a free port: read the URL
                      from the first line, "Request Sandbox listening on <url> ...")
  --host <addr>       address to bind (env HOST; default 127.0.0.1, 0.0.0.0 in Docker)
  --api-keys <a,b>    strict mode: only these API keys pass (env SANDBOX_API_KEYS)
  --orchestrator-keys <a,b>  strict mode for orchestrators: only these x-orchestrator-keys pass (env SANDBOX_ORCHESTRATOR_KEYS;
                      with --api-keys and without it, none)
  --max-onboarded-platforms <n>  platform worlds one orchestrator key may create through hosted onboarding,
                      and one wallet may have (env SANDBOX_MAX_ONBOARDED_PLATFORMS; default 20)
  --max-link-intents <n>  open link intents one orchestrator key may hold, and client IDs one onboarded platform
                      may receive (env SANDBOX_MAX_LINK_INTENTS; default 100)
  --rpc-admin <m,..>  strict mode: JSON-RPC admin methods keys may call through /rpc (names, evm_*, or *;
                      env SANDBOX_RPC_ADMIN). Outside strict mode, on a loopback listener, any API key may.
  --rpc-url <url>     use a running anvil instead of spawning one (env SANDBOX_RPC_URL)
  --networks <a,b>    networks started at once, one anvil each (env SANDBOX_NETWORKS; default sepolia); any other
                      documented network starts on the first call that names it
  --only-networks <a,b>  run exactly these networks; a call naming another answers 400 (env SANDBOX_ONLY_NETWORKS)
                      (tron adds Tron: its full node for TronWeb is served at <url>/tron)
  --networks-on-use <a,b|all>  networks a call may start on first use (env SANDBOX_NETWORKS_ON_USE; default all,
                      the eight documented ones; a call naming a network outside the list answers 400)
  --no-chain          run without a chain (no balance checks, no /rpc)
  --seed <n>          deterministic ids and fake data, and on loopback the sandbox's own accounts (env SANDBOX_SEED)
  --scenario <name>   scenario of keys that choose none (env SANDBOX_SCENARIO; default: default)
  --scenarios <dir>   extra scenario files (.ts, .js, .json); repeatable (env SANDBOX_SCENARIOS, comma list)
  --state-dir <dir>   keep the state across restarts in this folder, the sandbox's secret keys included
                      (sandbox-keys.json, mode 0600; env SANDBOX_STATE_DIR; /data in Docker)
  --max-worlds <n>    worlds (key x scenario) kept in memory; with --state-dir the least recently used past it
                      waits on disk, without it a new world past it answers 507 (env SANDBOX_MAX_WORLDS; default 1000
                      with --state-dir or on a shared listener, 100000 otherwise)
  --max-snapshots <n> named snapshots one key may keep (env SANDBOX_MAX_SNAPSHOTS; default 50)
  --snapshot-key-mb <n>  megabytes one key's snapshots may take together (env SANDBOX_SNAPSHOT_KEY_MB; default 64)
  --snapshot-total-mb <n>  megabytes every key's snapshots may take together (env SANDBOX_SNAPSHOT_TOTAL_MB;
                      default 1024 with --state-dir, on disk; 256 without, in memory). Past a bound a save answers 507
  --headers-timeout <ms>  a client has this long to send its headers (env SANDBOX_HEADERS_TIMEOUT_MS; 10000)
  --request-timeout <ms>  ... and its whole request (env SANDBOX_REQUEST_TIMEOUT_MS; 30000); slower: 408, closed
  --portal            strict mode: turn the portal on (registration, login, issued keys, which pass as tenants;
                      env SANDBOX_PORTAL=1). Outside strict mode it is always on.
  --admin-key <k>     lets callers sending it as x-sandbox-admin-key list every key (/__sandbox/keys, the dashboard's
                      picker; env SANDBOX_ADMIN_KEY). Without it keys are listed only on a loopback listener outside
                      strict mode.
  --allowed-origins <o,..>  origins (https://app.example.com) allowed credentialed CORS (the portal cookie) and
                      cross-origin control API writes, besides the sandbox's own (env SANDBOX_ALLOWED_ORIGINS)
  --webhook-hosts <h,..>  where key webhooks may go: host names, globs (*.example.com), addresses and CIDR ranges
                      (10.0.0.0/8), each optionally :port; added to public addresses (env SANDBOX_WEBHOOK_HOSTS).
                      Default: anything on a loopback listener, public addresses only on any other.
  --max-webhooks <n>  webhooks one key may register (env SANDBOX_MAX_WEBHOOKS; default 25)
  --webhook-rate <n>  delivery attempts one key may make per minute (env SANDBOX_WEBHOOK_RATE; default 120)
  --webhook-total <n>  delivery attempts of every key under way at once (env SANDBOX_WEBHOOK_TOTAL; default 256)
  --max-clock-advance <days>  how far past real time a key may move its clock (env SANDBOX_MAX_CLOCK_ADVANCE_DAYS;
                      default 3650, at most 5475)
  --signup-rate <n>   portal registrations and key creations per client address per minute, password logins three
                      times it (env SANDBOX_SIGNUP_RATE; default 10, 120 on a loopback listener)
  --max-challenges <n>  wallet-login challenges one client address may have waiting for their signature
                      (env SANDBOX_MAX_CHALLENGES; default 20, 1000 on a loopback listener)
  --rpc-executing <n>  /rpc requests executing contract code (eth_call, eth_estimateGas, ...) one client address may
                      have under way, everyone together twice it (env SANDBOX_RPC_EXECUTING; default 1 on a shared
                      listener, no bound on a loopback one)
  --rpc-tx-kb <n>     KB of raw transactions one client address may send through /rpc a minute (env SANDBOX_RPC_TX_KB;
                      default 256 on a shared listener, no bound on a loopback one)
  --max-streams <n>   streams one key may hold open, of each kind: live journal (/__sandbox/stream, the dashboard,
                      logs tail) and listen clients (env SANDBOX_MAX_STREAMS; default 10)
  --max-streams-total <n>  streams of every key the sandbox holds open (env SANDBOX_MAX_STREAMS_TOTAL; default 1000,
                      or half the process's open-file limit when that is lower)
  --faucet-total <n>  faucet calls and triggers of every key together a minute on a shared listener, claimed keys
                      half of it (env SANDBOX_FAUCET_TOTAL; default 300; one key: 30)
  --mcp-sessions <n>  MCP sessions (/mcp, coding agents) one key may hold open (env SANDBOX_MCP_SESSIONS; default 5)
  --mcp-sessions-total <n>  MCP sessions of every key together (env SANDBOX_MCP_SESSIONS_TOTAL; default 200)
  --mcp-idle <s>      an MCP session unused this many seconds is closed (env SANDBOX_MCP_IDLE; default 600; max 2147483)
  --claimable         let visitors create sandboxes of their own (POST /__sandbox/sandboxes: a fresh key with an
                      expiry; in strict mode such keys pass too; env SANDBOX_CLAIMABLE=1). Off by default
  --sandbox-ttl <days>  how long a claimed sandbox lives before its state is deleted (env SANDBOX_TTL_DAYS; default 7)
  --claim-rate <n>    sandboxes one client address may create an hour (env SANDBOX_CLAIM_RATE; default 5)
  --max-claims <n>    live claimed sandboxes in all (env SANDBOX_MAX_CLAIMS; default 1000)
  --claims-per-address <n>  live claimed sandboxes one client address may hold (env SANDBOX_CLAIMS_PER_ADDRESS; default 20)
  --fixtures <file>   load a world file at start into the key it names (key: ...); see request-sandbox fixtures --help
  --webhook-url <u>   deliver every key's events to this URL too (env WEBHOOK_URL)
  --webhook-secret <s> its signing secret (env WEBHOOK_SECRET; generated and printed when absent)
  -q, --quiet         print only the first line: no banner details, no log of calls, events, payments, webhooks
  --rate-limit <m>    off (default) or documented: 300 calls a minute per x-client-id and address, then 429 and
                      5 minutes blocked, as production (env SANDBOX_RATE_LIMIT)
  --log-format <f>    text (default) or json: one JSON object per line, the banner included (env SANDBOX_LOG_FORMAT)
  -v, --version       the version
  -h, --help          this text

Traces: set OTEL_EXPORTER_OTLP_ENDPOINT (and the other standard OTEL_* variables) to send OpenTelemetry traces;
see docs/telemetry.md.
`

// A long-running server favours memory over the last bit of throughput: V8 would otherwise let the heap grow to
// several times what is live before collecting (the 90 s soak of `npm run bench -- soak`: 430 MB -> 215 MB peak).
// 50 %: at 30 % the soak's CPU per request rose by half for no flatter memory. The young generation's size cannot
// be set here (V8 fixes it when the process starts; `--max-semi-space-size` given to node itself made the soak
// cheaper in memory but dearer in CPU: 4 MB, +50 % CPU).
v8.setFlagsFromString('--heap-growing-percent=50')

/** The package's version, read from its package.json (one level above src/ and dist/). */
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return manifest.version
}

/** Parses the command line; an unknown option or a missing value names the option and points at --help. */
function parseCommandLine() {
  try {
    return parseArgs({ options })
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]
    throw new Error(`${message}${npmSwallowed(process.env)} (see request-sandbox --help)`)
  }
}

/**
 * Under `npm start`, flags written without `--` go to npm, which keeps them as its own config (`npm_config_port`)
 * and hands the sandbox only their values: the advice names the flags npm took and the command that works.
 */
export function npmSwallowed(env: NodeJS.ProcessEnv): string {
  if (!env.npm_lifecycle_event) return ''
  const taken = Object.keys(options).filter(
    (name) => env[`npm_config_${name.replaceAll('-', '_')}`] !== undefined,
  )
  const values = process.argv.slice(2)
  const flags = taken.map((name) => `--${name}`)
  const command = `npm ${env.npm_lifecycle_event === 'start' ? 'start' : `run ${env.npm_lifecycle_event}`}`
  return taken.length
    ? `; npm took ${flags.join(', ')} for itself: put -- before the sandbox's flags, as in \`${command} -- ${[...flags.slice(0, 1), ...values.slice(0, 1)].join(' ')}\``
    : `; run through npm? put -- before the sandbox's flags, as in \`${command} -- --port 4000\``
}

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-keys': { type: 'string' },
  'orchestrator-keys': { type: 'string' },
  'rpc-url': { type: 'string' },
  'rpc-admin': { type: 'string' },
  'state-dir': { type: 'string' },
  'max-worlds': { type: 'string' },
  'max-snapshots': { type: 'string' },
  'snapshot-key-mb': { type: 'string' },
  'snapshot-total-mb': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'no-chain': { type: 'boolean' },
  networks: { type: 'string' },
  'only-networks': { type: 'string' },
  'networks-on-use': { type: 'string' },
  seed: { type: 'string' },
  scenario: { type: 'string' },
  scenarios: { type: 'string', multiple: true },
  portal: { type: 'boolean' },
  'admin-key': { type: 'string' },
  'allowed-origins': { type: 'string' },
  'webhook-hosts': { type: 'string' },
  'max-webhooks': { type: 'string' },
  'max-onboarded-platforms': { type: 'string' },
  'max-link-intents': { type: 'string' },
  'webhook-rate': { type: 'string' },
  'webhook-total': { type: 'string' },
  'max-clock-advance': { type: 'string' },
  'signup-rate': { type: 'string' },
  'max-challenges': { type: 'string' },
  'rpc-executing': { type: 'string' },
  'rpc-tx-kb': { type: 'string' },
  'max-streams': { type: 'string' },
  'max-streams-total': { type: 'string' },
  'faucet-total': { type: 'string' },
  'mcp-sessions': { type: 'string' },
  'mcp-sessions-total': { type: 'string' },
  'mcp-idle': { type: 'string' },
  claimable: { type: 'boolean' },
  'sandbox-ttl': { type: 'string' },
  'claim-rate': { type: 'string' },
  'claims-per-address': { type: 'string' },
  'max-claims': { type: 'string' },
  'webhook-url': { type: 'string' },
  fixtures: { type: 'string' },
  'webhook-secret': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'log-format': { type: 'string' },
  'rate-limit': { type: 'string' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const

async function main(): Promise<void> {
  // the parent as it was at start, read before anything prints: whoever reads the first line may kill npm at once,
  // and a parent read after that would already be init (nothing watched, the sandbox and anvil left running)
  const parent = process.ppid
  // under `npm start` (npm → sh → this process) npm may go while its shell stays: npm is watched too
  const npm = process.env.npm_lifecycle_event ? parentOf(parent) : null
  const word = process.argv[2]
  if (word === 'mcp') {
    const [{ runMcpCommand }, { startServer }] = await Promise.all([
      import('./mcp/index.ts'),
      import('./server.ts'),
    ])
    process.exitCode = await runMcpCommand(process.argv.slice(3), ({ networks, ...options }) =>
      startServer({ ...options, ...(networks ? { networks: networks as NetworkName[] } : {}) }),
    )
    return
  }
  if (word && !word.startsWith('-')) {
    const { isTool, runTool } = await import('./cli/tools.ts')
    if (isTool(word)) {
      process.exitCode = await runTool(process.argv.slice(2))
      return
    }
  }
  const { values } = parseCommandLine()
  if (values.version) {
    process.stdout.write(`request-sandbox ${version()}\n`)
    return
  }
  if (values.help) {
    process.stdout.write(usage)
    return
  }
  const env = process.env
  const port = Number(values.port ?? env.PORT ?? 8080)
  const list = (v: string | undefined) =>
    v
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean)
  const apiKeys = list(values['api-keys'] ?? env.SANDBOX_API_KEYS)
  const orchestratorKeys = list(values['orchestrator-keys'] ?? env.SANDBOX_ORCHESTRATOR_KEYS)
  const rpcUrl = values['rpc-url'] ?? env.SANDBOX_RPC_URL
  const seed = values.seed ?? env.SANDBOX_SEED
  const scenarioDirs = values.scenarios ?? env.SANDBOX_SCENARIOS?.split(',').filter(Boolean) ?? []
  const scenario = values.scenario ?? env.SANDBOX_SCENARIO
  const webhookUrl = values['webhook-url'] ?? env.WEBHOOK_URL
  const webhookSecret = values['webhook-secret'] ?? env.WEBHOOK_SECRET
  if (webhookUrl && (!/^https?:\/\/[^\s]+$/.test(webhookUrl) || /^https?:\/\/[^/]*@/.test(webhookUrl)))
    throw new Error(`invalid --webhook-url ${webhookUrl}: an http:// or https:// URL without credentials`)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(
      `invalid port ${JSON.stringify(values.port ?? env.PORT)}: --port (or PORT) takes 0 to 65535 (0 picks a free port)`,
    )
  if (seed !== undefined && !Number.isSafeInteger(Number(seed)))
    throw new Error(`invalid --seed ${JSON.stringify(seed)}: a whole number`)
  const rpcAdmin = list(values['rpc-admin'] ?? env.SANDBOX_RPC_ADMIN)
  const stateDir = values['state-dir'] ?? env.SANDBOX_STATE_DIR
  const maxWorlds = values['max-worlds'] ?? env.SANDBOX_MAX_WORLDS
  if (maxWorlds !== undefined && !(Number.isInteger(Number(maxWorlds)) && Number(maxWorlds) > 0))
    throw new Error(`invalid --max-worlds ${JSON.stringify(maxWorlds)}: a whole number above 0`)
  const headersMs = values['headers-timeout'] ?? env.SANDBOX_HEADERS_TIMEOUT_MS
  const requestMs = values['request-timeout'] ?? env.SANDBOX_REQUEST_TIMEOUT_MS
  for (const [flag, v] of [
    ['--headers-timeout', headersMs],
    ['--request-timeout', requestMs],
  ] as const)
    if (v !== undefined && !(Number.isSafeInteger(Number(v)) && Number(v) > 0))
      throw new Error(`invalid ${flag} ${JSON.stringify(v)}: whole milliseconds above 0`)
  const allowedOrigins = list(values['allowed-origins'] ?? env.SANDBOX_ALLOWED_ORIGINS)?.map((o) => {
    const origin = URL.canParse(o) ? new URL(o).origin : 'null'
    if (origin === 'null' || !/^https?:/.test(origin))
      throw new Error(
        `invalid --allowed-origins entry ${JSON.stringify(o)}: an origin such as https://app.example.com`,
      )
    return origin
  })
  const webhookHosts = list(values['webhook-hosts'] ?? env.SANDBOX_WEBHOOK_HOSTS)
  const adminKey = values['admin-key'] ?? env.SANDBOX_ADMIN_KEY
  const portal = Boolean(values.portal) || env.SANDBOX_PORTAL === '1' || env.SANDBOX_PORTAL === 'true'
  const whole = (flag: string, v: string | undefined, max = Number.MAX_SAFE_INTEGER) => {
    if (v === undefined) return undefined
    const n = Number(v)
    if (!(Number.isSafeInteger(n) && n > 0 && n <= max))
      throw new Error(`invalid ${flag} ${JSON.stringify(v)}: a whole number from 1 to ${max}`)
    return n
  }
  const maxWebhooks = whole('--max-webhooks', values['max-webhooks'] ?? env.SANDBOX_MAX_WEBHOOKS)
  const maxOnboarded = whole(
    '--max-onboarded-platforms',
    values['max-onboarded-platforms'] ?? env.SANDBOX_MAX_ONBOARDED_PLATFORMS,
  )
  const maxIntents = whole('--max-link-intents', values['max-link-intents'] ?? env.SANDBOX_MAX_LINK_INTENTS)
  const webhookRate = whole('--webhook-rate', values['webhook-rate'] ?? env.SANDBOX_WEBHOOK_RATE)
  const webhookTotal = whole('--webhook-total', values['webhook-total'] ?? env.SANDBOX_WEBHOOK_TOTAL)
  // the recurring permits' grace is 20 years: a clock may never reach past it
  const clockDays = whole(
    '--max-clock-advance',
    values['max-clock-advance'] ?? env.SANDBOX_MAX_CLOCK_ADVANCE_DAYS,
    5475,
  )
  const signupRate = whole('--signup-rate', values['signup-rate'] ?? env.SANDBOX_SIGNUP_RATE)
  const maxChallenges = whole('--max-challenges', values['max-challenges'] ?? env.SANDBOX_MAX_CHALLENGES)
  const rpcExecuting = whole('--rpc-executing', values['rpc-executing'] ?? env.SANDBOX_RPC_EXECUTING)
  const rpcTxKb = whole('--rpc-tx-kb', values['rpc-tx-kb'] ?? env.SANDBOX_RPC_TX_KB)
  const maxStreams = whole('--max-streams', values['max-streams'] ?? env.SANDBOX_MAX_STREAMS)
  const maxStreamsTotal = whole(
    '--max-streams-total',
    values['max-streams-total'] ?? env.SANDBOX_MAX_STREAMS_TOTAL,
  )
  const faucetTotal = whole('--faucet-total', values['faucet-total'] ?? env.SANDBOX_FAUCET_TOTAL)
  const mcpSessions = whole('--mcp-sessions', values['mcp-sessions'] ?? env.SANDBOX_MCP_SESSIONS)
  const mcpSessionsTotal = whole(
    '--mcp-sessions-total',
    values['mcp-sessions-total'] ?? env.SANDBOX_MCP_SESSIONS_TOTAL,
  )
  const mcpIdle = whole('--mcp-idle', values['mcp-idle'] ?? env.SANDBOX_MCP_IDLE, 2_147_483)
  const claimable =
    Boolean(values.claimable) || env.SANDBOX_CLAIMABLE === '1' || env.SANDBOX_CLAIMABLE === 'true'
  const ttlDays = whole('--sandbox-ttl', values['sandbox-ttl'] ?? env.SANDBOX_TTL_DAYS, 365)
  const claimRate = whole('--claim-rate', values['claim-rate'] ?? env.SANDBOX_CLAIM_RATE)
  const maxClaims = whole('--max-claims', values['max-claims'] ?? env.SANDBOX_MAX_CLAIMS)
  const perAddress = whole(
    '--claims-per-address',
    values['claims-per-address'] ?? env.SANDBOX_CLAIMS_PER_ADDRESS,
  )
  if (!claimable && (ttlDays ?? claimRate ?? maxClaims ?? perAddress) !== undefined)
    throw new Error('--sandbox-ttl, --claim-rate, --max-claims, --claims-per-address need --claimable')
  const maxSnapshots = whole('--max-snapshots', values['max-snapshots'] ?? env.SANDBOX_MAX_SNAPSHOTS)
  const snapshotKeyMb = whole('--snapshot-key-mb', values['snapshot-key-mb'] ?? env.SANDBOX_SNAPSHOT_KEY_MB)
  const snapshotTotalMb = whole(
    '--snapshot-total-mb',
    values['snapshot-total-mb'] ?? env.SANDBOX_SNAPSHOT_TOTAL_MB,
  )
  const logFormat = values['log-format'] ?? env.SANDBOX_LOG_FORMAT ?? 'text'
  if (logFormat !== 'text' && logFormat !== 'json')
    throw new Error(`invalid --log-format ${JSON.stringify(logFormat)}: text or json`)
  const onlyNetworks = values['only-networks'] ?? env.SANDBOX_ONLY_NETWORKS
  if (onlyNetworks !== undefined && values.networks !== undefined)
    throw new Error(
      '--networks and --only-networks exclude each other: --only-networks lists every network to run',
    )
  const onUse = values['networks-on-use'] ?? env.SANDBOX_NETWORKS_ON_USE
  if (onlyNetworks !== undefined && values['networks-on-use'] !== undefined)
    throw new Error('--only-networks starts no network on first use: leave out --networks-on-use')
  const rateLimit = values['rate-limit'] ?? env.SANDBOX_RATE_LIMIT ?? 'off'
  if (rateLimit !== 'off' && rateLimit !== 'documented')
    throw new Error(`invalid --rate-limit ${JSON.stringify(rateLimit)}: off or documented`)
  const started = Date.now()
  phase = 'starting'
  // loaded here so that --help and --version answer at once
  const [{ startServer }, { bannerJson, bannerLines }, { attachTerminalLog }] = await Promise.all([
    import('./server.ts'),
    import('./banner.ts'),
    import('./terminal-log.ts'),
  ])
  // OpenTelemetry traces when the standard OTEL_* variables ask for them (docs/telemetry.md); else nothing is loaded
  const telemetry = await (await import('./telemetry/index.ts')).startTelemetry(env)
  const server = await startServer({
    ...(telemetry ? { telemetry } : {}),
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    chain: values['no-chain'] ? false : rpcUrl ? { rpcUrl } : 'embedded',
    networks: (onlyNetworks ?? values.networks ?? env.SANDBOX_NETWORKS ?? 'sepolia')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean) as NetworkName[],
    networksOnUse: onlyNetworks ? 'refuse' : 'start',
    ...(onUse !== undefined
      ? { startableNetworks: onUse.trim() === 'all' ? 'all' : (list(onUse) as NetworkName[]) }
      : {}),
    ...(apiKeys?.length ? { apiKeys } : {}),
    ...(orchestratorKeys?.length ? { orchestratorKeys } : {}),
    ...(rpcAdmin?.length ? { rpcAdmin } : {}),
    ...(stateDir ? { stateDir } : {}),
    ...(maxWorlds !== undefined ? { maxWorlds: Number(maxWorlds) } : {}),
    snapshots: {
      ...(maxSnapshots !== undefined ? { maxPerKey: maxSnapshots } : {}),
      ...(snapshotKeyMb !== undefined ? { keyBytes: snapshotKeyMb * 1024 * 1024 } : {}),
      ...(snapshotTotalMb !== undefined ? { totalBytes: snapshotTotalMb * 1024 * 1024 } : {}),
    },
    timeouts: {
      ...(headersMs !== undefined ? { headersMs: Number(headersMs) } : {}),
      ...(requestMs !== undefined ? { requestMs: Number(requestMs) } : {}),
    },
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    ...(rateLimit === 'documented' ? { rateLimit } : {}),
    ...(scenario ? { scenario } : {}),
    ...(scenarioDirs.length ? { scenarioDirs } : {}),
    webhooks: {
      ...(webhookUrl ? { url: webhookUrl, ...(webhookSecret ? { secret: webhookSecret } : {}) } : {}),
      ...(webhookHosts?.length ? { hosts: webhookHosts } : {}),
      ...(maxWebhooks !== undefined ? { maxPerKey: maxWebhooks } : {}),
      ...(webhookRate !== undefined ? { attemptsPerMinute: webhookRate } : {}),
      ...(webhookTotal !== undefined ? { attemptsTotal: webhookTotal } : {}),
    },
    ...(portal ? { portal } : {}),
    ...(adminKey ? { adminKey } : {}),
    ...(allowedOrigins?.length ? { allowedOrigins } : {}),
    ...(clockDays !== undefined ? { maxClockAdvanceSeconds: clockDays * 86_400 } : {}),
    ...(signupRate !== undefined ? { signupsPerMinute: signupRate } : {}),
    ...(maxOnboarded !== undefined ? { maxOnboardedPlatforms: maxOnboarded } : {}),
    ...(maxIntents !== undefined ? { maxLinkIntents: maxIntents } : {}),
    ...(maxChallenges !== undefined ? { challengesPerAddress: maxChallenges } : {}),
    ...(rpcExecuting !== undefined ? { rpcExecutingPerAddress: rpcExecuting } : {}),
    ...(rpcTxKb !== undefined ? { rpcTxKbPerMinute: rpcTxKb } : {}),
    ...(maxStreams !== undefined ? { maxStreamsPerKey: maxStreams } : {}),
    ...(maxStreamsTotal !== undefined ? { maxStreamsTotal } : {}),
    ...(faucetTotal !== undefined ? { faucetTotal } : {}),
    mcp: {
      ...(mcpSessions !== undefined ? { sessionsPerKey: mcpSessions } : {}),
      ...(mcpSessionsTotal !== undefined ? { sessionsTotal: mcpSessionsTotal } : {}),
      ...(mcpIdle !== undefined ? { idleMs: mcpIdle * 1000 } : {}),
    },
    ...(claimable
      ? {
          claimable: {
            ...(ttlDays !== undefined ? { ttlMs: ttlDays * 86_400_000 } : {}),
            ...(claimRate !== undefined ? { perAddressPerHour: claimRate } : {}),
            ...(maxClaims !== undefined ? { maxLive: maxClaims } : {}),
            ...(perAddress !== undefined ? { livePerAddress: perAddress } : {}),
          },
        }
      : {}),
  })
  const hook = server.sandbox.shared.webhooks.defaultTarget
  const facts = {
    readyMs: Date.now() - started,
    ...(apiKeys?.length ? { apiKeys } : {}),
    ...(hook ? { webhook: { url: hook.url, secret: hook.secret, secretGiven: Boolean(webhookSecret) } } : {}),
  }
  const quiet = Boolean(values.quiet)
  // loaded before the first line: a sandbox that says it listens has its world file
  const loaded = values.fixtures
    ? await (await import('./cli/fixtures.ts'))
        .loadAtStart(server.url, values.fixtures)
        .catch(async (error: Error) => {
          await server.close()
          throw error
        })
    : undefined
  process.stdout.write(
    logFormat === 'json'
      ? `${JSON.stringify(bannerJson(server, facts))}\n`
      : `${bannerLines(server, facts, quiet).join('\n')}\n`,
  )
  if (loaded && !quiet) process.stdout.write(loaded)
  const detach = quiet ? async () => {} : attachTerminalLog(server.sandbox, { format: logFormat })
  let stopping: Promise<void> | null = null
  // a signal stops it with 0; anything else (its parent gone) with 1, which a supervisor restarting on failure sees
  const stop = (code: number) => {
    if (typeof phase !== 'object') phase = { stopping: code }
    stopping ??= (async () => {
      const flushed = detach()
      await server.close()
      await flushed
      await telemetry?.shutdown().catch(() => {})
      process.exit(code)
    })()
    return stopping
  }
  process.once('SIGINT', () => stop(0))
  process.once('SIGTERM', () => stop(0))
  // `npm start` killed with SIGTERM exits without passing it on, and its shell goes with it: the sandbox, left
  // to init, notices that its parent changed and stops (anvil and helpers with it)
  watchParent({ parent, npm }, () => {
    process.stderr.write(
      'request-sandbox: stopping: the process that started it (npm or its shell) is gone\n',
    )
    void stop(1)
  })
  phase = 'serving'
}

/** Where the command is: from `starting` on, only stop() (with its code) or an error ends the process. */
let phase: 'idle' | 'starting' | 'serving' | { stopping: number } = 'idle'

// The event loop ran dry while the sandbox started or served: what it waited for is gone without an error. It never
// ends quietly with 0: a supervisor restarting on failure must see it.
process.on('beforeExit', () => {
  if (phase === 'idle') return
  if (typeof phase === 'object') process.exit(phase.stopping)
  process.stderr.write(
    `request-sandbox: stopped unexpectedly ${phase === 'serving' ? 'while serving (nothing left to serve with)' : 'while starting'}\n`,
  )
  process.exit(1)
})

main().catch((error: unknown) => {
  process.stderr.write(`request-sandbox: ${(error as Error).message}\n`)
  process.exit(1)
})
