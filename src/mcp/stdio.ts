// `request-sandbox mcp`: the MCP server on stdio, for an agent on the same machine. With --base it drives a running
// sandbox over HTTP as --key; without, it starts its own sandbox in the process (loopback, a free port: its dashboard
// and links work as the command's) and drives that. stdout is the protocol: everything else goes to stderr.
import { parseArgs } from 'node:util'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { fetchApi } from './api.ts'
import { buildMcpServer } from './tools.ts'
import { packageVersion } from './version.ts'

export const MCP_USAGE = `request-sandbox mcp: the sandbox's tools for a coding agent (Model Context Protocol, stdio)

  request-sandbox mcp                     starts its own sandbox (a free loopback port) and serves its tools
  request-sandbox mcp --base <url> --key <key>   drives a running sandbox as that key

Options:
  --base <url>     a running sandbox (env SANDBOX_URL); without it, one is started in this process
  --key <key>      the API key the tools act as (env SANDBOX_API_KEY; default mcp-agent)
  --networks <a,b> the own sandbox's networks (default sepolia)
  --state-dir <d>  the own sandbox keeps its state in this folder
  -h, --help       this text

Over HTTP, a running sandbox serves the same tools at <url>/mcp (the key in x-api-key). docs/mcp.md shows the
configuration of Claude Code, Cursor and VS Code.
`

/** What the command needs to start its own sandbox (src/server.ts's startServer, handed in by src/cli.ts). */
export type StartOwn = (options: {
  port: number
  networks?: string[]
  stateDir?: string
  networksOnUse: 'start'
  log: (message: string, error?: unknown) => void
}) => Promise<{ url: string; close(): Promise<void> }>

/** Runs the stdio server until its input closes; answers the exit code. */
export async function runMcpCommand(args: string[], startOwn: StartOwn): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      base: { type: 'string' },
      key: { type: 'string' },
      networks: { type: 'string' },
      'state-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stdout.write(MCP_USAGE)
    return 0
  }
  const key = values.key ?? process.env.SANDBOX_API_KEY ?? 'mcp-agent'
  let base = values.base ?? process.env.SANDBOX_URL
  let own: { url: string; close(): Promise<void> } | undefined
  if (base === undefined) {
    own = await startOwn({
      port: 0,
      networksOnUse: 'start',
      ...(values.networks ? { networks: values.networks.split(',').map((n) => n.trim()) } : {}),
      ...(values['state-dir'] ? { stateDir: values['state-dir'] } : {}),
      log: (message, error) => process.stderr.write(`request-sandbox mcp: ${message} ${error ?? ''}\n`),
    })
    base = own.url
    process.stderr.write(`request-sandbox mcp: own sandbox at ${base} (dashboard ${base}/), key ${key}\n`)
  } else if (!/^https?:\/\/[^\s]+$/.test(base)) {
    throw new Error(`invalid --base ${JSON.stringify(base)}: the sandbox's http:// or https:// URL`)
  }
  const server = buildMcpServer(fetchApi(base, key), packageVersion())
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
    process.stdin.once('end', () => resolve())
  })
  await server.connect(transport)
  await closed
  await server.close().catch(() => {})
  await own?.close()
  return 0
}
