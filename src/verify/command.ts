// `request-sandbox verify`: runs the catalogue against a real service and a sandbox (started in-process, or
// --sandbox <url>), prints the report, writes it as Markdown and JSON, and exits 1 when anything differs.
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CliError, EXIT } from '../cli/client.ts'
import { FLOWS, selectFlows } from './catalogue.ts'
import { type Mask, parseMask } from './masks.ts'
import { Recorder } from './recording.ts'
import { replaySource } from './replay.ts'
import { jsonReport, markdownReport, textReport } from './report.ts'
import { type Credentials, type Inputs, plannedCalls, runVerify, type Side } from './run.ts'
import { httpTarget, paced } from './targets.ts'

export const VERIFY_HELP = `request-sandbox verify --against <base-url> (--key <key> | --client-id <id> --origin <origin>) [options]

Runs a catalogue of safe flows against a real Request Network API and against a sandbox, and reports where their
answers differ: status codes, error shapes and messages, fields and their types at every path, enum values, id and
hash formats, the headers clients read. Volatile values (ids, hashes, timestamps, amounts) are compared by format.
What it creates on the real service: docs/verify.md (--dry-run lists every call).

  --against <url>     the real service (https://api.request.network, or the staging one)
  --key <key>         your API key for it (env REQUEST_NETWORK_API_KEY); never written to a report
  --client-id <id>    or a client ID for it, with --origin, an origin it allows (flows needing a key are skipped)
  --origin <origin>
  --sandbox <url>     a running sandbox to compare with (default: one started in this process)
  --sandbox-key <k>   the sandbox's API key (default: a fresh one, a world of its own)
  --no-chain          start the in-process sandbox without its chain
  --only <a,b>        run only these flows; --skip <a,b> all but these (repeatable)
  --skip <a,b>
  --ignore <mask>     hide differences at a JSON path ($.field, $.list[*].field, $..field), "header <name>" or
                      "status", optionally after an operation ("GET /v2/currencies $[*].name"); repeatable
  --payee <address>   the payee of the requests and links the flows create (default 0x000000000000000000000000000000000000dEaD)
  --webhook-url <url> the webhooks flow registers (and deletes) a webhook to this URL; skipped without it
  --rate <n>          calls a second to the real service (default 4: under its documented 5 a second)
  --report <file>     also write the report as <file>.md and <file>.json
  --record <dir>      save both sides of every call as HAR 1.2: <dir>/real.har and <dir>/sandbox.har (credentials
                      masked: docs/verify.md)
  --replay <har|dir>  compare a recording (a .har file, or a directory with real.har) with the sandbox, offline:
                      no --against and no credentials; the recording's flows and inputs are replayed
  --dry-run           list the calls each flow would make, and what it leaves on the service; call nothing
  -h, --help          this text

Flows: ${FLOWS.map((f) => f.id).join(', ')}

Exit codes: 0 no difference; 1 a difference, or a side could not be reached; 2 a usage error.
`

const options = {
  against: { type: 'string' },
  key: { type: 'string' },
  'client-id': { type: 'string' },
  origin: { type: 'string' },
  sandbox: { type: 'string' },
  'sandbox-key': { type: 'string' },
  'no-chain': { type: 'boolean' },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
  payee: { type: 'string' },
  'webhook-url': { type: 'string' },
  rate: { type: 'string' },
  report: { type: 'string' },
  'dry-run': { type: 'boolean' },
  record: { type: 'string' },
  replay: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const usage = (message: string) => new CliError(`${message} (see request-sandbox verify --help)`, EXIT.usage)

function parse(args: string[]) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values
  } catch (error) {
    throw usage((error as Error).message.split('\n')[0]!)
  }
}

const httpUrl = (flag: string, value: string): string => {
  if (!/^https?:\/\/[^\s@]+$/.test(value) || !URL.canParse(value))
    throw usage(`invalid ${flag} ${JSON.stringify(value)}: an http:// or https:// URL without credentials`)
  return value.replace(/\/+$/, '')
}

