// Writes fixtures/world.schema.json, the JSON Schema of world files, from the zod schema the sandbox validates them
// with (src/control/fixtures/world-file.ts). `npx tsx scripts/world-schema.ts --write`; a test holds the two equal.
import { readFileSync, writeFileSync } from 'node:fs'
import { worldFileJsonSchema } from '../src/control/fixtures/world-file.ts'

export const SCHEMA_PATH = new URL('../fixtures/world.schema.json', import.meta.url)

export function renderWorldSchema(): string {
  return `${JSON.stringify(worldFileJsonSchema(), null, 2)}\n`
}

if (process.argv.includes('--write')) writeFileSync(SCHEMA_PATH, renderWorldSchema())
else if (process.argv[1]?.endsWith('world-schema.ts'))
  process.stdout.write(readFileSync(SCHEMA_PATH, 'utf8') === renderWorldSchema() ? 'up to date\n' : 'stale\n')
