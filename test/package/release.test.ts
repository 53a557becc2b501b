// `npm run release` (scripts/release.mjs): a dry run unless the maintainer passes --publish. Run in a copy of this
// checkout made a git repository of its own (node_modules linked): on a clean tree it builds and shows what
// `npm publish` would send, publishing nothing; it refuses a tree with uncommitted changes and --publish without the
// suite.
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
let copy: string

function release(args: string[]) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      process.execPath,
      ['scripts/release.mjs', ...args],
      { cwd: copy, timeout: 300_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    )
  })
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'request-sandbox-release-'))
  // the checkout's files as they are (committed or not, ignored ones left out), committed in a repository of their own
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
  })
  execFileSync('tar', ['-c', '--null', '-T', '-', '-f', join(copy, 'files.tar')], { cwd: root, input: files })
  execFileSync('tar', ['-x', '-f', 'files.tar'], { cwd: copy })
  rmSync(join(copy, 'files.tar'))
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: copy })
  git('init', '-q')
  git('add', '-A')
  git('commit', '-q', '-m', 'release candidate')
}, 120_000)
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

describe('npm run release (scripts/release.mjs)', () => {
  it('without --publish: checks the tree, builds, and only dry-runs npm publish', async () => {
    const { code, out } = await release(['--skip-tests'])
    expect(out).toMatch(/release: the tree is clean at [0-9a-f]{40}/)
    expect(out).toContain('release: the build: node scripts/build.mjs')
    expect(out).toContain('npm publish --dry-run --access public --ignore-scripts')
    expect(out).toMatch(/\(dry-run\)/)
    expect(out).toMatch(/\+ request-sandbox@\d+\.\d+\.\d+/)
    expect(out).not.toContain('--provenance')
    expect(out).toContain('nothing was published')
    expect(code).toBe(0)
  }, 300_000)

  it('refuses --publish without the suite, and a tree with uncommitted changes', async () => {
    const skipping = await release(['--publish', '--skip-tests'])
    expect(skipping.code).toBe(1)
    expect(skipping.out).toContain('cannot be combined with --skip-tests')
    expect(skipping.out).not.toContain('npm publish')
    writeFileSync(join(copy, 'stray.txt'), 'not committed\n')
    const dirty = await release(['--skip-tests'])
    expect(dirty.code).toBe(1)
    expect(dirty.out).toContain('uncommitted changes')
    expect(dirty.out).toContain('stray.txt')
    expect(dirty.out).not.toContain('npm publish')
  }, 60_000)
})
