// docs/server-options.md is the operator's list of the command's options: each option of src/cli.ts has its row
// there, and each row names an option the command takes.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const cli = readFileSync(new URL('../../src/cli.ts', import.meta.url), 'utf8')
const docs = readFileSync(new URL('../../docs/server-options.md', import.meta.url), 'utf8')

/** The options the command parses (the `options` table of src/cli.ts). */
const options = [
  ...cli
    .slice(cli.indexOf('const options = {'), cli.indexOf('} as const'))
    .matchAll(/^\s+'?([a-z-]+)'?: \{ type:/gm),
].map((m) => `--${m[1]}`)

/** The options the table of docs/server-options.md names in its first column. */
const rows = docs
  .split('\n')
  .filter((line) => line.startsWith('| `-'))
  .flatMap((line) => [...line.split('|')[1]!.matchAll(/`(--[a-z-]+)/g)].map((m) => m[1]!))

describe('docs/server-options.md', () => {
  it('has a row for every option of the command, and no row for an option it does not take', () => {
    expect(options.length).toBeGreaterThan(30)
    expect(options.filter((flag) => !rows.includes(flag))).toEqual([])
    expect(rows.filter((flag) => !options.includes(flag))).toEqual([])
  })
})
