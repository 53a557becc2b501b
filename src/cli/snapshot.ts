// request-sandbox snapshot save|load|ls|rm: a key's named snapshots on a running sandbox.
import { CliError, COMMON_EXIT_HELP, COMMON_HELP, EXIT, parseTool, SandboxClient } from './client.ts'

export const snapshotHelp = `request-sandbox snapshot: save and restore a key's state by name

  request-sandbox snapshot save before-payment --key my-key
  request-sandbox snapshot load before-payment --key my-key    (the key's requests, payments, payers, clock as then)
  request-sandbox snapshot ls --key my-key
  request-sandbox snapshot rm before-payment --key my-key

A snapshot holds every world of the key (its scenarios) and the block each chain was at; loading it puts the key's
objects back without touching other keys. With --state-dir the sandbox keeps them across restarts. A key keeps at
most 50 snapshots taking 64 MB together (the sandbox's --max-snapshots and --snapshot-key-mb raise them): past a
bound, or on a full disk, save answers 507 and keeps nothing.

Options:
  --json              print the answer as JSON
${COMMON_HELP}

${COMMON_EXIT_HELP}
`

interface Summary {
  name: string
  savedAt: string
  scenario: string
  worlds: { scenario: string; records: number }[]
  chains: { network: string; blockNumber: number }[]
}

const line = (s: Summary) =>
  `${s.name.padEnd(24)} ${s.savedAt} ${s.scenario} ${s.worlds.map((w) => `${w.scenario}:${w.records} records`).join(', ')}${s.chains.length ? ` ${s.chains.map((c) => `${c.network}@${c.blockNumber}`).join(', ')}` : ''}`

export async function snapshot(args: string[]): Promise<number> {
  const { values, positionals } = parseTool(args, { json: { type: 'boolean' } }, 'snapshot')
  if (values.help) {
    process.stdout.write(snapshotHelp)
    return EXIT.ok
  }
  const [command, name, ...extra] = positionals
  const needsName = command === 'save' || command === 'load' || command === 'rm'
  if (
    !command ||
    !['save', 'load', 'ls', 'rm'].includes(command) ||
    (needsName ? !name : name) ||
    extra.length
  )
    throw new CliError('snapshot takes save <name>, load <name>, ls or rm <name> (see --help)', EXIT.usage)
  const client = new SandboxClient(values.base, values.key, 'snapshot')
  const path = (suffix = '') => `/__sandbox/snapshots/${encodeURIComponent(name!)}${suffix}`
  const print = (value: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
  if (command === 'save') {
    const saved = await client.call<Summary>('POST', '/__sandbox/snapshots', { name })
    print(saved, `saved ${line(saved)}`)
  } else if (command === 'load') {
    const answer = await client.call<{ restored: Summary }>('POST', path('/restore'))
    print(answer, `restored ${line(answer.restored)}`)
  } else if (command === 'rm') {
    const answer = await client.call('DELETE', path())
    print(answer, `deleted ${name}`)
  } else {
    const { snapshots, damaged = [] } = await client.call<{
      snapshots: Summary[]
      damaged?: { name: string; problem: string }[]
    }>('GET', '/__sandbox/snapshots')
    print(snapshots, snapshots.length ? snapshots.map(line).join('\n') : 'no snapshots')
    // a snapshot whose file cannot be read back: named on stderr (the list itself stays what it was)
    for (const d of damaged)
      process.stderr.write(
        `snapshot ${d.name} is damaged: ${d.problem} (request-sandbox snapshot rm ${d.name})\n`,
      )
  }
  return EXIT.ok
}
