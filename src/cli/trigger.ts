// request-sandbox trigger <event>: makes an event happen for real on a running sandbox (POST /__sandbox/trigger)
// and prints the objects it made and the events that followed.
import {
  CliError,
  COMMON_EXIT_HELP,
  COMMON_HELP,
  EXIT,
  parseOverrides,
  parseTool,
  SandboxClient,
} from './client.ts'

export const triggerHelp = `request-sandbox trigger <event>: make an event happen for real, with the objects behind it

  request-sandbox trigger payment.confirmed --key my-key
  request-sandbox trigger payment.partial --key my-key --override amount=250
  request-sandbox trigger payment.confirmed --key my-key --request 01ab…   (pays an existing request)

Options:
  --list              the events it can trigger, with what each creates (needs no --key)
  --override <p=v>    sets a field of what it creates (dot path; repeatable): amount=25, reference=INV-7,
                      invoiceCurrency=USD, recurrence.frequency=WEEKLY (true/false/null/{...}/[...] as JSON)
  --request <id>      payment events: pay this existing request instead of creating one
  --payer <id>        compliance and bank-detail events: this payer (clientUserId) instead of a new one
  --json              print the whole answer as JSON
${COMMON_HELP}

${COMMON_EXIT_HELP}
`

interface TriggerAnswer {
  event: string
  objects: Record<string, unknown>
  events: { id: string; type: string; at: string; payload: Record<string, unknown> }[]
}

/** The events as two columns, the descriptions lined up after the longest event name. */
export function listText(triggers: { event: string; description: string }[]): string {
  const width = Math.max(0, ...triggers.map((t) => t.event.length)) + 2
  return triggers.map((t) => `${t.event.padEnd(width)}${t.description}\n`).join('')
}

export async function trigger(args: string[]): Promise<number> {
  const { values, positionals } = parseTool(
    args,
    {
      list: { type: 'boolean' },
      override: { type: 'string', multiple: true },
      request: { type: 'string' },
      payer: { type: 'string' },
      json: { type: 'boolean' },
    },
    'trigger',
  )
  if (values.help) {
    process.stdout.write(triggerHelp)
    return EXIT.ok
  }
  // the list is the same for every key and in no world: it needs none
  const client = new SandboxClient(values.base, values.key, 'trigger', { keyless: values.list === true })
  if (values.list) {
    const { triggers } = await client.call<{
      triggers: { event: string; emits: string[]; description: string }[]
    }>('GET', '/__sandbox/triggers')
    if (values.json) process.stdout.write(`${JSON.stringify(triggers, null, 2)}\n`)
    else process.stdout.write(listText(triggers))
    return EXIT.ok
  }
  const event = positionals[0]
  if (!event || positionals.length > 1)
    throw new CliError(
      'trigger takes one event: request-sandbox trigger <event> (--list shows them)',
      EXIT.usage,
    )
  const answer = await client.call<TriggerAnswer>('POST', '/__sandbox/trigger', {
    event,
    overrides: parseOverrides(values.override, 'trigger'),
    ...(values.request ? { requestId: values.request } : {}),
    ...(values.payer ? { clientUserId: values.payer } : {}),
  })
  if (values.json) {
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`)
    return EXIT.ok
  }
  process.stdout.write(`Triggered ${answer.event}\n`)
  for (const [name, value] of Object.entries(answer.objects))
    process.stdout.write(`  ${name.padEnd(18)} ${Array.isArray(value) ? value.join(', ') : String(value)}\n`)
  for (const e of answer.events) {
    const subject = e.payload.requestId ?? e.payload.clientUserId ?? e.payload.paymentDetailsId ?? ''
    const sub = e.payload.subStatus ? ` ${String(e.payload.subStatus)}` : ''
    process.stdout.write(`  event ${e.type}${sub} ${String(subject)} (${e.id})\n`)
  }
  return EXIT.ok
}
