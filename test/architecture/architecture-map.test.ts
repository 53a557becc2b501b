// ARCHITECTURE.md names only files that exist: a path from the repository's root, or a file name (or the end of a
// path, `pay/tron.ts`) that some file of the tree has, as a room's row names its files.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const folders = ['src', 'test', 'scripts', 'bench', 'bin', 'fixtures', 'scenarios', 'contracts', 'docs']
/** Files the sandbox writes in a state dir: named in the map, not in the tree. */
const written = new Set(['claims.json'])

const tree = [
  ...readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name),
  ...folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1)),
  ),
]

/** The backticked file names of `text` that no file of `files` is. */
function missing(text: string, files: string[]): string[] {
  const names = [...text.matchAll(/`([\w./-]+\.(?:ts|mjs|json|sol))`/g)].map((m) => m[1]!)
  return [...new Set(names)].filter(
    (name) =>
      !written.has(name) &&
      !files.some((file) => file === name || (!/^\w+\/.*\//.test(name) && file.endsWith(`/${name}`))),
  )
}

describe('ARCHITECTURE.md', () => {
  it('reads the tree', () => {
    expect(tree).toContain('src/cli.ts')
    expect(tree.length).toBeGreaterThan(500)
  })

  it('names only files that exist', () => {
    expect(missing(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'), tree)).toEqual([])
  })

  it('refuses a file that is gone, by its path or its name (the check above can fail)', () => {
    const files = ['src/tron/index.ts', 'src/resources/pay/tron.ts']
    expect(missing('`index.ts`, `pay/tron.ts`, `src/tron/index.ts`, `claims.json`', files)).toEqual([])
    expect(missing('`gone.ts`, `src/gone/tron.ts`, `pay/gone.ts`, `src/index.ts`', files)).toEqual([
      'gone.ts',
      'src/gone/tron.ts',
      'pay/gone.ts',
      'src/index.ts',
    ])
  })
})
