// The registry this project is developed against serves only the current platform's binary packages for some
// dependencies (Biome, anvil), so `npm install` writes a lock file without the other platforms' optional
// entries, and `npm ci` then refuses it. This adds the missing optional platform entries (os/cpu/libc read
// from the package name, as those packages declare them) so `npm ci` works here and on every platform.
// Run after changing dependencies: `node scripts/complete-lock.mjs` (`--check` exits 1 when entries are missing or
// the file is not written the way npm writes it).
//
// The file is written exactly as npm writes lock files (npm's arborist serialises with json-stringify-nice): in
// every object, the keys name, version, lockfileVersion, resolved, integrity, requires, packages, dependencies come
// first in that order, then the other non-object values, then the objects, each group sorted with
// localeCompare('en'). Writing keys in any other order makes the next `npm install` rewrite the lock (a clean
// clone turned dirty by its first command).
import { readFileSync, writeFileSync } from 'node:fs'

const path = new URL('../package-lock.json', import.meta.url)
const text = readFileSync(path, 'utf8')
const lock = JSON.parse(text)
const packages = lock.packages

const npmKeyOrder = [
  'name',
  'version',
  'lockfileVersion',
  'resolved',
  'integrity',
  'requires',
  'packages',
  'dependencies',
]
const isObject = (value) => !!value && typeof value === 'object' && !Array.isArray(value)
function compareKeys(a, b) {
  const ia = npmKeyOrder.indexOf(a)
  const ib = npmKeyOrder.indexOf(b)
  if (ia >= 0 || ib >= 0) return ia < 0 ? 1 : ib < 0 ? -1 : ia - ib
  return a.localeCompare(b, 'en')
}
/** The lock file's text as npm writes it. */
function npmText(value) {
  const sorted = (_key, val) =>
    isObject(val)
      ? Object.fromEntries(
          Object.entries(val).sort(([ak, av], [bk, bv]) =>
            isObject(av) === isObject(bv) ? compareKeys(ak, bk) : isObject(av) ? 1 : -1,
          ),
        )
      : val
  return `${JSON.stringify(value, sorted, 2)}\n`
}

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
const written = npmText(lock)
if (process.argv.includes('--check')) {
  if (added.length) {
    console.error(
      `package-lock.json lacks ${added.length} optional platform entries: run node scripts/complete-lock.mjs`,
    )
    process.exit(1)
  }
  if (written !== text) {
    console.error(
      'package-lock.json is not in the key order npm writes (npm install would rewrite it): run node scripts/complete-lock.mjs',
    )
    process.exit(1)
  }
} else if (written !== text) {
  writeFileSync(path, written)
  console.log(
    added.length
      ? `added ${added.length} optional platform entries:\n  ${added.join('\n  ')}`
      : 'package-lock.json rewritten in the key order npm writes',
  )
}
