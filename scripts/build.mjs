// Compiles src/ to dist/ with the native TypeScript compiler, copies the data files the code reads at run time,
// and transpiles the built-in scenarios (scenarios/*.ts) to dist/scenarios/ so a compiled sandbox loads them
// without compiling TypeScript at start-up.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { transformSync } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
rmSync(`${root}dist`, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`],
  {
    stdio: 'inherit',
  },
)
cpSync(`${root}src/chain/artifacts`, `${root}dist/chain/artifacts`, { recursive: true })

mkdirSync(`${root}dist/scenarios`)
for (const file of readdirSync(`${root}scenarios`).filter((f) => f.endsWith('.ts'))) {
  // scenarios import the sources as ../src/x.ts; in dist they sit beside the compiled x.js
  const source = readFileSync(`${root}scenarios/${file}`, 'utf8').replace(
    /from '\.\.\/src\/([^']+)\.ts'/g,
    "from '../$1.js'",
  )
  const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'es2023' })
  writeFileSync(`${root}dist/scenarios/${file.replace(/\.ts$/, '.js')}`, code)
}
