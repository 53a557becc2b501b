// request-sandbox sandbox create|show: claimable sandboxes of a shared server started with --claimable.
import { CliError, COMMON_EXIT_HELP, EXIT, parseTool, SandboxClient } from './client.ts'

export const sandboxHelp = `request-sandbox sandbox: a sandbox of your own on a shared server (one started with --claimable)

  request-sandbox sandbox create --base https://demo.example.com     a fresh key, its links and its expiry
  request-sandbox sandbox show <key> --base https://demo.example.com  its expiry, or that it expired

The key is secret: it is your sandbox's API key (x-api-key). When it expires (7 days by default, the server's
--sandbox-ttl) its state is deleted and the key answers 401.

Options:
  --json              print the answer as JSON
  --base <url>        the server (env SANDBOX_URL; default http://127.0.0.1:8080)
  -h, --help          this text

${COMMON_EXIT_HELP}
`

interface Claimed {
  key: string
  status: string
  createdAt: string
  expiresAt: string
  expiredAt?: string
  dashboardUrl?: string
  apiBaseUrl?: string
  mcpUrl?: string
}

export async function sandbox(args: string[]): Promise<number> {
  const { values, positionals } = parseTool(args, { json: { type: 'boolean' } }, 'sandbox')
  if (values.help) {
    process.stdout.write(sandboxHelp)
    return EXIT.ok
  }
  const [command, key, ...extra] = positionals
  const valid = (command === 'create' && !key) || (command === 'show' && Boolean(key))
  if (!valid || extra.length > 0)
    throw new CliError('sandbox takes create or show <key> (see --help)', EXIT.usage)
  const client = new SandboxClient(values.base, undefined, 'sandbox', { keyless: true })
  const answer =
    command === 'create'
      ? await client.call<Claimed>('POST', '/__sandbox/sandboxes')
      : await client.call<Claimed>('GET', `/__sandbox/sandboxes/${encodeURIComponent(key!)}`)
  if (values.json) {
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`)
    return EXIT.ok
  }
  const rows: [string, string | undefined][] = [
    ['key', answer.key],
    ['status', answer.status],
    ['expires', answer.expiresAt],
    ['expired', answer.expiredAt],
    ['dashboard', answer.dashboardUrl],
    ['API', answer.apiBaseUrl],
    ['MCP', answer.mcpUrl],
  ]
  process.stdout.write(
    `${rows
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k.padEnd(10)} ${v}`)
      .join('\n')}\n`,
  )
  return EXIT.ok
}
