// What the container files hold for a shared demo. The image serves what a checkout serves: every folder outside src/
// the server reads at run time (through a URL built from its own import.meta.url: fixtures, scenarios, the guides of
// /llms.txt in docs/, package.json) is copied into the Dockerfile's runtime stage (a folder left out answers 500 only in
// the container, as /llms.txt did). compose.yaml publishes the demo on loopback only, for the proxy in front of it.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'ui' ? [] : sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The top-level entries (folders or files) outside src/ that the server's code reads beside itself. */
function readAtRunTime(): Set<string> {
  const read = new Set<string>()
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8')
    for (const [, path] of text.matchAll(/new URL\(\s*['`](\.\.?\/[^'`$]*)/g)) {
      const target = relative(root, resolve(dirname(file), path!))
      const top = target.split('/')[0]!
      if (top && top !== 'src' && !top.startsWith('..')) read.add(top)
    }
  }
  return read
}

it('copies into the runtime stage every folder the server reads beside its code (docs/ included)', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))
  const copied = new Set(
    [...runtime.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((m) =>
      m[1]!
        .trim()
        .split(/\s+/)
        .slice(0, -1)
        .map((p) => p.replace(/^\.\//, '').replace(/\/$/, '')),
    ),
  )
  const read = readAtRunTime()
  expect([...read]).toEqual(expect.arrayContaining(['docs', 'fixtures', 'scenarios']))
  expect([...read].filter((entry) => !copied.has(entry))).toEqual([])
})

it('publishes the shared demo of compose.yaml on loopback only, in strict mode, its state on a named volume', () => {
  const compose = readFileSync(join(root, 'compose.yaml'), 'utf8')
  const ports = [...compose.matchAll(/^\s+- "([^"]+):8080"$/gm)].map((m) => m[1]!)
  expect(ports.length).toBeGreaterThan(0)
  // host:port with the host defaulting to loopback: the TLS proxy on the host is the only way in
  for (const published of ports) expect(published).toMatch(/^\$\{SANDBOX_BIND:-127\.0\.0\.1\}:/)
  // strict mode and an admin key cannot be left out, the state is on the named volume
  expect(compose).toMatch(/SANDBOX_API_KEYS: \$\{SANDBOX_API_KEYS:\?/)
  expect(compose).toMatch(/SANDBOX_ADMIN_KEY: \$\{SANDBOX_ADMIN_KEY:\?/)
  expect(compose).toMatch(/SANDBOX_STATE_DIR: \/data/)
  expect(compose).toMatch(/- sandbox-data:\/data/)
  expect(compose).not.toMatch(/--(seed|rpc-admin|portal|claimable)\b/)
})
