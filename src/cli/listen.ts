// request-sandbox listen --forward-to <url>: the key's webhook deliveries, pulled from the sandbox over a stream
// (GET /__sandbox/webhooks/listen), so it works when the sandbox cannot reach the app (the app on a laptop, the
// sandbox on a server or in Docker). Each delivery is posted to the app signed with this machine's listen secret
// (the same run after run; --print-secret prints it), and the app's answer is reported back to the sandbox, which
// records it as the attempt's (and retries a failed one as it retries any receiver).
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { signWebhook } from '../webhooks/index.ts'
import { CliError, COMMON_EXIT_HELP, COMMON_HELP, EXIT, parseTool, SandboxClient } from './client.ts'
import { readEventStream, untilInterrupted } from './sse.ts'

export const listenHelp = `request-sandbox listen: forward a running sandbox's webhook deliveries to a local URL

  request-sandbox listen --key my-key --forward-to http://localhost:3000/webhooks
  request-sandbox listen --key my-key --events payment.confirmed,payment.partial --forward-to http://localhost:3000/hook
  export WEBHOOK_SECRET=$(request-sandbox listen --key my-key --print-secret)   # for the app, in CI

The deliveries are pulled from the sandbox (it never connects to your app), posted with the headers the sandbox
sends (x-request-network-delivery, -retry-count, -test) and x-request-network-signature made with this machine's
listen secret for the key: generated once, kept in $XDG_CONFIG_HOME/request-sandbox/listen-secrets.json (or
~/.config/...), the same on every run. One line per delivery with your app's status. Runs until interrupted.

Options:
  --forward-to <url>  where to POST each delivery (http:// or https://)
  --events <a,b>      only these event types (default: all)
  --print-secret      print the listen secret (64 hex) and exit
  --secret <hex>      sign with this secret instead (env SANDBOX_LISTEN_SECRET)
  --json              one JSON object per delivery: event, delivery id, status, duration
  -q, --quiet         no status lines on stderr (ready, reconnecting)
${COMMON_HELP}

${COMMON_EXIT_HELP}
`

interface Attempt {
  attemptId: string
  deliveryId: string
  event: string
  retryCount: number
  headers: Record<string, string>
  body: string
}

function secretsFile(): string {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'request-sandbox', 'listen-secrets.json')
}

/** The listen secret of a key on this machine (created on first use; the file is readable by its owner only). */
export function listenSecret(key: string): string {
  const file = secretsFile()
  let secrets: Record<string, string> = {}
  try {
    secrets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>
  } catch {}
  const existing = secrets[key]
  if (existing && /^[0-9a-f]{64}$/.test(existing)) return existing
  const secret = randomBytes(32).toString('hex')
  secrets[key] = secret
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return secret
}

export async function listen(args: string[]): Promise<number> {
  const { values, positionals } = parseTool(
    args,
    {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'print-secret': { type: 'boolean' },
      secret: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    },
    'listen',
  )
  if (values.help) {
    process.stdout.write(listenHelp)
    return EXIT.ok
  }
  if (positionals.length)
    throw new CliError(`listen takes no argument ${positionals[0]} (see --help)`, EXIT.usage)
  const client = new SandboxClient(values.base, values.key, 'listen')
  const given = values.secret ?? (process.env.SANDBOX_LISTEN_SECRET || undefined)
  if (given !== undefined && given.length === 0) throw new CliError('--secret is empty', EXIT.usage)
  const secret = given ?? listenSecret(client.key)
  if (values['print-secret']) {
    process.stdout.write(`${secret}\n`)
    return EXIT.ok
  }
  const target = values['forward-to']
  if (!target) throw new CliError('listen needs --forward-to <url> (or --print-secret)', EXIT.usage)
  if (!/^https?:\/\/[^\s]+$/.test(target))
    throw new CliError(
      `invalid --forward-to ${JSON.stringify(target)}: an http:// or https:// URL`,
      EXIT.usage,
    )
  const say = (line: string) => {
    if (!values.quiet) process.stderr.write(line)
  }
  const query = values.events ? `?events=${encodeURIComponent(values.events)}` : ''
  const signal = untilInterrupted()
  const forward = async (attempt: Attempt) => {
    const started = Date.now()
    const headers = { ...attempt.headers, 'x-request-network-signature': signWebhook(attempt.body, secret) }
    let answer: { status: number | null; headers?: Record<string, string>; body?: string; error?: string }
    try {
      // within the sandbox's 5 s attempt timeout, so the answer reaches it in time
      const response = await fetch(target, {
        method: 'POST',
        headers,
        body: attempt.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(4_000),
      })
      const text = await response.text().catch(() => '')
      const answerHeaders: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        answerHeaders[name] = value
      })
      answer = { status: response.status, headers: answerHeaders, body: text.slice(0, 1024) }
    } catch (error) {
      const e = error as Error & { cause?: unknown }
      const cause = e.cause as { code?: string; message?: string } | undefined
      answer = {
        status: null,
        error:
          e.name === 'TimeoutError'
            ? 'timed out after 4000 ms'
            : (cause?.code ?? cause?.message ?? e.message),
      }
    }
    const durationMs = Date.now() - started
    await client
      .call('POST', `/__sandbox/webhooks/listen/answers/${attempt.attemptId}`, answer)
      .catch((error: Error) => say(`could not report the answer: ${error.message}\n`))
    const line = values.json
      ? JSON.stringify({
          event: attempt.event,
          deliveryId: attempt.deliveryId,
          retryCount: attempt.retryCount,
          status: answer.status,
          ...(answer.error ? { error: answer.error } : {}),
          durationMs,
        })
      : `${new Date().toISOString().slice(11, 23)} ${attempt.event} ${attempt.deliveryId}${attempt.retryCount ? ` retry=${attempt.retryCount}` : ''} -> [${answer.status ?? answer.error}] POST ${target} (${durationMs} ms)`
    process.stdout.write(`${line}\n`)
  }
  await readEventStream(
    `${client.base}/__sandbox/webhooks/listen${query}`,
    client.headers(),
    (message) => {
      if (message.event === 'ready') {
        say(
          `Ready: forwarding ${values.events ?? 'every event'} of key ${client.key} to ${target} (Ctrl-C to stop)\n`,
        )
        return
      }
      // each delivery on its own: a slow app does not hold up the next one
      if (message.event === 'delivery') void forward(JSON.parse(message.data) as Attempt)
    },
    { signal, onDrop: (reason) => say(`stream dropped (${reason}); reconnecting\n`) },
  )
  return EXIT.ok
}
