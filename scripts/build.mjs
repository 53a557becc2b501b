// Compiles src/ to dist/ with the native TypeScript compiler, copies the data files the code reads at run time,
// and transpiles the built-in scenarios (scenarios/*.ts) to dist/scenarios/ so a compiled sandbox loads them
// without compiling TypeScript at start-up. `--out <name>` builds into another folder directly under the root
// (the code finds fixtures/ one level above its build folder); the jest example test uses its own.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { transformSync } from 'esbuild'
import { bundleDashboard, bundleDocs } from './build-dashboard.mjs'

const root = new URL('..', import.meta.url).pathname
const flag = process.argv.indexOf('--out')
const out = flag >= 0 ? process.argv[flag + 1] : 'dist'
if (!out || !/^[\w-]+$/.test(out))
  throw new Error('--out takes a folder name directly under the repository root')
const dist = `${root}${out}`

rmSync(dist, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`, '--outDir', dist],
  { stdio: 'inherit' },
)
cpSync(`${root}src/chain/artifacts`, `${dist}/chain/artifacts`, { recursive: true })
// the dashboard's files, with its script bundled afresh from src/control/dashboard/ui
cpSync(`${root}src/control/dashboard/assets`, `${dist}/control/dashboard/assets`, { recursive: true })
writeFileSync(`${dist}/control/dashboard/assets/app.js`, await bundleDashboard())
writeFileSync(`${dist}/control/dashboard/assets/docs.js`, await bundleDocs())

mkdirSync(`${dist}/scenarios`)
for (const file of readdirSync(`${root}scenarios`).filter((f) => f.endsWith('.ts'))) {
  // scenarios import the sources as ../src/x.ts; in the build they sit beside the compiled x.js
  const source = readFileSync(`${root}scenarios/${file}`, 'utf8').replace(
    /from '\.\.\/src\/([^']+)\.ts'/g,
    "from '../$1.js'",
  )
  const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'es2023' })
  writeFileSync(`${dist}/scenarios/${file.replace(/\.ts$/, '.js')}`, code)
}
