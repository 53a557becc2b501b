// What a reader installs before running a guide's TypeScript or JavaScript sample: every package a sample imports
// (other than Node's own and request-sandbox, whose install the README's "Install" section says) is named by an
// `npm install …` in the same document's prose, and a document whose samples run with `npx tsx` says to install tsx
// (README.md "Your first paid request on the chain", docs/tron.md: the samples import tronweb and run with tsx).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

/** the package an import names: `@scope/name` or `name`, without a subpath */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

function read(file: string) {
  const markdown = readFileSync(join(root, file), 'utf8')
  const blocks = [...markdown.matchAll(/^```(ts|js)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    flags: m[2]!.trim(),
    code: m[3]!,
  }))
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '')
  /** the packages named by `npm install …` spans of the prose */
  const installed = new Set(
    [...prose.matchAll(/`npm (?:install|i)\b([^`]*)`/g)].flatMap((m) =>
      m[1]!.split(/\s+/).filter((word) => word && !word.startsWith('-')),
    ),
  )
  return { blocks, prose, installed }
}

describe('what the samples need installed is said beside them', () => {
  for (const file of documents) {
    const { blocks, prose, installed } = read(file)
    if (!blocks.length) continue
    it(`${file} names every package its samples import in an \`npm install\``, () => {
      const imported = new Set(
        blocks.flatMap((b) =>
          [...b.code.matchAll(/^import [^'\n]*'([^'.][^']*)'/gm)]
            .map((m) => packageOf(m[1]!))
            .filter((p) => !p.startsWith('node:') && p !== 'request-sandbox'),
        ),
      )
      expect([...imported].filter((p) => !installed.has(p))).toEqual([])
    })
    // a plain ```ts block that is not a scenario file is run with tsx (test/readme/readme.test.ts)
    if (blocks.some((b) => b.flags === '' && !b.code.startsWith('// my-scenarios/')) && /npx tsx/.test(prose))
      it(`${file} says to install tsx for its \`npx tsx\` samples`, () => {
        expect(installed.has('tsx')).toBe(true)
      })
  }

  it('checks the documents with samples (README.md, docs/tron.md among them)', () => {
    const withSamples = documents.filter((f) => read(f).blocks.length)
    expect(withSamples).toEqual(expect.arrayContaining(['README.md', 'docs/tron.md']))
  })
})
