// request-sandbox fixtures <file>: loads a world file (JSON or YAML) into a key's world on a running sandbox
// (POST /__sandbox/fixtures) and prints what it created. `request-sandbox --fixtures <file>` does the same at start.
import { readFile } from 'node:fs/promises'
import { CliError, COMMON_EXIT_HELP, COMMON_HELP, EXIT, parseTool, SandboxClient } from './client.ts'

export const fixturesHelp = `request-sandbox fixtures <file>: load a world file into a key's world

  request-sandbox fixtures world.yaml --key my-key
  request-sandbox --fixtures world.yaml        (at start, into the key the file names with key:)
  request-sandbox fixtures import session.har -o world.yaml   (a recording's objects as a world file: import --help)

A world file (JSON or YAML; its JSON Schema is fixtures/world.schema.json of the package, which editors validate
with "$schema" or "# yaml-language-server: $schema=...") names payers (KYC state, bank details), client IDs,
webhooks, requests (paid: true or "40" pays them on the chain), payouts and secure payment links. Strings may hold
{{payers.ann.clientUserId}} (what an earlier entry created) and {{faker.person.firstName}} templates (the faker
methods a file may call and the bounds of a file: docs/cli-tools.md). A file past a bound answers 400 naming the path.

Options:
  --json              print the whole answer as JSON
${COMMON_HELP}

${COMMON_EXIT_HELP}
`

/** Reads a world file; a missing file is a usage error naming it. */
export async function readWorldFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    throw new CliError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      EXIT.usage,
    )
  }
}

/** The created entries as lines: `requests.paid  requestId=01… txHashes=0x…`. */
export function describeCreated(created: Record<string, Record<string, Record<string, unknown>>>): string {
  const lines: string[] = []
  for (const [section, entries] of Object.entries(created))
    for (const [name, fields] of Object.entries(entries))
      lines.push(
        `${`${section}.${name}`.padEnd(30)} ${Object.entries(fields)
          .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
          .join(' ')}`,
      )
  return lines.length ? `${lines.join('\n')}\n` : 'nothing to create\n'
}

export async function fixtures(args: string[]): Promise<number> {
  if (args[0] === 'import') return (await import('../verify/index.ts')).fixturesImport(args.slice(1))
  const { values, positionals } = parseTool(args, { json: { type: 'boolean' } }, 'fixtures')
  if (values.help) {
    process.stdout.write(fixturesHelp)
    return EXIT.ok
  }
  if (positionals.length !== 1) throw new CliError('fixtures takes one world file (see --help)', EXIT.usage)
  const client = new SandboxClient(values.base, values.key, 'fixtures')
  const text = await readWorldFile(positionals[0]!)
  const type = /\.ya?ml$/i.test(positionals[0]!) ? 'application/yaml' : 'application/json'
  const answer = await client.call<{ created: Record<string, Record<string, Record<string, unknown>>> }>(
    'POST',
    '/__sandbox/fixtures',
    text,
    type,
  )
  process.stdout.write(values.json ? `${JSON.stringify(answer, null, 2)}\n` : describeCreated(answer.created))
  return EXIT.ok
}

/** `request-sandbox --fixtures <file>`: loads the file into the key it names, on the sandbox just started. */
export async function loadAtStart(baseUrl: string, path: string): Promise<string> {
  const text = await readWorldFile(path)
  const yaml = await import('yaml')
  const key = (yaml.parse(text) as { key?: unknown } | null)?.key
  if (typeof key !== 'string' || !key)
    throw new CliError(`--fixtures ${path}: the file names no key (add "key: <api key>" to it)`, EXIT.usage)
  const client = new SandboxClient(baseUrl, key, 'fixtures')
  const answer = await client.call<{ created: Record<string, Record<string, Record<string, unknown>>> }>(
    'POST',
    '/__sandbox/fixtures',
    text,
    /\.ya?ml$/i.test(path) ? 'application/yaml' : 'application/json',
  )
  return `Fixtures ${path} loaded for key ${key}:\n${describeCreated(answer.created)}`
}