const list = (values: string[] | undefined): string[] | undefined =>
  values?.flatMap((v) => v.split(',').map((x) => x.trim())).filter(Boolean)

/** The real side's credentials: a key, or a client ID with its origin. */
function realCredentials(values: ReturnType<typeof parse>, dryRun: boolean): Credentials {
  const key = values.key ?? process.env.REQUEST_NETWORK_API_KEY
  if (values['client-id'] !== undefined) {
    if (key !== undefined && values.key !== undefined) throw usage('give --key or --client-id, not both')
    if (!values.origin) throw usage('--client-id needs --origin, an origin the client ID allows')
    return { clientId: values['client-id'], origin: new URL(httpUrl('--origin', values.origin)).origin }
  }
  if (key) return { apiKey: key }
  if (dryRun) return { apiKey: '(your key)' }
  throw usage(
    'verify needs your credentials for the service: --key (or REQUEST_NETWORK_API_KEY), or --client-id and --origin',
  )
}

/** Writes `<file>.md` and `<file>.json` (a file named .md or .json gets its twin beside it). */
function reportFiles(file: string): { md: string; json: string } {
  const stem = file.replace(/\.(md|json)$/i, '')
  return { md: `${stem}.md`, json: `${stem}.json` }
}

/** Sandbox credentials in the real side's mode: a client ID made on the sandbox for the same origin. */
async function sandboxCredentials(
  side: Side['target'],
  key: string,
  real: Credentials,
): Promise<Credentials> {
  if ('apiKey' in real) return { apiKey: key }
  const response = await side({
    method: 'POST',
    url: '/v2/client-ids',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ label: 'request-sandbox verify', allowedDomains: [real.origin] }),
  })
  let clientId: unknown
  try {
    clientId = (JSON.parse(response.body) as { clientId?: unknown } | null)?.clientId
  } catch {
    // not JSON: refused below with what the sandbox answered
  }
  if (response.status !== 201 || typeof clientId !== 'string')
    throw new CliError(
      `the sandbox refused a client ID for ${real.origin}: ${response.status} ${response.body}`,
    )
  return { clientId, origin: real.origin }
}

