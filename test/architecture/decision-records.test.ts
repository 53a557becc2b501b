// Every decision record under docs/decisions/ is dated, names the code it governs, and that code exists; the index
// lists every record once; ARCHITECTURE.md stays a map (at most 300 lines).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const folder = join(root, 'docs', 'decisions')
const records = readdirSync(folder).filter((name) => /^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/.test(name))

/** The `Date: ... Governs: ...` line of a record: its date and the backticked paths it names. */
function governs(text: string): { date: string | undefined; paths: string[] } {
  const line = text.split('\n').find((l) => /^Date: /.test(l)) ?? ''
  const date = /^Date: (\d{4}-\d{2}-\d{2})/.exec(line)?.[1]
  const after = line.split('Governs:')[1] ?? ''
  const paths = [...after.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/[:(].*$/, ''))
    .filter((p) =>
      /^(src|test|scripts|bench|docs|bin|contracts|fixtures|scenarios)\/|\.(ts|mjs|json|md)$/.test(p),
    )
  return { date, paths }
}

describe('decision records', () => {
  it('finds the records', () => {
    expect(records.length).toBeGreaterThan(40)
  })

  it('dates each record and names the code it governs, which exists', () => {
    const problems: string[] = []
    for (const name of records) {
      const { date, paths } = governs(readFileSync(join(folder, name), 'utf8'))
      if (date !== name.slice(0, 10))
        problems.push(`${name}: its Date line does not give the date of its name`)
      if (paths.length === 0) problems.push(`${name}: names no code on its Governs line`)
      for (const path of paths)
        if (!existsSync(join(root, path.replace(/\*.*$/, '').replace(/\/$/, ''))))
          problems.push(`${name}: governs ${path}, which does not exist`)
    }
    expect(problems).toEqual([])
  })

  it('refuses a record whose code is gone or unnamed (the check above can fail)', () => {
    expect(governs('# X\n\nDate: 2026-12-06. Governs: `src/gone.ts`.\n').paths).toEqual(['src/gone.ts'])
    expect(existsSync(join(root, 'src/gone.ts'))).toBe(false)
    expect(governs('# X\n\nDate: 2026-12-06.\n').paths).toEqual([])
  })

  it('indexes every record once in docs/decisions/README.md', () => {
    const index = readFileSync(join(folder, 'README.md'), 'utf8')
    const linked = [...index.matchAll(/\]\(\.?\/?([^)]+\.md)\)/g)].map((m) => m[1]!)
    expect([...linked].sort()).toEqual([...records].sort())
  })

  it('keeps ARCHITECTURE.md at most 300 lines', () => {
    const lines = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8').trimEnd().split('\n').length
    expect(lines).toBeLessThanOrEqual(300)
  })
})
