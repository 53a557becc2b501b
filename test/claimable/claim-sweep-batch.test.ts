// A minute's sweep that finds many claims due (claims made in one burst, or a server stopped past their expiry)
// expires them and marks them deleted in one write of claims.json each, not a write of the whole file per claim:
// 1000 due claims held the event loop (every key's calls) 8 s in the sweep, and 8 s more marking them deleted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { prepareClaimable } from '../../src/claimable/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { waitFor } from '../support/wait.ts'

const dir = mkdtempSync(join(tmpdir(), 'claim-sweep-batch-'))
let sandbox: Sandbox | undefined
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

it('expires 1000 due claims in one sweep within a second, and marks their state deleted within another', async () => {
  const created = Date.parse('2026-12-01T12:00:00Z')
  const claims = Array.from({ length: 1000 }, (_, i) => ({
    key: `sk_sandbox_due${String(i).padStart(4, '0')}`,
    createdAt: new Date(created).toISOString(),
    expiresAt: new Date(created + 86_400_000).toISOString(),
    address: `198.51.${Math.floor(i / 20)}.0`,
  }))
  writeFileSync(join(dir, 'claims.json'), JSON.stringify({ format: 1, claims }), { mode: 0o600 })
  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  const now = created + 2 * 86_400_000
  const setup = prepareClaimable({ now: () => now, sweepMs: 3_600_000 }, dir)
  const claimable = setup.install(sandbox)
  try {
    const started = performance.now()
    claimable.sweep()
    const swept = performance.now() - started
    expect(claims.some((c) => setup.admitsKey(c.key))).toBe(false)
    const saved = () =>
      JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')).claims as {
        expiredAt?: string
        wiped?: true
      }[]
    // every key refused after a restart too
    expect(saved().filter((c) => c.expiredAt).length).toBe(1000)
    await waitFor(() => (saved().every((c) => c.wiped) ? true : undefined), {
      timeoutMs: 30_000,
      what: 'every due claim marked deleted in claims.json',
    })
    const deleted = performance.now() - started
    expect({ swept: swept < 1000, deleted: deleted < 2000 }).toEqual({ swept: true, deleted: true })
  } finally {
    claimable.close()
  }
}, 60_000)
