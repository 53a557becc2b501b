// Every code sample of README.md, run as written (only the port of http://127.0.0.1:8080 is changed): the shell
// blocks against a started sandbox, the TypeScript blocks in a scratch ES-module project that has request-sandbox
// installed (linked), with tsx and through strict tsc. The scenario table is held equal to the registry.
// A block marked ```sh norun (the two commands, Docker) is not run; ```ts browser is type-checked only (it needs a
// browser: test/browser/worker.test.ts runs the same calls in Chromium).
import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readmeScenarioTable, renderScenarioTable } from '../../scripts/readme-scenarios.ts'
import { createTestSandbox } from '../../src/msw.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { type RunningServer, startServer } from '../../src/server.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const readme = readFileSync(join(root, 'README.md'), 'utf8')

interface Block {
  lang: string
  flags: string[]
  code: string
  line: number
}

/** The fenced code blocks of the README, in order. */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = []
  for (const match of markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length
    blocks.push({
      lang: match[1]!,
      flags: match[2]!.trim().split(/\s+/).filter(Boolean),
      code: match[3]!,
      line,
    })
  }
  return blocks
}

const blocks = fencedBlocks(readme)
const shellBlocks = blocks.filter((b) => b.lang === 'sh' && !b.flags.includes('norun'))
const tsBlocks = blocks.filter((b) => b.lang === 'ts')
/** the scenario sample names its file on its first line */
const scenarioFile = (b: Block) => /^\/\/ (my-scenarios\/[\w-]+\.ts)/.exec(b.code)?.[1]
/** complete vitest test files (```ts vitest): run with vitest in the scratch project */
const vitestBlocks = tsBlocks.filter((b) => b.flags.includes('vitest'))
/** the complete jest test file (```js jest): the one test/examples/jest.test.ts runs under jest */
const jestBlocks = blocks.filter((b) => b.lang === 'js' && b.flags.includes('jest'))
const runnable = tsBlocks.filter(
  (b) => !b.flags.includes('browser') && !b.flags.includes('vitest') && !scenarioFile(b),
)

/** What each runnable TypeScript sample prints, found by a line of its code. */
const prints: [string, RegExp][] = [
  ['request.status, request.payments.length', /^paid 1$/m],
  ['done.status, done.requests.length', /^active\ncompleted 3 3$/m],
  ['verifyWebhook(signed(', /^\{ event: 'payment.confirmed', requestId: '01e2' \}\nnull$/m],
  ["console.log('tron', status.status", /^tron paid 1000010000000$/m],
  ['installWallet(page, sandbox.url', /^Request Sandbox Wallet 42 true$/m],
]

let server: RunningServer
let scratch: string
const sampleFile = (b: Block) =>
  scenarioFile(b) ??
  (b.flags.includes('vitest') ? `sample-line-${b.line}.test.ts` : `sample-line-${b.line}.ts`)
const withPort = (code: string) => code.replaceAll('127.0.0.1:8080', `127.0.0.1:${server.port}`)

function run(command: string, args: string[], cwd: string, timeout = 120_000) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

beforeAll(async () => {
  server = await startServer({ port: 0 })
  // a user's project: ES modules, request-sandbox and its dependencies installed (linked from this checkout)
  scratch = mkdtempSync(join(tmpdir(), 'readme-samples-'))
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  mkdirSync(join(scratch, 'node_modules'))
  for (const entry of readdirSync(join(root, 'node_modules')))
    if (!entry.startsWith('.'))
      symlinkSync(join(root, 'node_modules', entry), join(scratch, 'node_modules', entry))
  symlinkSync(root.replace(/\/$/, ''), join(scratch, 'node_modules/request-sandbox'))
  // `npx request-sandbox <tool>` as in a project that installed the package
  mkdirSync(join(scratch, 'node_modules/.bin'))
  symlinkSync(join(root, 'bin/request-sandbox.mjs'), join(scratch, 'node_modules/.bin/request-sandbox'))
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        noEmit: true,
        skipLibCheck: true,
        // request-sandbox's types from its sources (the "source" export condition), as this repository's tests do
        customConditions: ['source'],
        allowImportingTsExtensions: true,
      },
      include: ['*.ts', 'my-scenarios/*.ts'],
    }),
  )
  // vitest in the user's project: request-sandbox's sources (the "source" export condition), as the tsx runs do
  writeFileSync(
    join(scratch, 'vitest.config.mjs'),
    "export default { resolve: { conditions: ['source'] }, ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } } }\n",
  )
  for (const block of tsBlocks) {
    const file = join(scratch, sampleFile(block))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, withPort(block.code))
  }
})

afterAll(async () => {
  await server?.close()
  if (scratch) rmSync(scratch, { recursive: true, force: true })
})

