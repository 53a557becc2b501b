// An MCP client of the sandbox (the SDK's own Client) and what the tests read of its tools' answers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'

export interface ToolAnswer {
  isError: boolean
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: a tool's JSON as the tests read it
  json: any
}

export async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'request-sandbox-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

/** Calls a tool; its text content, parsed when it is JSON. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { isError: result.isError === true, text, json }
}

/** Calls a tool that must succeed. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const answer = await call(client, name, args)
  if (answer.isError) throw new Error(`${name} failed: ${answer.text}`)
  return answer.json
}

export const TOOLS = [
  'advance_clock',
  'choose_scenario',
  'create_payment_link',
  'create_payout',
  'create_request',
  'get',
  'list_scenarios',
  'list_snapshots',
  'list_webhook_deliveries',
  'pay',
  'register_webhook',
  'reset',
  'restore_snapshot',
  'save_snapshot',
  'tail_calls',
  'trigger_event',
]
