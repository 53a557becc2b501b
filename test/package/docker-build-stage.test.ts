// The Dockerfile's build stage runs `node scripts/build.mjs` on the files its COPY lines bring, and nothing else:
// a build step that reads another file of the checkout (README.md, docs/) builds here and fails only in the image.
// The same inputs, copied into a scratch folder (node_modules linked, as `npm ci` would install them), must build.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'docker-build-stage-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

it("builds dist/ from exactly what the build stage's COPY lines bring", () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')
  const first = dockerfile.indexOf('\nFROM ')
  const stage = dockerfile.slice(first, dockerfile.indexOf('\nFROM ', first + 1))
  const copied = [...stage.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((m) =>
    m[1]!.trim().split(/\s+/).slice(0, -1),
  )
  expect(copied).toEqual(expect.arrayContaining(['package.json', 'scripts', 'src']))
  for (const path of copied) cpSync(join(root, path), join(scratch, path), { recursive: true })
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'))
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: scratch, stdio: 'pipe' })
  expect(existsSync(join(scratch, 'dist/cli.js'))).toBe(true)
}, 180_000)
