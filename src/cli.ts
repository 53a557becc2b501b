import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import v8 from 'node:v8'
import type { NetworkName } from './chain/index.ts'

const usage = `request-sandbox: a stateful Request Network API sandbox with its own anvil chain

Tools for a running sandbox (request-sandbox <tool> --help for each):
  trigger <event>     make an event happen for real (a request paid on the chain, a KYC approved, ...)
  logs tail           the calls, events and webhook deliveries of a key as they happen
  listen              forward a key's webhook deliveries to a local URL, signed with a stable secret
  webhooks <command>  chaos rules (duplicate, drop, delay, reorder, fail), deliveries with answers, redeliver
  fixtures <file>     load a world file (JSON or YAML: payers, bank details, requests paid on chain, ...)
  snapshot <command>  save, load, ls, rm a key's state by name

Options:
  --port <n>          port to listen on (env PORT; default 8080; 0 picks a free port: read the URL
                      from the first line, "Request Sandbox listening on <url> ...")
  --host <addr>       address to bind (env HOST; default 127.0.0.1, 0.0.0.0 in Docker)
  --api-keys <a,b>    strict mode: only these API keys pass (env SANDBOX_API_KEYS)
  --rpc-admin <m,..>  strict mode: JSON-RPC admin methods keys may call through /rpc (names, evm_*, or *;
                      env SANDBOX_RPC_ADMIN). Without strict mode any API key may call them.
  --rpc-url <url>     use a running anvil instead of spawning one (env SANDBOX_RPC_URL)
  --networks <a,b>    live networks, one anvil each (env SANDBOX_NETWORKS; default sepolia)
  --no-chain          run without a chain (no balance checks, no /rpc)
  --seed <n>          deterministic ids and fake data (env SANDBOX_SEED)
  --scenario <name>   scenario of keys that choose none (env SANDBOX_SCENARIO; default: default)
  --scenarios <dir>   extra scenario files (.ts, .js, .json); repeatable (env SANDBOX_SCENARIOS, comma list)
  --state-dir <dir>   keep the state across restarts in this folder (env SANDBOX_STATE_DIR; /data in Docker)
  --max-worlds <n>    worlds (key x scenario) kept in memory; the least recently used past it is evicted
                      (to --state-dir, else dropped; env SANDBOX_MAX_WORLDS; default 1000)
  --headers-timeout <ms>  a client has this long to send its headers (env SANDBOX_HEADERS_TIMEOUT_MS; 10000)
  --request-timeout <ms>  ... and its whole request (env SANDBOX_REQUEST_TIMEOUT_MS; 30000); slower: 408, closed
  --fixtures <file>   load a world file at start into the key it names (key: ...); see request-sandbox fixtures --help
  --webhook-url <u>   deliver every key's events to this URL too (env WEBHOOK_URL)
  --webhook-secret <s> its signing secret (env WEBHOOK_SECRET; generated and printed when absent)
  -q, --quiet         print only the first line: no banner details, no log of calls, events, payments, webhooks
  --log-format <f>    text (default) or json: one JSON object per line, the banner included (env SANDBOX_LOG_FORMAT)
  -v, --version       the version
  -h, --help          this text
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
    throw new Error(`${(error as Error).message.split('\n')[0]} (see request-sandbox --help)`)
  }
}

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-keys': { type: 'string' },
  'rpc-url': { type: 'string' },
  'rpc-admin': { type: 'string' },
  'state-dir': { type: 'string' },
  'max-worlds': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'no-chain': { type: 'boolean' },
  networks: { type: 'string' },
  seed: { type: 'string' },
  scenario: { type: 'string' },
  scenarios: { type: 'string', multiple: true },
  'webhook-url': { type: 'string' },
  fixtures: { type: 'string' },
  'webhook-secret': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'log-format': { type: 'string' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const

async function main(): Promise<void> {
  const word = process.argv[2]
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
  const apiKeys = (values['api-keys'] ?? env.SANDBOX_API_KEYS)
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean)
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
  const rpcAdmin = (values['rpc-admin'] ?? env.SANDBOX_RPC_ADMIN)
    ?.split(',')
    .map((m) => m.trim())
    .filter(Boolean)
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
  const logFormat = values['log-format'] ?? env.SANDBOX_LOG_FORMAT ?? 'text'
  if (logFormat !== 'text' && logFormat !== 'json')
    throw new Error(`invalid --log-format ${JSON.stringify(logFormat)}: text or json`)
  const started = Date.now()
  // loaded here so that --help and --version answer at once
  const [{ startServer }, { bannerJson, bannerLines }, { attachTerminalLog }] = await Promise.all([
    import('./server.ts'),
    import('./banner.ts'),
    import('./terminal-log.ts'),
  ])
  const server = await startServer({
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    chain: values['no-chain'] ? false : rpcUrl ? { rpcUrl } : 'embedded',
    networks: (values.networks ?? env.SANDBOX_NETWORKS ?? 'sepolia')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean) as NetworkName[],
    ...(apiKeys?.length ? { apiKeys } : {}),
    ...(rpcAdmin?.length ? { rpcAdmin } : {}),
    ...(stateDir ? { stateDir } : {}),
    ...(maxWorlds !== undefined ? { maxWorlds: Number(maxWorlds) } : {}),
    timeouts: {
      ...(headersMs !== undefined ? { headersMs: Number(headersMs) } : {}),
      ...(requestMs !== undefined ? { requestMs: Number(requestMs) } : {}),
    },
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    ...(scenario ? { scenario } : {}),
    ...(scenarioDirs.length ? { scenarioDirs } : {}),
    ...(webhookUrl
      ? { webhooks: { url: webhookUrl, ...(webhookSecret ? { secret: webhookSecret } : {}) } }
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
  const detach = quiet ? () => {} : attachTerminalLog(server.sandbox, { format: logFormat })
  const stop = async () => {
    detach()
    await server.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`request-sandbox: ${(error as Error).message}\n`)
  process.exit(1)
})
