// `request-sandbox proxy` (record an app's traffic with a service as HAR) and `request-sandbox fixtures import` (turn
// a recording into a world file the sandbox loads).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CliError, EXIT } from '../cli/client.ts'
import { HarError, readHar } from './har.ts'
import { importFixtures, MAX_IMPORTED_ENTRIES } from './import-fixtures.ts'
import { startProxy } from './proxy.ts'

export const PROXY_HELP = `request-sandbox proxy --target <base-url> --record <file.har> [--port <n>] [--host <addr>]

A local port your app calls instead of the service: every call is forwarded to --target and answered with its
answer, and both are written to --record as HAR 1.2 after each call. Credentials never land in the recording: the
x-api-key, x-orchestrator-key, x-client-id, authorization, cookie and set-cookie headers read [masked], the keys'
values are replaced wherever else they appear, and body fields named secret, apiKey, password, privateKey or sessionToken keep only
their shape. Turn the recording into seed data with request-sandbox fixtures import, or attach it to a bug report.

  --target <url>      the service (https://api.request.network, or a sandbox)
  --record <file>     the HAR file (rewritten after each call)
  --port <n>          the port to listen on (default 8090; 0 picks a free one)
  --host <addr>       the address to listen on (default 127.0.0.1: only this machine's apps reach it)
  -h, --help          this text

Bounds: request bodies of at most 1 MiB (413 past it); answers read up to 8 MiB; a recording keeps at most 10000
calls and 64 MiB of bodies (later calls are forwarded, not recorded). Stop it with Ctrl-C.
`

export const IMPORT_HELP = `request-sandbox fixtures import <file.har> [-o <world.yaml>] [--key <key>]

Turns the objects a recording created (requests and whether they were paid, payouts, payers with their bank details,
client IDs, webhooks, secure payment links) into a world file the sandbox loads (request-sandbox fixtures, or
--fixtures at start). Each entry is the body the app sent, so the sandbox makes the same object; a payer keeps its
clientUserId, other ids name the entries (the sandbox makes its own). Updates (PATCH a payer, PUT a client ID) are
applied, deleted client IDs and webhooks left out, refused calls ignored. Reads a HAR from the proxy, verify --record,
or a browser's devtools.

  -o, --output <file> write the world file there (.yaml, .yml or .json; default: print YAML)
  --key <key>         name the key --fixtures loads it into ("key:" in the file)
  -h, --help          this text
`

const usage = (message: string, command: string) =>
  new CliError(`${message} (see request-sandbox ${command} --help)`, EXIT.usage)

const httpUrl = /^https?:\/\/[^\s@/]+(\/[^\s]*)?$/

/** Runs the proxy until SIGINT or SIGTERM. */
export async function proxy(args: string[]): Promise<number> {
  let values: { target?: string; record?: string; port?: string; host?: string; help?: boolean }
  try {
    values = parseArgs({
      args,
      options: {
        target: { type: 'string' },
        record: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values
  } catch (error) {
    throw usage((error as Error).message.split('\n')[0]!, 'proxy')
  }
  if (values.help) {
    process.stdout.write(PROXY_HELP)
    return EXIT.ok
  }
  if (!values.target || !httpUrl.test(values.target) || !URL.canParse(values.target))
    throw usage('proxy needs --target <base-url>, an http:// or https:// URL without credentials', 'proxy')
  if (!values.record) throw usage('proxy needs --record <file.har>', 'proxy')
  const port = Number(values.port ?? 8090)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usage(`invalid --port ${JSON.stringify(values.port)}: 0 to 65535`, 'proxy')
  let running: Awaited<ReturnType<typeof startProxy>>
  try {
    running = await startProxy({
      target: values.target,
      record: values.record,
      port,
      ...(values.host ? { host: values.host } : {}),
      onCall: (line) => process.stdout.write(`${line}\n`),
    })
  } catch (error) {
    throw new CliError(`proxy cannot start: ${(error as Error).message}`)
  }
  process.stdout.write(
    `Request Sandbox proxy listening on ${running.url}, forwarding to ${values.target}, recording to ${values.record}\n`,
  )
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await running.close()
  process.stdout.write(`recorded ${running.recorded()} call(s) in ${values.record}\n`)
  return EXIT.ok
}

/** The largest recording the import reads. */
const MAX_HAR_BYTES = 256 * 1024 * 1024

/** `request-sandbox fixtures import <har>`. */
export async function fixturesImport(args: string[]): Promise<number> {
  let parsed: { values: { output?: string; key?: string; help?: boolean }; positionals: string[] }
  try {
    parsed = parseArgs({
      args,
      options: {
        output: { type: 'string', short: 'o' },
        key: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw usage((error as Error).message.split('\n')[0]!, 'fixtures import')
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(IMPORT_HELP)
    return EXIT.ok
  }
  if (positionals.length !== 1) throw usage('fixtures import takes one HAR file', 'fixtures import')
  const file = positionals[0]!
  if (!existsSync(file)) throw usage(`cannot read ${file}: no such file`, 'fixtures import')
  if (statSync(file).size > MAX_HAR_BYTES)
    throw new CliError(`${file} is larger than ${MAX_HAR_BYTES} bytes: record a shorter session`)
  let exchanges: ReturnType<typeof readHar>['exchanges']
  try {
    exchanges = readHar(readFileSync(file, 'utf8')).exchanges
  } catch (error) {
    if (error instanceof HarError) throw new CliError(`${file}: ${error.message}`)
    throw error
  }
  const { world, counts, skipped } = importFixtures(exchanges, {
    source: file.split(/[\\/]/).pop()!,
    ...(values.key ? { key: values.key } : {}),
  })
  const bank = Object.values(world.payers ?? {}).reduce(
    (n, p) => n + Object.keys(p.bankDetails ?? {}).length,
    0,
  )
  const total = Object.values(counts).reduce((a, b) => a + b, 0) + bank
  if (total > MAX_IMPORTED_ENTRIES)
    throw new CliError(
      `${file} created ${total} objects: a world file holds at most ${MAX_IMPORTED_ENTRIES} entries (record a shorter session)`,
    )
  const asJson = values.output !== undefined && /\.json$/i.test(values.output)
  const text = asJson
    ? `${JSON.stringify(world, null, 2)}\n`
    : `# A Request Sandbox world file (its JSON Schema: fixtures/world.schema.json of the package)\n${(await import('yaml')).stringify(world)}`
  if (values.output) writeFileSync(values.output, text)
  else process.stdout.write(text)
  const summary = Object.entries(counts)
    .map(([section, n]) => `${n} ${section}`)
    .join(', ')
  // with -o the summary is the output; without, the file is, and the summary goes to stderr
  const line = `${summary || 'nothing to import'}${values.output ? ` written to ${values.output}` : ''}${skipped.length ? `\nleft out: ${skipped.join('; ')}` : ''}\n`
  if (values.output) process.stdout.write(line)
  else process.stderr.write(line)
  return EXIT.ok
}
