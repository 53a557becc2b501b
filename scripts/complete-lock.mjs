// The registry this project is developed against serves only the current platform's binary packages for some
// dependencies (Biome, anvil), so `npm install` writes a lock file without the other platforms' optional
// entries, and `npm ci` then refuses it. This adds the missing optional platform entries (os/cpu/libc read
// from the package name, as those packages declare them) so `npm ci` works here and on every platform.
// Run after changing dependencies: `node scripts/complete-lock.mjs` (`--check` exits 1 when entries are missing).
import { readFileSync, writeFileSync } from 'node:fs'

const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const packages = lock.packages

function platformOf(name) {
  const tokens = name.split('/').pop().split('-')
  const os = [
    'darwin',
    'linux',
    'win32',
    'android',
    'freebsd',
    'openbsd',
    'netbsd',
    'sunos',
    'aix',
    'openharmony',
  ].find((o) => tokens.includes(o))
  const cpuToken = [
    'arm64',
    'x64',
    'amd64',
    'ia32',
    'arm',
    'loong64',
    'ppc64',
    'riscv64',
    's390x',
    'mips64el',
  ].find((c) => tokens.includes(c))
  if (!os || !cpuToken) return null
  const entry = { os: [os], cpu: [cpuToken === 'amd64' ? 'x64' : cpuToken] }
  if (os === 'linux') entry.libc = [tokens.includes('musl') ? 'musl' : 'glibc']
  return entry
}

const added = []
const unknown = []
for (const [key, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${dep}`
    if (packages[target]) continue
    const platform = platformOf(dep)
    if (!platform) {
      unknown.push(`${dep}@${version} (for ${key || 'root'})`)
      continue
    }
    packages[target] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform }
    added.push(`${dep}@${version} (for ${key || 'root'})`)
  }
}
if (unknown.length) {
  console.error(
    `optional dependencies missing from the lock whose platform is not recognised:\n  ${unknown.join('\n  ')}`,
  )
  process.exit(1)
}
if (process.argv.includes('--check')) {
  if (added.length) {
    console.error(
      `package-lock.json lacks ${added.length} optional platform entries: run node scripts/complete-lock.mjs`,
    )
    process.exit(1)
  }
} else if (added.length) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  )
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
  console.log(`added ${added.length} optional platform entries:\n  ${added.join('\n  ')}`)
}
