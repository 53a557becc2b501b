// The image serves what a checkout serves: every folder outside src/ the server reads at run time (through a URL
// built from its own import.meta.url: fixtures, scenarios, the guides of /llms.txt in docs/, package.json) is copied
// into the Dockerfile's runtime stage. A folder left out answers 500 only in the container (/llms.txt did).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'ui' ? [] : sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The top-level entries (folders or files) outside src/ that the server's code reads beside itself. */
function readAtRunTime(): Set<string> {
  const read = new Set<string>()
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8')
    for (const [, path] of text.matchAll(/new URL\(\s*['`](\.\.?\/[^'`$]*)/g)) {
      const target = relative(root, resolve(dirname(file), path!))
      const top = target.split('/')[0]!
      if (top && top !== 'src' && !top.startsWith('..')) read.add(top)
    }
  }
  return read
}

it('copies into the runtime stage every folder the server reads beside its code (docs/ included)', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))
  const copied = new Set(
    [...runtime.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((m) =>
      m[1]!
        .trim()
        .split(/\s+/)
        .slice(0, -1)
        .map((p) => p.replace(/^\.\//, '').replace(/\/$/, '')),
    ),
  )
  const read = readAtRunTime()
  expect([...read]).toEqual(expect.arrayContaining(['docs', 'fixtures', 'scenarios']))
  expect([...read].filter((entry) => !copied.has(entry))).toEqual([])
})
