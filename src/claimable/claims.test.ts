import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { type Claim, ClaimBook } from './claims.ts'

const dir = mkdtempSync(join(tmpdir(), 'claims-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('forgets the oldest deleted tombstones past the bound, never a claim whose state is still to delete', () => {
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
  // the oldest tombstone's deletion failed (its commit refused); 10,000 newer ones were deleted
  const claims: Claim[] = [
    { key: 'sk_sandbox_undeleted', createdAt: at(0), expiresAt: at(1), expiredAt: at(1) },
    ...Array.from({ length: 10_000 }, (_, i) => ({
      key: `sk_sandbox_${i}`,
      createdAt: at(i + 2),
      expiresAt: at(i + 3),
      expiredAt: at(i + 3),
      wiped: true as const,
    })),
  ]
  writeFileSync(join(dir, 'claims.json'), JSON.stringify({ format: 1, claims }))
  const book = new ClaimBook(dir)
  const fresh = book.create(Date.parse(at(20_000)), 1000)
  book.expired([fresh.key], Date.parse(at(20_001)))
  // still to delete: kept, so the next sweep or start deletes its state
  expect(book.unwiped().map((c) => c.key)).toEqual(['sk_sandbox_undeleted', fresh.key])
  // the two oldest deleted ones made room: 10,000 tombstones again
  expect([0, 1, 2].map((i) => book.get(`sk_sandbox_${i}`) !== undefined)).toEqual([false, false, true])
  const saved = JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')).claims as Claim[]
  expect(saved.some((c) => c.key === 'sk_sandbox_undeleted')).toBe(true)
})

it('stops on a claims.json that is not a claims file, naming it and what to do', () => {
  const damaged = mkdtempSync(join(dir, 'damaged-'))
  for (const text of ['', '{"format":1,"claims":[{"k', '{"format":1,"claims":[null]}', '[]']) {
    writeFileSync(join(damaged, 'claims.json'), text)
    expect(() => new ClaimBook(damaged)).toThrow(
      /claims\.json is not the claimable sandboxes' file .*put it back from your backup of the state dir, or move it away/,
    )
  }
})

it('makes a claims.json other users could read private again, and says so', () => {
  const exposed = mkdtempSync(join(dir, 'exposed-'))
  const file = join(exposed, 'claims.json')
  writeFileSync(file, JSON.stringify({ format: 1, claims: [] }))
  chmodSync(file, 0o644)
  const reported: string[] = []
  new ClaimBook(exposed, (message) => reported.push(message))
  expect((statSync(file).mode & 0o777).toString(8)).toBe('600')
  expect(reported).toEqual([expect.stringMatching(/claims\.json could be read by other users \(mode 644\)/)])
})
