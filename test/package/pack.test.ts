// Installing request-sandbox from a clone, as the README's "In your app's tests (MSW)" says (it is not on the npm
// registry): `npm pack` in the clone, then the tarball installed into an app. Offline: the app gets a lock file made
// from this repository's (the dependencies' exact versions and integrity, whose tarballs npm's cache holds), so
// `npm ci --offline` installs the tarball and its dependency tree with npm as a user's project would, install
// scripts included, and the app imports `request-sandbox/msw` and answers a call through it.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  version: string
  dependencies: Record<string, string>
}
type LockEntry = {
  version?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  dev?: boolean
  devOptional?: boolean
  optional?: boolean
  peer?: boolean
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>
}

/** The lock entries an app with `names` installed needs: their dependency closure, as Node resolves it in the lock. */
function closure(names: string[]): Record<string, LockEntry> {
  const found: Record<string, LockEntry> = {}
  const resolve = (from: string, name: string) => {
    for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const path = `${dir ? `${dir}/` : ''}node_modules/${name}`
      if (lock.packages[path]) return path
      if (!dir) return undefined
    }
  }
  const visit = (path: string) => {
    if (found[path]) return
    const entry = lock.packages[path]!
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry
    found[path] = kept
    const optional = new Set(Object.keys(entry.optionalDependencies ?? {}))
    for (const [name, meta] of Object.entries(entry.peerDependenciesMeta ?? {}))
      if (meta.optional) optional.add(name)
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies }
    for (const name of Object.keys(wanted)) {
      const target = resolve(path, name)
      if (target) visit(target)
      else if (!optional.has(name)) throw new Error(`${path} needs ${name}: not in package-lock.json`)
    }
  }
  for (const name of names) visit(`node_modules/${name}`)
  return found
}

function run(command: string, args: string[], cwd: string, timeout = 300_000) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

const scratch = mkdtempSync(join(tmpdir(), 'request-sandbox-pack-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('request-sandbox installed from a packed clone (README.md, In your app’s tests)', () => {
  it('the README and docs/testing-with-msw.md say how to install it, not from the registry', () => {
    for (const file of ['README.md', 'docs/testing-with-msw.md']) {
      const text = readFileSync(join(root, file), 'utf8')
      expect(text, file).not.toMatch(/npm install (--save-dev )?request-sandbox\b/)
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme).toContain(
      `npm install --save-dev ../request-sandbox/${manifest.name}-${manifest.version}.tgz`,
    )
    expect(readme).toMatch(/`npm pack`/)
  })

  it('npm pack builds a tarball an app installs offline and imports request-sandbox/msw from', async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], root)
    expect(packed.code, packed.stderr).toBe(0)
    const [{ filename, files }] = JSON.parse(packed.stdout) as [
      { filename: string; files: { path: string }[] },
    ]
    expect(filename).toBe(`${manifest.name}-${manifest.version}.tgz`)
    const paths = files.map((f) => f.path)
    expect(paths).toEqual(
      expect.arrayContaining(['dist/msw.js', 'dist/msw.d.ts', 'dist/cli.js', 'bin/request-sandbox.mjs']),
    )
    expect(paths.filter((p) => p.endsWith('.test.ts'))).toEqual([])

    const app = join(scratch, 'app')
    const tarball = `file:../${filename}`
    const dependencies = Object.keys(manifest.dependencies)
    const devDependencies = { [manifest.name]: tarball, msw: lock.packages['node_modules/msw']!.version! }
    await import('node:fs').then((fs) => fs.mkdirSync(app))
    const pkg = { name: 'app', private: true, type: 'module', devDependencies }
    writeFileSync(join(app, 'package.json'), JSON.stringify(pkg))
    const packages: Record<string, unknown> = {
      '': { name: 'app', devDependencies },
      [`node_modules/${manifest.name}`]: {
        version: manifest.version,
        resolved: tarball,
        dev: true,
        dependencies: manifest.dependencies,
        peerDependencies: { msw: '^2.7.0' },
        peerDependenciesMeta: { msw: { optional: true } },
        bin: { 'request-sandbox': 'bin/request-sandbox.mjs' },
        engines: { node: '>=20.19' },
      },
    }
    for (const [path, entry] of Object.entries(closure([...dependencies, 'msw'])))
      packages[path] = { ...entry, dev: true }
    writeFileSync(
      join(app, 'package-lock.json'),
      JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }),
    )
    const installed = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], app)
    expect(installed.code, installed.stdout + installed.stderr).toBe(0)

    writeFileSync(
      join(app, 'check.mjs'),
      `import { createHandlers, createSandbox } from 'request-sandbox/msw'
import { setupServer } from 'msw/node'
const sandbox = await createSandbox({ chain: false })
const server = setupServer(...createHandlers(sandbox, { baseUrl: 'https://api.request.network' }))
server.listen({ onUnhandledRequest: 'error' })
const res = await fetch('https://api.request.network/v2/currencies?network=sepolia', { headers: { 'x-api-key': 'k' } })
console.log(res.status, (await res.json()).some((c) => c.id === 'FAU-sepolia'))
server.close()
await sandbox.close()
`,
    )
    const checked = await run(process.execPath, ['check.mjs'], app, 120_000)
    expect(checked.stderr).toBe('')
    expect(checked.stdout.trim()).toBe('200 true')
    const version = await run(join(app, 'node_modules/.bin/request-sandbox'), ['--version'], app, 60_000)
    expect(version.stdout.trim()).toContain(manifest.version)
  }, 600_000)
})
