// The dependency rules are enforced by scripts/check-architecture.mjs (run by `npm run lint`): these tests make sure it
// fails on what it must refuse, on a scratch tree, and passes on the project itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

interface Check {
  graph: Map<string, string[]>
  loops: string[][]
  broken: { importer: string; target: string }[]
  tooLong: { file: string; lines: number }[]
  innerImports: { importer: string; target: string }[]
  templateGaps: { resource: string; missing: string[] }[]
  moduleState: { file: string; name: string }[]
  names: string[]
  stale: string[]
}
type Lists = Record<string, unknown>
const checker = '../../scripts/check-architecture.mjs'
const { checkTree, problems } = (await import(checker)) as {
  checkTree(root?: string, lists?: Lists): Check
  problems(found: Check): string[]
}
const shape = '../../scripts/architecture-shape.mjs'
const { ALLOW_LISTS, NO_ALLOW_LISTS, TO_SPLIT, mask } = (await import(shape)) as {
  ALLOW_LISTS: Lists
  NO_ALLOW_LISTS: Lists
  TO_SPLIT: string[]
  mask(text: string): string
}

const scratch = mkdtempSync(join(tmpdir(), 'architecture-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function tree(name: string, files: Record<string, string>): string {
  const root = join(scratch, name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('the architecture check', () => {
  it('finds a cycle made of type-only imports', () => {
    const { loops } = checkTree(
      tree('cycle', {
        'src/control/a.ts': "import type { B } from './b.ts'\nexport type A = B\n",
        'src/control/b.ts': "import type {\n  A,\n} from './a.ts'\nexport type B = A | 1\n",
      }),
    )
    expect(loops).toEqual([['src/control/a.ts', 'src/control/b.ts']])
  })

  it('refuses contract importing another layer, chain importing control, and a transport reaching a resource', () => {
    const { broken } = checkTree(
      tree('layers', {
        'src/contract/route.ts': "import type { World } from '../store/world.ts'\n",
        'src/store/world.ts': 'export type World = {}\n',
        'src/chain/relayer.ts': "import { clock } from '../control/clock.ts'\n",
        'src/control/clock.ts': 'export const clock = 1\n',
        'src/transports/msw.ts': "export { x } from '../resources/requests/model.ts'\n",
        'src/resources/requests/model.ts': 'export const x = 1\n',
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`).sort()).toEqual([
      'src/chain/relayer.ts -> src/control/clock.ts',
      'src/contract/route.ts -> src/store/world.ts',
      'src/transports/msw.ts -> src/resources/requests/model.ts',
    ])
  })

  it("lets a resource use another resource's public module only, and the store no resource", () => {
    const { broken } = checkTree(
      tree('resources', {
        'src/resources/pay/model.ts':
          "import { a } from '../requests/index.ts'\nimport { b } from '../requests/model.ts'\nimport { c } from './own.ts'\n",
        'src/resources/pay/own.ts': 'export const c = 1\n',
        'src/resources/requests/index.ts': "export { b as a } from './model.ts'\n",
        'src/resources/requests/model.ts': 'export const b = 1\n',
        'src/store/world.ts': "import { b } from '../resources/requests/model.ts' // a comment\n",
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`).sort()).toEqual([
      'src/resources/pay/model.ts -> src/resources/requests/model.ts',
      'src/store/world.ts -> src/resources/requests/model.ts',
    ])
  })

  it('holds the services declaration to what a resource may use, plus the webhook port', () => {
    const { broken } = checkTree(
      tree('services', {
        'src/resources/services.ts':
          "import type { P } from '../webhooks/index.ts'\nimport type { R } from './rates/registry.ts'\nimport type { J } from '../control/journal.ts'\nimport type { D } from '../webhooks/delivery.ts'\n",
        'src/webhooks/index.ts': "export type { D as P } from './delivery.ts'\n",
        'src/webhooks/delivery.ts': 'export type D = {}\n',
        'src/resources/rates/registry.ts': 'export type R = {}\n',
        'src/control/journal.ts': 'export type J = {}\n',
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`).sort()).toEqual([
      'src/resources/services.ts -> src/control/journal.ts',
      'src/resources/services.ts -> src/webhooks/delivery.ts',
    ])
  })

  it("refuses another room importing a feature folder's inner file, but for the listed exceptions", () => {
    const found = checkTree(
      tree('feature-doors', {
        'src/control/routes.ts':
          "import { a } from '../webhooks/index.ts'\nimport { b } from '../webhooks/delivery.ts'\nimport { c } from '../telemetry/calls.ts'\n",
        'src/cli.ts': "import { v } from './verify/run.ts'\nimport { m } from './mcp/index.ts'\n",
        'src/chain/start.ts':
          "import { n } from '../tron/node/node.ts'\nimport { t } from '../tron/address.ts'\n",
        'src/webhooks/index.ts': "export { b as a } from './delivery.ts'\n",
        'src/webhooks/delivery.ts': "import { c } from './chaos.ts'\nexport const b = c\n",
        'src/webhooks/chaos.ts': 'export const c = 1\n',
        'src/telemetry/calls.ts': 'export const c = 1\n',
        'src/verify/run.ts': 'export const v = 1\n',
        'src/mcp/index.ts': 'export const m = 1\n',
        'src/tron/node/node.ts': 'export const n = 1\n',
        'src/tron/address.ts': 'export const t = 1\n',
      }),
    )
    expect(found.broken.map((b) => `${b.importer} -> ${b.target}`).sort()).toEqual([
      'src/cli.ts -> src/verify/run.ts',
      'src/control/routes.ts -> src/telemetry/calls.ts',
      'src/control/routes.ts -> src/webhooks/delivery.ts',
    ])
    expect(problems(found).join('\n')).toContain('through its index.ts only')
  })

  it('refuses events importing the control plane (it writes the journal through a port)', () => {
    const { broken } = checkTree(
      tree('events', {
        'src/webhooks/delivery.ts':
          "import type { Journal } from '../control/journal.ts'\nimport type { DeliveryJournal } from '../contract/ports.ts'\n",
        'src/control/journal.ts': 'export type Journal = {}\n',
        'src/contract/ports.ts': 'export type DeliveryJournal = {}\n',
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`)).toEqual([
      'src/webhooks/delivery.ts -> src/control/journal.ts',
    ])
  })

  it('refuses the sandbox and the control plane importing a transport', () => {
    const { broken } = checkTree(
      tree('assembly', {
        'src/sandbox/chains.ts': "import { createHandlers } from '../transports/msw.ts'\n",
        'src/control/routes.ts': "import type { X } from '../transports/node-http.ts'\n",
        'src/sandbox.ts': "import { wire } from './sandbox/chains.ts'\n",
        'src/transports/msw.ts': 'export const createHandlers = 1\n',
        'src/transports/node-http.ts': 'export type X = {}\n',
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`).sort()).toEqual([
      'src/control/routes.ts -> src/transports/node-http.ts',
      'src/sandbox/chains.ts -> src/transports/msw.ts',
    ])
  })

  it('lets verify reach a sandbox only through the package door, the CLI client and contract', () => {
    const { broken } = checkTree(
      tree('verify', {
        'src/verify/run.ts':
          "import { startServer } from '../index.ts'\nimport { EXIT } from '../cli/client.ts'\nimport type { N } from '../contract/neutral.ts'\nimport { m } from '../resources/requests/model.ts'\nimport { c } from '../control/clock.ts'\nimport { h } from '../transports/msw.ts'\n",
        'src/index.ts': 'export const startServer = 1\n',
        'src/cli/client.ts': 'export const EXIT = 1\n',
        'src/contract/neutral.ts': 'export type N = {}\n',
        'src/resources/requests/model.ts': 'export const m = 1\n',
        'src/control/clock.ts': 'export const c = 1\n',
        'src/transports/msw.ts': 'export const h = 1\n',
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`).sort()).toEqual([
      'src/verify/run.ts -> src/control/clock.ts',
      'src/verify/run.ts -> src/resources/requests/model.ts',
      'src/verify/run.ts -> src/transports/msw.ts',
    ])
  })

  it('passes on this project', () => {
    const found = checkTree()
    expect(found.graph.size).toBeGreaterThan(100)
    expect(found.loops).toEqual([])
    expect(found.broken).toEqual([])
    expect(problems(found)).toEqual([])
  })
})

/** A resource folder with every template file, so only what a test plants can fail. */
const wholeResource = (name: string, extra: Record<string, string> = {}) => ({
  [`src/resources/${name}/index.ts`]: "export { create } from './model.ts'\n",
  [`src/resources/${name}/schema.ts`]: 'export const schema = 1\n',
  [`src/resources/${name}/model.ts`]: 'export const create = 1\n',
  [`src/resources/${name}/routes.ts`]: 'export const routes = 1\n',
  [`src/resources/${name}/errors.ts`]: 'export class NotFound extends Error {}\n',
  ...extra,
})
/** A test's dynamic import of `path` (built, so this file does not itself import it). */
const importOf = (path: string) => `const { create } = await import('${path}')\n`
const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const a${i} = ${i}\n`).join('')
/** The scratch tree checked without the project's allow-lists: problems() is what `npm run lint` would print. */
const check = (name: string, files: Record<string, string>) => {
  const found = checkTree(tree(name, files), NO_ALLOW_LISTS)
  return { found, problems: problems(found) }
}

describe('the shape rules', () => {
  it(`refuses a hand-written file under src/ over 500 lines, not one of 500 nor a generated one`, () => {
    const { found, problems: said } = check('long', {
      'src/control/big.ts': lines(501),
      'src/control/fits.ts': lines(500),
      'src/chain/artifacts/Token.json': `{\n${'  "x": 1,\n'.repeat(700)}}\n`,
      'src/control/dashboard/assets/app.js': lines(900),
    })
    expect(found.tooLong).toEqual([{ file: 'src/control/big.ts', lines: 501 }])
    expect(said).toEqual([
      'src/control/big.ts has 501 lines, over 500: split it into files that do one job each',
    ])
    expect(check('short', { 'src/control/fits.ts': lines(500) }).problems).toEqual([])
  })

  it('keeps the list of files to split honest: it only shrinks, and an entry split already fails', () => {
    // the files over 500 lines when the rule came; a new long file is split, not listed
    expect(['src/control/dashboard/assets/app.css', 'src/control/state-dir.ts']).toEqual(
      expect.arrayContaining(TO_SPLIT),
    )
    const found = checkTree(tree('split', { 'src/control/state-dir.ts': lines(80) }), {
      ...NO_ALLOW_LISTS,
      TO_SPLIT: ['src/control/state-dir.ts'],
    })
    expect(found.stale).toEqual([
      'TO_SPLIT lists src/control/state-dir.ts, which is no longer over 500 lines (or is gone): remove the entry',
    ])
  })

  it("refuses another room, or a test, importing a resource's inner file, and passes through its index.ts", () => {
    const resource = wholeResource('payers')
    const { found, problems: said } = check('doors', {
      ...resource,
      'src/control/trigger.ts': "import { create } from '../resources/payers/model.ts'\n",
      'src/sandbox/build-services.ts': "import { create } from '../resources/payers/index.ts'\n",
      'src/resources/payers/page/ui/main.ts': "import { create } from '../../model.ts'\n",
      'test/payers/payers.test.ts': importOf('../../src/resources/payers/model.ts'),
    })
    expect(found.innerImports.map((i) => `${i.importer} -> ${i.target}`).sort()).toEqual([
      'src/control/trigger.ts -> src/resources/payers/model.ts',
      'test/payers/payers.test.ts -> src/resources/payers/model.ts',
    ])
    expect(said).toContain(
      'src/control/trigger.ts imports src/resources/payers/model.ts, an inner file of resource payers: import src/resources/payers/index.ts (export it there)',
    )
    expect(
      check('doors-kept', {
        ...resource,
        'src/control/trigger.ts': "import { create } from '../resources/payers/index.ts'\n",
        'test/payers/payers.test.ts': importOf('../../src/resources/payers/index.ts'),
      }).problems,
    ).toEqual([])
  })

  it('refuses a resource folder missing a template file, or declaring its tables outside tables.ts', () => {
    const whole = wholeResource('payouts', {
      'src/resources/payouts/tables.ts': 'defineState("payouts", f)\n',
      'src/resources/payouts/model.ts': "export const create = () => { throw new NotFound('x') }\n",
    })
    const withoutErrors = Object.fromEntries(
      Object.entries(whole).filter(([path]) => !path.endsWith('/errors.ts')),
    )
    const { found, problems: said } = check('template', {
      ...withoutErrors,
      ...wholeResource('rates', {
        'src/resources/rates/registry.ts': 'export const r = defineState("rates", f)\n',
      }),
      'src/resources/sessions/routes.ts': "export const routes = () => { throw new Error('x') }\n",
    })
    expect(found.templateGaps).toEqual([
      { resource: 'payouts', missing: ['errors.ts'] },
      { resource: 'rates', missing: ['tables.ts (tables are declared in registry.ts)'] },
      {
        resource: 'sessions',
        missing: ['index.ts', 'schema.ts', 'errors.ts', 'model.ts (or named operation files)'],
      },
    ])
    // a resource that refuses nothing of its own (its schemas answer) needs no errors.ts
    const quiet = wholeResource('payments')
    delete quiet['src/resources/payments/errors.ts']
    expect(check('template-quiet', quiet).problems).toEqual([])
    expect(said).toContain(
      "src/resources/payouts/ misses its template's errors.ts (ARCHITECTURE.md, resources)",
    )
    expect(check('template-kept', whole).problems).toEqual([])
  })

  it('refuses a page served another way than page/page.ts, page-routes.ts and a bundle of page/ui', () => {
    const page = "export const PAGE = '<!doctype html><title>x</title>'\n"
    const { found, problems: said } = check('pages', {
      ...wholeResource('payers', {
        'src/resources/payers/pages.ts': page,
        'src/resources/payers/page/ui/main.ts': 'document.title = "x"\n',
      }),
      ...wholeResource('orchestrators', {
        'src/resources/orchestrators/routes.ts': "export const html = { contentType: 'text/html' }\n",
      }),
    })
    expect(found.templateGaps).toEqual([
      { resource: 'orchestrators', missing: ['page-routes.ts (routes.ts serves a page)'] },
      {
        resource: 'payers',
        missing: [
          'page/page.ts (pages.ts builds a page)',
          'page/assets/page.js (the bundle of page/ui: scripts/build-pages.mjs)',
        ],
      },
    ])
    expect(said).toContain(
      "src/resources/orchestrators/ misses its template's page-routes.ts (routes.ts serves a page) (ARCHITECTURE.md, resources)",
    )
    const served = check(
      'pages-kept',
      wholeResource('payers', {
        'src/resources/payers/page/page.ts': page,
        'src/resources/payers/page/ui/main.ts': 'document.title = "x"\n',
        'src/resources/payers/page/assets/page.js': 'document.title="x";\n',
        'src/resources/payers/page-routes.ts': "export const html = { contentType: 'text/html' }\n",
      }),
    )
    expect(served.problems).toEqual([])
  })

  it('refuses module-level mutable state: a top-level let, a mutated Map, Set, array or object', () => {
    const { found, problems: said } = check('module-state', {
      'src/control/counter.ts': 'let count = 0\nexport const next = () => ++count\n',
      'src/control/cache.ts':
        'const seen = new Map<string, number>()\nexport function see(k: string) {\n  seen.set(k, 1)\n}\n',
      'src/control/list.ts':
        'export const names: string[] = []\nexport const add = (n: string) => names.push(n)\n',
      'src/control/object.ts':
        'const byKey: Record<string, number> = {}\nexport const put = (k: string) => {\n  byKey[k] = 1\n}\n',
      'src/control/fine.ts': [
        "const FIXED = new Set(['a'])",
        "export const LIST = ['a', 'b'] as const",
        'export function f() {',
        '  let local = 0',
        '  const map = new Map()',
        '  map.set(1, 2)',
        '  return FIXED.has(String(local++)) || LIST.length',
        '}',
        'const text = `',
        'let inside = 1',
        '`',
        '',
      ].join('\n'),
      'src/control/dashboard/ui/main.ts': "let page = ''\n",
    })
    expect(found.moduleState.map((m) => `${m.file}: ${m.name}`).sort()).toEqual([
      'src/control/cache.ts: seen',
      'src/control/counter.ts: count',
      'src/control/list.ts: names',
      'src/control/object.ts: byKey',
    ])
    expect(said).toContain(
      'src/control/counter.ts keeps module-level state in `count` (let): keep it in a world or a service, or list it with why in ALLOWED_MODULE_STATE (scripts/architecture-shape.mjs)',
    )
    expect(
      check('module-state-kept', { 'src/control/fine.ts': 'export const f = () => new Map()\n' }).problems,
    ).toEqual([])
  })

  it('refuses a module named state.ts anywhere: a resource names its tables tables.ts', () => {
    const { found, problems: said } = check('names', {
      ...wholeResource('payers', { 'src/resources/payers/tables.ts': 'export const tables = 1\n' }),
      'src/sandbox/state.ts': 'export const build = 1\n',
    })
    expect(found.names).toEqual(['src/sandbox/state.ts'])
    expect(said).toEqual([
      "src/sandbox/state.ts: `state.ts` says nothing of what a module holds, so no module takes the name; name it for what it holds (a resource's tables: tables.ts)",
    ])
    expect(
      check('names-resource', {
        ...wholeResource('payers', { 'src/resources/payers/state.ts': 'export const tables = 1\n' }),
      }).found.names,
    ).toEqual(['src/resources/payers/state.ts'])
    expect(
      check('names-kept', { 'src/sandbox/build-services.ts': 'export const build = 1\n' }).problems,
    ).toEqual([])
  })

  it('masks comments, strings and templates (substitutions stay code) before it reads declarations', () => {
    const substitution = (code: string) => ['$', '{', code, '}'].join('')
    const text = `const a = 'let x' // let y\nconst b = \`\nlet z ${substitution('`let v`')} /* c */\`\nlet w = /'/\n`
    const masked = mask(text)
    expect(masked).toHaveLength(text.length)
    expect(masked).not.toMatch(/let [vxyz]/)
    expect(masked).toMatch(/^let w = \//m)
  })

  it('fails on an allow-list entry that no longer matches anything, so the lists only shrink', () => {
    const found = checkTree(tree('stale', { 'src/control/fine.ts': 'export const f = 1\n' }), {
      ...NO_ALLOW_LISTS,
      INNER_IMPORTS_TO_REMOVE: ['src/control/trigger.ts -> src/resources/payers/model.ts'],
      TEMPLATE_GAPS_TO_FILL: { journeys: ['index.ts'] },
      ALLOWED_MODULE_STATE: { 'src/control/fine.ts: f': 'was a cache' },
    })
    expect(found.stale).toEqual([
      'INNER_IMPORTS_TO_REMOVE lists src/control/trigger.ts -> src/resources/payers/model.ts, which no longer happens: remove the entry',
      'TEMPLATE_GAPS_TO_FILL lists journeys, which is no longer a folder of src/resources/: remove the entry',
      'ALLOWED_MODULE_STATE lists src/control/fine.ts: f, which is no longer module state: remove the entry',
    ])
    expect(Object.keys(ALLOW_LISTS).sort()).toEqual(Object.keys(NO_ALLOW_LISTS).sort())
  })
})
