// `npm start` and the image's entrypoint run the same command: Node with the same options (the young generation's
// size, docs/decisions/2026-12-07-young-generation.md), then bin/request-sandbox.mjs. The benchmarks start the
// sandbox with npm start's options (bench/processes.ts `startOptionsOf`), so what they measure is what both run.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { startOptionsOf } from '../../bench/processes.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8')

it('gives the sandbox the same Node options under npm start and under docker run', () => {
  const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start.split(
    /\s+/,
  )
  const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(read('Dockerfile'))![1]!) as string[]
  expect(entrypoint).toEqual(start)
  expect(start[0]).toBe('node')
  expect(start.at(-1)).toBe('bin/request-sandbox.mjs')
  expect(start).toContain('--max-semi-space-size=32')
  expect(startOptionsOf(`${root}bin/request-sandbox.mjs`)).toEqual(start.slice(1, -1))
})
