// The Tron feature's rules in scripts/check-architecture.mjs: a resource reaches src/tron/ through its door only,
// contract/ and chain/ only its leaf address codec (and chain/ its node), and src/tron/ never a resource or control.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, it } from 'vitest'

const checker = '../../scripts/check-architecture.mjs'
const { checkTree } = (await import(checker)) as {
  checkTree(root?: string): { loops: string[][]; broken: { importer: string; target: string }[] }
}

const scratch = mkdtempSync(join(tmpdir(), 'architecture-tron-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function brokenEdges(files: Record<string, string>): string[] {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true })
    writeFileSync(join(scratch, path), text)
  }
  return checkTree(scratch)
    .broken.map((b) => `${b.importer} -> ${b.target}`)
    .sort()
}

it('lets resources use the Tron door, contract and chain its address codec and node, and refuses the rest', () => {
  expect(
    brokenEdges({
      'src/tron/index.ts': "export { a } from './address.ts'\nexport { s } from './steps.ts'\n",
      'src/tron/address.ts': 'export const a = 1\n',
      'src/tron/steps.ts': "import { a } from './address.ts'\nexport const s = a\n",
      'src/tron/node/node.ts':
        "import { a } from '../address.ts'\nimport { r } from '../../chain/json-rpc.ts'\nexport const n = a + r\n",
      'src/tron/routes.ts':
        "import type { S } from '../control/state.ts'\nimport { p } from '../resources/pay/index.ts'\n",
      'src/control/state.ts': 'export type S = 1\n',
      'src/chain/json-rpc.ts': 'export const r = 1\n',
      'src/chain/start.ts':
        "import { n } from '../tron/node/node.ts'\nimport { s } from '../tron/steps.ts'\n",
      'src/contract/primitives.ts':
        "import { a } from '../tron/address.ts'\nimport { s } from '../tron/index.ts'\n",
      'src/resources/pay/index.ts': 'export const p = 1\n',
      'src/resources/pay/model.ts':
        "import { a } from '../../tron/index.ts'\nimport { s } from '../../tron/steps.ts'\n",
    }),
  ).toEqual([
    'src/chain/start.ts -> src/tron/steps.ts',
    'src/contract/primitives.ts -> src/tron/index.ts',
    'src/resources/pay/model.ts -> src/tron/steps.ts',
    'src/tron/routes.ts -> src/control/state.ts',
    'src/tron/routes.ts -> src/resources/pay/index.ts',
  ])
})
