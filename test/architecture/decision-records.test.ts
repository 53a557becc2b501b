// Every decision record under docs/decisions/ is dated, names the code it governs (files, and names in them), and that
// code exists; the index lists every record once; ARCHITECTURE.md stays a map (at most 300 lines).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const folder = join(root, 'docs', 'decisions')
const records = readdirSync(folder).filter((name) => /^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/.test(name))

/**
 * The `Date: ... Governs: ...` paragraph of a record (its first line to the next blank one): its date, the backticked
 * paths it names, and for each file path the backticked names in the parenthesis after it (`path` (`name`, …)).
 */
function governs(text: string): { date: string | undefined; paths: string[]; names: [string, string][] } {
  const lines = text.split('\n')
  const first = lines.findIndex((l) => /^Date: /.test(l))
  const end = lines.findIndex((l, i) => i > first && l.trim() === '')
  const paragraph = first < 0 ? '' : lines.slice(first, end < 0 ? undefined : end).join(' ')
  const date = /^Date: (\d{4}-\d{2}-\d{2})/.exec(paragraph)?.[1]
  const after = paragraph.split('Governs:')[1] ?? ''
  const paths: string[] = []
  const names: [string, string][] = []
  for (const m of after.matchAll(/`([^`\s]+)`(?:\s*\(([^()]*)\))?/g)) {
    const path = m[1]!.replace(/[:(].*$/, '')
    if (!/^(src|test|scripts|bench|docs|bin|contracts|fixtures|scenarios)\/|\.(ts|mjs|json|md)$/.test(path))
      continue
    paths.push(path)
    if (/\.(ts|mjs)$/.test(path))
      for (const n of (m[2] ?? '').matchAll(/`([^`]+)`/g))
        names.push([path, n[1]!.replace(/\(.*$/, '').replace(/^--/, '').split('.').pop()!])
  }
  return { date, paths, names }
}

describe('decision records', () => {
  it('finds the records', () => {
    expect(records.length).toBeGreaterThan(40)
  })

  it('dates each record and names the code it governs, which exists', () => {
    const problems: string[] = []
    for (const name of records) {
      const { date, paths, names } = governs(readFileSync(join(folder, name), 'utf8'))
      if (date !== name.slice(0, 10))
        problems.push(`${name}: its Date line does not give the date of its name`)
      if (paths.length === 0) problems.push(`${name}: names no code on its Governs line`)
      for (const path of paths)
        if (!existsSync(join(root, path.replace(/\*.*$/, '').replace(/\/$/, ''))))
          problems.push(`${name}: governs ${path}, which does not exist`)
      for (const [path, code] of names)
        if (existsSync(join(root, path)) && !readFileSync(join(root, path), 'utf8').includes(code))
          problems.push(`${name}: names ${code} in ${path}, which has no ${code}`)
    }
    expect(problems).toEqual([])
  })

  it('refuses a record whose code is gone or unnamed (the check above can fail)', () => {
    expect(governs('# X\n\nDate: 2026-12-06. Governs: `src/gone.ts`.\n').paths).toEqual(['src/gone.ts'])
    expect(existsSync(join(root, 'src/gone.ts'))).toBe(false)
    expect(governs('# X\n\nDate: 2026-12-06.\n').paths).toEqual([])
    // a Governs paragraph goes on past its first line, and names what it governs in a file
    const record =
      '# X\n\nDate: 2026-12-06. Governs: `src/a.ts`,\n`src/gone.ts` (`goneHook`, `--gone-flag`).\n\nBody `src/b.ts`.\n'
    expect(governs(record).paths).toEqual(['src/a.ts', 'src/gone.ts'])
    expect(governs(record).names).toEqual([
      ['src/gone.ts', 'goneHook'],
      ['src/gone.ts', 'gone-flag'],
    ])
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
