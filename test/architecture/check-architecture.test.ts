// The dependency rules are enforced by scripts/check-architecture.mjs (run by `npm run lint`): these tests make sure it
// fails on what it must refuse, on a scratch tree, and passes on the project itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

interface Check {
  loops: string[][]
  broken: { importer: string; target: string }[]
}
const checker = '../../scripts/check-architecture.mjs'
const { checkTree } = (await import(checker)) as { checkTree(root?: string): Check }

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

  it('refuses events importing the control plane (it writes the journal through a port)', () => {
    const { broken } = checkTree(
      tree('events', {
        'src/events/webhook-delivery.ts':
          "import type { Journal } from '../control/journal.ts'\nimport type { DeliveryJournal } from '../contract/ports.ts'\n",
        'src/control/journal.ts': 'export type Journal = {}\n',
        'src/contract/ports.ts': 'export type DeliveryJournal = {}\n',
      }),
    )
    expect(broken.map((b) => `${b.importer} -> ${b.target}`)).toEqual([
      'src/events/webhook-delivery.ts -> src/control/journal.ts',
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
    const { graph, loops, broken } = checkTree() as Check & { graph: Map<string, string[]> }
    expect(graph.size).toBeGreaterThan(100)
    expect(loops).toEqual([])
    expect(broken).toEqual([])
  })
})