describe('README.md', () => {
  it('keeps the two commands a fresh machine needs', () => {
    const first = blocks[0]!
    expect(first.code).toMatch(/^npm install && npm start\b/m)
    expect(first.code).toMatch(/^npm test\b/m)
  })

  it('lists every scenario of the registry, as the registry describes it', async () => {
    expect(readmeScenarioTable(readme), 'run: npx tsx scripts/readme-scenarios.ts --write').toBe(
      await renderScenarioTable(),
    )
  })

  it('finds the samples it runs, and each expected output names a sample that is still there', () => {
    // the runs below are it.each over these lists: an empty list (a changed fence) would run nothing and pass
    expect(shellBlocks.length).toBeGreaterThan(0)
    expect(runnable.length).toBeGreaterThan(0)
    expect(tsBlocks.filter(scenarioFile)).toHaveLength(1)
    for (const [marker] of prints)
      expect(
        runnable.filter((b) => b.code.includes(marker)),
        `no runnable sample has ${marker}`,
      ).toHaveLength(1)
  })

  it('quotes every URL that carries a ? in its shell samples (zsh expands it otherwise)', () => {
    for (const block of blocks.filter((b) => b.lang === 'sh'))
      for (const match of block.code.matchAll(/https?:\/\/[^\s'"]*\?/g))
        expect(`${block.code[match.index - 1]}`, `line ${block.line}: ${match[0]}`).toMatch(/['"]/)
  })

  it.each(shellBlocks.map((b) => [b.line, b] as const))(
    'runs the shell sample at line %i against a started sandbox',
    async (_line, block) => {
      // any HTTP error fails the sample (curl prints the body and exits 22)
      const script = `curl() { command curl --fail-with-body "$@"; }\n${withPort(block.code)}`
      const result = await run('sh', ['-e', '-c', script], scratch)
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      expect(result.stdout).not.toBe('')
    },
  )

  it('type-checks every TypeScript sample with strict tsc', async () => {
    const result = await run(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      scratch,
    )
    expect(result.stdout + result.stderr).toBe('')
    expect(result.code).toBe(0)
  }, 180_000)

  it.each(runnable.map((b) => [b.line, b] as const))(
    'runs the TypeScript sample at line %i with tsx and prints what it shows',
    async (_line, block) => {
      const expected = prints.filter(([marker]) => block.code.includes(marker)).map(([, output]) => output)
      expect(expected, 'add what this sample prints to `prints`').toHaveLength(1)
      const result = await run(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', sampleFile(block)],
        scratch,
      )
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      expect(result.stdout).toMatch(expected[0]!)
    },
    120_000,
  )

  it('has its test samples as complete test files: vitest ones, and a jest one equal to the file jest runs', () => {
    expect(vitestBlocks).toHaveLength(2)
    for (const block of vitestBlocks) {
      expect(block.code).toMatch(/from 'vitest'/)
      expect(block.code).toMatch(/^it\(/m)
    }
    expect(jestBlocks).toHaveLength(1)
    const file = readFileSync(join(root, 'test/examples/jest/invoice.test.mjs'), 'utf8')
    // the file starts with two lines saying where it runs; the rest is the sample, as written
    expect(file.split('\n').slice(2).join('\n')).toBe(jestBlocks[0]!.code)
  })

  it.each(vitestBlocks.map((b) => [b.line, b] as const))(
    'runs the test sample at line %i under vitest, as a user would (npx vitest run)',
    async (_line, block) => {
      const result = await run(
        process.execPath,
        [join(root, 'node_modules/vitest/vitest.mjs'), 'run', sampleFile(block)],
        scratch,
        150_000,
      )
      // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its summary
      const output = (result.stdout + result.stderr).replace(/\u001b\[[0-9;]*m/g, '')
      expect(output).toMatch(/Tests\s+1 passed/)
      expect(result.code).toBe(0)
    },
    160_000,
  )

  it('points only at files that exist', () => {
    const paths = [
      ...readme.matchAll(
        /`((?:test|src|scripts|bench|fixtures|scenarios|docs|contracts|bin)\/[\w./-]+\.\w+)`/g,
      ),
    ]
      .map((m) => m[1]!)
      .filter((path) => !path.includes('<'))
    expect(paths.length).toBeGreaterThan(0)
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([])
  })

  it('seeds the custom scenario sample from a folder of a project that has request-sandbox', async () => {
    const block = tsBlocks.find(scenarioFile)!
    const dir = join(scratch, dirname(scenarioFile(block)!))
    const rn = await createTestSandbox({ chain: false, scenarioDirs: [dir] })
    try {
      const tenant = await rn.tenant({ scenario: 'three-invoices' })
      const state = await tenant.scenario()
      expect(state.ids.first).toMatch(/^01[0-9a-f]{64}$/)
      expect(requestState(await rn.sandbox.control.world(tenant.apiKey)).requests.size).toBe(3)
    } finally {
      await rn.close()
    }
  })
})
