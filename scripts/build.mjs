// Compiles src/ to dist/ with the native TypeScript compiler and copies the data files the code reads at run time.
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'

const root = new URL('..', import.meta.url).pathname
rmSync(`${root}dist`, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`],
  { stdio: 'inherit' },
)
cpSync(`${root}src/chain/artifacts`, `${root}dist/chain/artifacts`, { recursive: true })
