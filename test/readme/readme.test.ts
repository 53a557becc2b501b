// Every code sample of README.md and of the guides under docs/, run as written (only the port of
// http://127.0.0.1:8080 is changed): the shell blocks against a started sandbox, the TypeScript blocks in a scratch
// ES-module project that has request-sandbox installed (linked), with tsx and through strict tsc. One scratch project
// and one sandbox for all of them, each sample run once. The scenario table (docs/scenarios-faults.md) is held equal
// to the registry, and every link between these files to a file and heading that exist.
// A block marked `norun` is not run and must be listed in `notRun` with the reason; ```ts browser is type-checked
// only (it needs a browser: test/browser/worker.test.ts runs the same calls in Chromium); ```ts playwright runs
// under @playwright/test in Debian's Chromium, configured as docs/playwright.md says; a fence of any other kind
// than those the runs below take fails the suite, so no sample of a new guide goes unrun unnoticed.
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
import { ensureChromium } from '../support/chromium.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const readme = read('README.md')
/** README.md, then the guides in the order its links name them (then any it does not name) */
const guides = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
const linkOrder = (file: string) => {
  const position = readme.indexOf(`](${file})`)
  return position < 0 ? Number.MAX_SAFE_INTEGER : position
}
guides.sort((a, b) => linkOrder(a) - linkOrder(b) || a.localeCompare(b))
const documents = ['README.md', ...guides]
const texts = new Map(documents.map((file) => [file, read(file)]))

interface Block {
  file: string
  lang: string
  flags: string[]
  code: string
  line: number
}

/** The fenced code blocks of a markdown file, in order. */
function fencedBlocks(file: string, markdown: string): Block[] {
  const blocks: Block[] = []
  for (const match of markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length
    blocks.push({
      file,
      lang: match[1]!,
      flags: match[2]!.trim().split(/\s+/).filter(Boolean),
      code: match[3]!,
      line,
    })
  }
  return blocks
}

/** where a block is, as test names and messages say it */
const at = (b: Block) => `${b.file}:${b.line}`
const blocks = documents.flatMap((file) => fencedBlocks(file, texts.get(file)!))
/** the fence lines of a file: two per block (a fence without a language, or one left open, is not a block) */
const fenceCount = (markdown: string) => markdown.match(/^```/gm)?.length ?? 0
const shellBlocks = blocks.filter((b) => b.lang === 'sh' && !b.flags.includes('norun'))
const tsBlocks = blocks.filter((b) => b.lang === 'ts' && !b.flags.includes('norun'))
/** the scenario sample names its file on its first line */
const scenarioFile = (b: Block) => /^\/\/ (my-scenarios\/[\w-]+\.ts)/.exec(b.code)?.[1]
/** complete vitest test files (```ts vitest): run with vitest in the scratch project */
const vitestBlocks = tsBlocks.filter((b) => b.flags.includes('vitest'))
/** the complete jest test files (```js jest): those test/examples/jest.test.ts runs under jest */
const jestBlocks = blocks.filter((b) => b.lang === 'js' && b.flags.includes('jest'))
/** complete @playwright/test spec files (```ts playwright): run with `playwright test` in the scratch project */
const playwrightBlocks = tsBlocks.filter((b) => b.flags.includes('playwright'))
const runnable = tsBlocks.filter(
  (b) =>
    !b.flags.includes('browser') &&
    !b.flags.includes('vitest') &&
    !b.flags.includes('playwright') &&
    !scenarioFile(b),
)

/** The samples not run, each found by a line of its code, and why. Any other `norun` block fails the suite. */
const notRun: [file: string, marker: string, reason: string][] = [
  [
    'README.md',
    'npm install && npm start',
    'the two commands: the suite is `npm test`, the server is started below',
  ],
  ['README.md', 'docker build -t request-sandbox', 'needs Docker'],
  ['docs/docker.md', 'docker build -t request-sandbox', 'needs Docker'],
  ['docs/docker.md', '--add-host=host.docker.internal:host-gateway', 'needs Docker'],
  ['docs/docker.md', '-v sandbox-data:/data -e SANDBOX_STATE_DIR=/data', 'needs Docker'],
  ['docs/docker.md', 'docker compose up -d', 'needs Docker compose'],
  ['docs/telemetry.md', 'jaegertracing/all-in-one', 'needs Docker and a collector image'],
  [
    'docs/telemetry.md',
    'OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318',
    'starts a second sandbox exporting to a collector (test/telemetry/ runs the export)',
  ],
  [
    'docs/shared-demo.md',
    'HOST=0.0.0.0 npx request-sandbox',
    "listens on every interface with an operator's secrets",
  ],
  ['docs/cli-tools.md', '--forward-to http://localhost:3000', 'forwards until Ctrl-C to an app on port 3000'],
  [
    'docs/mcp.md',
    'claude mcp add',
    "needs Claude Code (the MCP SDK's client drives both transports in test/mcp/)",
  ],
  [
    'docs/verify.md',
    '--against https://api.request.network',
    "calls the real service with the user's API key",
  ],
  [
    'docs/verify.md',
    'proxy --target https://api.request.network',
    'forwards to the real service until Ctrl-C',
  ],
]
/** how the runs below take each kind of fence; `text` holds output, not code */
function kind(b: Block): string {
  const flags = b.flags.join(' ')
  if (b.flags.includes('norun') && (b.lang === 'sh' || b.lang === 'ts') && b.flags.length === 1)
    return 'not run'
  if (b.lang === 'sh' && flags === '') return 'shell'
  if (b.lang === 'ts' && flags === '') return scenarioFile(b) ? 'scenario' : 'tsx'
  if (b.lang === 'ts' && (flags === 'vitest' || flags === 'browser' || flags === 'playwright')) return flags
  if (b.lang === 'js' && flags === 'jest') return 'jest'
  if (b.lang === 'text' && flags === '') return 'output'
  return `unknown fence \`\`\`${b.lang} ${flags}`
}

