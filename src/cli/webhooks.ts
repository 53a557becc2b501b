// request-sandbox webhooks chaos|deliveries|redeliver: a key's webhook chaos rules, its deliveries with the
// receivers' answers, and redelivery, over the control API.
import { CliError, COMMON_EXIT_HELP, COMMON_HELP, EXIT, parseTool, SandboxClient } from './client.ts'

export const webhooksHelp = `request-sandbox webhooks: chaos rules, deliveries and redelivery of a key's webhooks

  request-sandbox webhooks chaos --key my-key --rule payment.confirmed=duplicate --rule '*=delay:3000'
  request-sandbox webhooks chaos --key my-key            (shows the rules)
  request-sandbox webhooks chaos --key my-key --clear
  request-sandbox webhooks deliveries --key my-key       (each with its attempts and the receiver's answers)
  request-sandbox webhooks redeliver <deliveryId> --key my-key

Chaos rules apply to the deliveries of the key's world (its current scenario), first matching rule first:
  <events>=<action>   events: a comma list of event types, or *; action: duplicate, drop, delay[:ms],
                      reorder[:ms] (held until the next delivery, at most ms), fail[:status] (the first attempt
                      is answered with it without being sent; the retries go out)
For one call's events only, send the header x-sandbox-webhook-chaos: <action>[:n] with that API call.

Options:
  --rule <r>          a rule (repeatable); replaces the key's rules
  --clear             removes every rule
  --limit <n>         deliveries: only the n newest (default 20)
  --json              print the answer as JSON
${COMMON_HELP}

${COMMON_EXIT_HELP}
`

interface Rule {
  events: string[]
  action: string
  delayMs?: number
  status?: number
}

/** Parses `events=action[:n]`. */
export function parseRule(text: string): Rule {
  const match = /^([\w.*,-]+)=(duplicate|drop|delay|reorder|fail)(?::(\d+))?$/.exec(text.trim())
  if (!match)
    throw new CliError(
      `invalid --rule ${JSON.stringify(text)}: <events>=<action>[:n], e.g. payment.confirmed=duplicate or '*=fail:503'`,
      EXIT.usage,
    )
  const [, events, action, n] = match
  return {
    events: events!.split(',').filter(Boolean),
    action: action!,
    ...(n !== undefined && action === 'fail' ? { status: Number(n) } : {}),
    ...(n !== undefined && (action === 'delay' || action === 'reorder') ? { delayMs: Number(n) } : {}),
  }
}

function describeRule(rule: Rule): string {
  const n = rule.delayMs ?? rule.status
  return `${rule.events.join(',')}=${rule.action}${n !== undefined ? `:${n}` : ''}`
}

interface Attempt {
  retryCount: number
  at: string
  status: number | null
  error: string | null
  durationMs: number
  response?: { headers: Record<string, string>; body: string }
}

interface Delivery {
  id: string
  event: string
  url: string
  state: string
  chaos?: string
  attempts: Attempt[]
}

export async function webhooks(args: string[]): Promise<number> {
  const { values, positionals } = parseTool(
    args,
    {
      rule: { type: 'string', multiple: true },
      clear: { type: 'boolean' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    'webhooks',
  )
  if (values.help) {
    process.stdout.write(webhooksHelp)
    return EXIT.ok
  }
  const [command, ...rest] = positionals
  const print = (value: unknown, text: () => string) =>
    process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : text())
  if (command === 'chaos') {
    const client = new SandboxClient(values.base, values.key, 'webhooks')
    const rules = (values.rule ?? []).map(parseRule)
    const answer =
      rules.length || values.clear
        ? await client.call<{ rules: Rule[] }>('PUT', '/__sandbox/webhooks/chaos', { rules })
        : await client.call<{ rules: Rule[] }>('GET', '/__sandbox/webhooks/chaos')
    print(answer, () =>
      answer.rules.length ? `${answer.rules.map(describeRule).join('\n')}\n` : 'no chaos rules\n',
    )
    return EXIT.ok
  }
  if (command === 'deliveries') {
    const client = new SandboxClient(values.base, values.key, 'webhooks')
    const limit = values.limit === undefined ? 20 : Number(values.limit)
    if (!(Number.isInteger(limit) && limit > 0))
      throw new CliError(
        `invalid --limit ${JSON.stringify(values.limit)}: a whole number above 0`,
        EXIT.usage,
      )
    const list = (await client.call<Delivery[]>('GET', '/__sandbox/webhooks/deliveries')).slice(0, limit)
    print(list, () =>
      list
        .map((d) => {
          const head = `${d.id} ${d.event} -> ${d.url} ${d.state}${d.chaos ? ` (chaos: ${d.chaos})` : ''}`
          const attempts = d.attempts.map(
            (a) =>
              `  #${a.retryCount} ${a.at} ${a.status ?? a.error} ${a.durationMs}ms${a.response ? ` ${JSON.stringify(a.response.body.slice(0, 80))}` : a.error && a.status !== null ? ` ${a.error}` : ''}`,
          )
          return `${[head, ...attempts].join('\n')}\n`
        })
        .join(''),
    )
    return EXIT.ok
  }
  if (command === 'redeliver') {
    const id = rest[0]
    if (!id || rest.length > 1)
      throw new CliError(
        'redeliver takes one delivery id: request-sandbox webhooks redeliver <id>',
        EXIT.usage,
      )
    const client = new SandboxClient(values.base, values.key, 'webhooks')
    const answer = await client.call<Delivery>(
      'POST',
      `/__sandbox/webhooks/${encodeURIComponent(id)}/redeliver`,
    )
    print(answer, () => `redelivering ${answer.id} (${answer.event}) to ${answer.url}\n`)
    return EXIT.ok
  }
  throw new CliError('webhooks takes chaos, deliveries or redeliver (see --help)', EXIT.usage)
}
