// request-sandbox logs tail: a key's API calls, events and webhook deliveries as they happen, read from the
// sandbox's journal stream (GET /__sandbox/stream).
import { CliError, COMMON_EXIT_HELP, COMMON_HELP, EXIT, parseTool, SandboxClient } from './client.ts'
import { readEventStream, untilInterrupted } from './sse.ts'

export const logsHelp = `request-sandbox logs tail: the calls and events of a running sandbox, as they happen

  request-sandbox logs tail --key my-key
  request-sandbox logs tail --key my-key --status 4xx,5xx --path /v2/request
  request-sandbox logs tail --key my-key --json | jq .

Runs until interrupted (Ctrl-C). One line per API call, event and webhook delivery attempt of the key.

Options:
  --status <s,..>     only calls (and delivery attempts) answered with these statuses: 404, 4xx, 5xx, ...
  --path <prefix>     only calls whose path starts with this (/v2/request)
  --type <t,..>       only these entries: call, event, delivery (default: all three)
  --json              one JSON object per line, the journal entry as GET /__sandbox/journal shows it
  --last <n>          first print the n latest entries already recorded (that pass the filters)
  --max <n>           end (exit 0) after printing n entries
  -q, --quiet         no status lines on stderr (started, reconnecting)
${COMMON_HELP}

${COMMON_EXIT_HELP}
`

interface Entry {
  type: 'call' | 'event' | 'delivery'
  id: string
  at: string
  scenario: string
  method?: string
  path?: string
  status?: number | null
  durationMs?: number
  fault?: string
  event?: string
  eventId?: string
  payload?: Record<string, unknown>
  url?: string
  retryCount?: number
  outcome?: string
  error?: string | null
  responseBody?: unknown
}

/** A status filter: exact codes and classes (4xx). */
function statusMatcher(spec: string | undefined): ((status: number | null | undefined) => boolean) | null {
  if (!spec) return null
  const parts = spec.split(',').map((p) => p.trim().toLowerCase())
  for (const p of parts)
    if (!/^[1-5](\d\d|xx)$/.test(p))
      throw new CliError(`invalid --status ${JSON.stringify(p)}: a status (404) or a class (4xx)`, EXIT.usage)
  return (status) =>
    status !== null &&
    status !== undefined &&
    parts.some((p) => (p.endsWith('xx') ? Math.floor(status / 100) === Number(p[0]) : status === Number(p)))
}

/** The line `logs tail` prints for an entry. */
export function formatEntry(entry: Entry): string {
  const time = entry.at.slice(11, 23)
  if (entry.type === 'call') {
    const message =
      entry.status !== undefined && entry.status !== null && entry.status >= 400
        ? ((entry.responseBody as { message?: unknown } | null)?.message ?? '')
        : ''
    return `${time} ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs}ms${entry.fault ? ` fault=${entry.fault}` : ''}${message ? ` ${typeof message === 'string' ? message : JSON.stringify(message)}` : ''}`
  }
  if (entry.type === 'event') {
    const p = entry.payload ?? {}
    const subject = p.requestId ?? p.clientUserId ?? ''
    return `${time} event ${entry.event}${p.subStatus ? ` ${String(p.subStatus)}` : ''} ${String(subject)} (${entry.eventId})`
  }
  return `${time} webhook ${entry.event} -> ${entry.url} ${entry.status ?? entry.error} retry=${entry.retryCount} ${entry.outcome}`
}

export async function logs(args: string[]): Promise<number> {
  const { values, positionals } = parseTool(
    args,
    {
      status: { type: 'string' },
      path: { type: 'string' },
      type: { type: 'string' },
      json: { type: 'boolean' },
      max: { type: 'string' },
      last: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    },
    'logs',
  )
  if (values.help) {
    process.stdout.write(logsHelp)
    return EXIT.ok
  }
  if (positionals[0] !== 'tail' || positionals.length > 1)
    throw new CliError('logs has one command: request-sandbox logs tail (see --help)', EXIT.usage)
  const client = new SandboxClient(values.base, values.key, 'logs')
  const status = statusMatcher(values.status)
  const types = values.type?.split(',').map((t) => t.trim())
  for (const t of types ?? [])
    if (!['call', 'event', 'delivery'].includes(t))
      throw new CliError(`invalid --type ${JSON.stringify(t)}: call, event or delivery`, EXIT.usage)
  const keep = (entry: Entry) => {
    if (types && !types.includes(entry.type)) return false
    if (values.path && !(entry.type === 'call' && entry.path?.startsWith(values.path))) return false
    if (status && !(entry.type !== 'event' && status(entry.status))) return false
    return true
  }
  const max = values.max === undefined ? Number.POSITIVE_INFINITY : Number(values.max)
  if (!(Number.isInteger(max) && max > 0) && max !== Number.POSITIVE_INFINITY)
    throw new CliError(`invalid --max ${JSON.stringify(values.max)}: a whole number above 0`, EXIT.usage)
  const last = values.last === undefined ? 0 : Number(values.last)
  if (!(Number.isInteger(last) && last >= 0))
    throw new CliError(`invalid --last ${JSON.stringify(values.last)}: a whole number`, EXIT.usage)
  const say = (line: string) => {
    if (!values.quiet) process.stderr.write(line)
  }
  let printed = 0
  const controller = new AbortController()
  const interrupted = untilInterrupted()
  interrupted.addEventListener('abort', () => controller.abort(), { once: true })
  const signal = controller.signal
  const seen = new Set<string>()
  const print = (entry: Entry) => {
    if (seen.has(entry.id) || !keep(entry) || printed >= max) return
    seen.add(entry.id)
    process.stdout.write(`${values.json ? JSON.stringify(entry) : formatEntry(entry)}\n`)
    if (++printed >= max) controller.abort()
  }
  await readEventStream(
    `${client.base}/__sandbox/stream`,
    client.headers(),
    async (message) => {
      if (message.event === 'ready') {
        say(`Tailing ${client.base} for key ${client.key} (Ctrl-C to stop)\n`)
        if (last > 0 && seen.size === 0) {
          // the stream is open: what is recorded from now on arrives on it; the backlog is read once
          const { entries } = await client.call<{ entries: Entry[] }>('GET', '/__sandbox/journal?limit=2000')
          for (const entry of entries.filter(keep).slice(0, last).reverse()) print(entry)
        }
        return
      }
      if (message.event === 'journal') print(JSON.parse(message.data) as Entry)
    },
    { signal, onDrop: (reason) => say(`stream dropped (${reason}); reconnecting\n`) },
  )
  return EXIT.ok
}