/** What each runnable TypeScript sample prints, found by a line of its code. */
const prints: [string, RegExp][] = [
  ['request.status, request.payments.length', /^paid 1$/m],
  ['done.status, done.requests.length', /^active\ncompleted 3 3$/m],
  ['verifyWebhook(signed(', /^\{ event: 'payment.confirmed', requestId: '01e2' \}\nnull$/m],
  ["console.log('tron', status.status", /^tron paid 1000010000000$/m],
  ['console.log(pay.executionKind, ...balances)', /^tron_batch 1000005000000 1000010000000$/m],
  ['installWallet(page, sandbox.url', /^Request Sandbox Wallet 42 true$/m],
]

let server: RunningServer
let scratch: string
const sampleFile = (b: Block) => {
  const name = `sample-${b.file.replace(/\.md$/, '').replace(/\W/g, '-')}-line-${b.line}`
  return (
    scenarioFile(b) ??
    (b.flags.includes('vitest')
      ? `${name}.test.ts`
      : b.flags.includes('playwright')
        ? `${name}.spec.ts`
        : `${name}.ts`)
  )
}
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

describe('README.md and docs/', () => {
  it('reads the README and the guides', () => {
    expect(guides.length).toBeGreaterThanOrEqual(20)
  })

  it('keeps the two commands a fresh machine needs', () => {
    const first = blocks[0]!
    expect(first.file).toBe('README.md')
    expect(first.code).toMatch(/^npm install && npm start\b/m)
    expect(first.code).toMatch(/^npm test\b/m)
  })

  it('lists every scenario of the registry, as the registry describes it', async () => {
    expect(
      readmeScenarioTable(texts.get('docs/scenarios-faults.md')!),
      'run: npx tsx scripts/readme-scenarios.ts --write',
    ).toBe(await renderScenarioTable())
  })

  it('runs every sample of every guide: each fence is of a kind the runs take, or listed as not run with a reason', () => {
    for (const [file, markdown] of texts)
      expect(fenceCount(markdown) % 2, `${file} has an unterminated fence`).toBe(0)
    expect(blocks.length * 2).toBe([...texts.values()].reduce((sum, text) => sum + fenceCount(text), 0))
    const unknown = blocks.filter((b) => kind(b).startsWith('unknown')).map((b) => `${at(b)} ${kind(b)}`)
    expect(unknown, 'a sample of a kind the suite does not run').toEqual([])
    const skipped = blocks.filter((b) => kind(b) === 'not run')
    for (const block of skipped)
      expect(
        notRun.filter(([file, marker]) => file === block.file && block.code.includes(marker)),
        `${at(block)} is marked norun: list it in notRun with the reason, or let it run`,
      ).toHaveLength(1)
    for (const [file, marker] of notRun)
      expect(
        skipped.filter((b) => b.file === file && b.code.includes(marker)),
        `notRun names ${file} ${marker}: no norun block has it`,
      ).toHaveLength(1)
    // the guides' samples are among the runs (the README's alone would pass the counts below)
    expect(new Set(shellBlocks.map((b) => b.file)).size).toBeGreaterThan(3)
    expect(new Set(runnable.map((b) => b.file)).size).toBeGreaterThan(3)
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
        expect(`${block.code[match.index - 1]}`, `${at(block)}: ${match[0]}`).toMatch(/['"]/)
  })

  it.each(shellBlocks.map((b) => [at(b), b] as const))(
    'runs the shell sample at %s against a started sandbox',
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

  it.each(runnable.map((b) => [at(b), b] as const))(
    'runs the TypeScript sample at %s with tsx and prints what it shows',
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

  it('has its test samples as complete test files: vitest ones, and jest ones equal to the files jest runs', () => {
    expect(vitestBlocks).toHaveLength(3)
    for (const block of vitestBlocks) {
      expect(block.code).toMatch(/from 'vitest'/)
      expect(block.code).toMatch(/^it\(/m)
    }
    expect(jestBlocks).toHaveLength(2)
    // docs/playwright.md: a spec file that imports test and expect, and extends test with the sandbox's fixtures
    expect(playwrightBlocks).toHaveLength(1)
    expect(playwrightBlocks[0]!.code).toMatch(/^import \{ test as base, expect \} from '@playwright\/test'$/m)
    expect(playwrightBlocks[0]!.code).toMatch(/base\.extend<SandboxFixtures>\(sandboxFixtures/)
    // each file starts with two lines saying where it runs; the rest is the sample, as written
    const files = ['invoice.test.mjs', 'per-test.test.mjs'].map((name) =>
      readFileSync(join(root, 'test/examples/jest', name), 'utf8')
        .split('\n')
        .slice(2)
        .join('\n'),
    )
    expect(files).toEqual(jestBlocks.map((b) => b.code))
  })

  it.each(vitestBlocks.map((b) => [at(b), b] as const))(
    'runs the test sample at %s under vitest, as a user would (npx vitest run)',
    async (_line, block) => {
      const result = await run(
        process.execPath,
        [join(root, 'node_modules/vitest/vitest.mjs'), 'run', sampleFile(block)],
        scratch,
        150_000,
      )
      // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its summary
      const output = (result.stdout + result.stderr).replace(/\u001b\[[0-9;]*m/g, '')
      expect(output).toMatch(/Tests\s+\d+ passed \(/)
      expect(output).not.toMatch(/\d+ failed/)
      expect(result.code).toBe(0)
    },
    160_000,
  )

  it.each(playwrightBlocks.map((b) => [at(b), b] as const))(
    "runs the @playwright/test sample at %s with playwright test, in Debian's Chromium as the guide configures it",
    async (_line, block) => {
      // the guide's configuration: Debian's Chromium by its path
      const config = "use: { launchOptions: { executablePath: '/usr/bin/chromium' } }"
      expect(texts.get(block.file)).toContain(config)
      expect(ensureChromium()).toBe('/usr/bin/chromium')
      writeFileSync(join(scratch, 'playwright.config.mjs'), `export default { workers: 1, ${config} }\n`)
      // the fixtures join the started sandbox (SANDBOX_URL); request-sandbox from its sources, as the tsx runs
      const result = await new Promise<{ code: number; output: string }>((resolve) =>
        execFile(
          process.execPath,
          [
            join(root, 'node_modules/@playwright/test/cli.js'),
            'test',
            '--config',
            'playwright.config.mjs',
            sampleFile(block),
          ],
          {
            cwd: scratch,
            timeout: 150_000,
            maxBuffer: 16 << 20,
            env: { ...process.env, SANDBOX_URL: server.url, NODE_OPTIONS: '--conditions=source', CI: '1' },
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
        ),
      )
      // biome-ignore lint/suspicious/noControlCharactersInRegex: playwright colours its summary
      const output = result.output.replace(/\u001b\[[0-9;]*m/g, '')
      expect(output).toMatch(/\b1 passed\b/)
      expect(result.code, output).toBe(0)
    },
    160_000,
  )

  it('points only at files that exist', () => {
    const paths = [...texts.values()]
      .flatMap((text) => [
        ...text.matchAll(
          /`((?:test|src|scripts|bench|fixtures|scenarios|docs|contracts|bin)\/[\w./-]+\.\w+)`/g,
        ),
      ])
      .map((m) => m[1]!)
      .filter((path) => !path.includes('<'))
    expect(paths.length).toBeGreaterThan(0)
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([])
  })

  it('links only to files and headings that exist, and the README links to every guide', () => {
    const files = [...documents, 'ARCHITECTURE.md']
    const broken: string[] = []
    let checked = 0
    for (const file of files)
      for (const { target, line } of links(read(file))) {
        if (/^[a-z]+:/i.test(target)) continue // http(s), mailto: not ours to check
        const [path, anchor] = target.split('#') as [string, string | undefined]
        const linked = path === '' ? file : join(dirname(file), decodeURIComponent(path))
        checked++
        if (!existsSync(join(root, linked))) broken.push(`${file}:${line} ${target}: no file ${linked}`)
        else if (anchor !== undefined && !headingSlugs(read(linked)).has(anchor))
          broken.push(`${file}:${line} ${target}: no heading #${anchor} in ${linked}`)
      }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(guides.length)
    expect(guides.filter((guide) => linkOrder(guide) === Number.MAX_SAFE_INTEGER)).toEqual([])
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

/** The markdown links `[text](target)` outside code fences and inline code, with their line. */
function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = []
  let fenced = false
  for (const [index, text] of markdown.split('\n').entries()) {
    if (text.startsWith('```')) fenced = !fenced
    if (fenced) continue
    for (const match of text.replace(/`[^`]*`/g, '``').matchAll(/\]\(([^)\s]+)\)/g))
      found.push({ target: match[1]!, line: index + 1 })
  }
  return found
}

/** The anchors GitHub gives a markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const text of markdown.split('\n')) {
    if (text.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*$/.exec(text)
    if (!heading) continue
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    slugs.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return slugs
}