/** The recording `--replay` names, or a usage error saying why it cannot be read. */
function readReplay(path: string) {
  try {
    return replaySource(path, FLOWS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw usage(`cannot replay ${path}: ${code ?? (error as Error).message}`)
  }
}

/** A recorder of both sides, masking every credential either side was given. */
function recorderFor(
  real: Side,
  sandbox: Side,
  realBase: string,
  sandboxBase: string,
  inputs: Inputs,
): Recorder {
  const meta = (side: Side, base: string, which: 'real' | 'sandbox') => ({
    side: which,
    base,
    credentials: 'apiKey' in side.credentials ? ('api-key' as const) : ('client-id' as const),
    ...('origin' in side.credentials ? { origin: side.credentials.origin } : {}),
    inputs: { ...inputs },
  })
  const secrets = [real, sandbox].flatMap((side) =>
    'apiKey' in side.credentials ? [side.credentials.apiKey] : [side.credentials.clientId],
  )
  return new Recorder(
    { real: meta(real, realBase, 'real'), sandbox: meta(sandbox, sandboxBase, 'sandbox') },
    secrets,
  )
}

/** Runs the command; answers its exit code. */
export async function verify(args: string[]): Promise<number> {
  const values = parse(args)
  if (values.help) {
    process.stdout.write(VERIFY_HELP)
    return EXIT.ok
  }
  const dryRun = Boolean(values['dry-run'])
  if (values.replay && (values.against || values.key || values['client-id']))
    throw usage('--replay compares a recording: give no --against, --key or --client-id with it')
  const replay = values.replay ? readReplay(values.replay) : undefined
  const credentials = replay ? replay.real.credentials : realCredentials(values, dryRun)
  const payee = values.payee ?? '0x000000000000000000000000000000000000dEaD'
  if (!/^0x[0-9a-fA-F]{40}$/.test(payee)) throw usage(`invalid --payee ${JSON.stringify(payee)}: an address`)
  const inputs: Inputs = replay?.inputs ?? {
    payee,
    run: randomBytes(4).toString('hex'),
    ...(values['webhook-url'] ? { webhookUrl: httpUrl('--webhook-url', values['webhook-url']) } : {}),
  }
  const catalogue = replay?.flows ?? FLOWS
  const selected = selectFlows(catalogue, list(values.only), list(values.skip))
  if (selected.unknown.length)
    throw usage(
      `unknown flow ${selected.unknown.join(', ')}: one of ${catalogue.map((f) => f.id).join(', ')}${replay ? ' (the flows of the recording)' : ''}`,
    )
  let masks: Mask[]
  try {
    masks = (values.ignore ?? []).map(parseMask)
  } catch (error) {
    throw usage((error as Error).message)
  }
  if (dryRun) {
    process.stdout.write(`${plannedCalls(selected.flows, credentials, inputs).join('\n')}\n`)
    return EXIT.ok
  }
  const rate = Number(values.rate ?? 4)
  if (!(Number.isFinite(rate) && rate > 0 && rate <= 100))
    throw usage(`invalid --rate ${JSON.stringify(values.rate)}: calls a second, above 0, at most 100`)
  if (!values.against && !replay) throw usage('verify needs --against <base-url>, the real service')
  const against = values.against ? httpUrl('--against', values.against) : undefined
  const host = against ? new URL(against).hostname : undefined
  if (against?.startsWith('http:') && !/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(host!))
    throw usage(
      `--against ${against} would send your credentials unencrypted: use https:// (http:// only to a loopback address)`,
    )
  let stop: (() => Promise<void>) | undefined
  try {
    let sandboxUrl: string
    if (values.sandbox) sandboxUrl = httpUrl('--sandbox', values.sandbox)
    else {
      const { startServer } = await import('../index.ts')
      const server = await startServer({ port: 0, ...(values['no-chain'] ? { chain: false } : {}) })
      stop = () => server.close()
      sandboxUrl = server.url
    }
    const sandboxTarget = httpTarget(sandboxUrl)
    const sandboxKey = values['sandbox-key'] ?? `rn_verify_${randomBytes(8).toString('hex')}`
    const sandboxSide: Side = {
      label: values.sandbox ? sandboxUrl : 'started in-process',
      target: sandboxTarget,
      credentials: await sandboxCredentials(sandboxTarget, sandboxKey, credentials),
    }
    const real: Side = replay?.real ?? {
      label: against!,
      target: paced(httpTarget(against!), rate),
      credentials,
    }
    const recorder = values.record
      ? recorderFor(real, sandboxSide, against ?? 'http://recording.invalid', sandboxUrl, inputs)
      : undefined
    const report = await runVerify({
      flows: selected.flows,
      real,
      sandbox: sandboxSide,
      inputs,
      masks,
      ...(recorder ? { onExchange: recorder.add } : {}),
    })
    if (replay) {
      const counted = report.differences.filter(replay.counts)
      report.masked += report.differences.length - counted.length
      report.differences = counted
    }
    if (recorder && values.record)
      process.stdout.write(`recorded ${recorder.write(values.record).join(' and ')}\n`)
    process.stdout.write(textReport(report))
    if (values.report) {
      const files = reportFiles(values.report)
      writeFileSync(files.md, markdownReport(report))
      writeFileSync(files.json, jsonReport(report))
      process.stdout.write(`report written to ${files.md} and ${files.json}\n`)
    }
    return report.differences.length === 0 && report.failures.length === 0 ? EXIT.ok : EXIT.failed
  } finally {
    await stop?.()
  }
}
