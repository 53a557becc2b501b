// A kill at any moment of an expired claim's deletion converges to "deleted": the server is killed (SIGKILL) 0, 1, 2 or 8
// event-loop turns after the call that expires a claim (its deletes made in memory, their commit to state.db and the
// mark in claims.json still to come, or done); the next start finishes what was marked, so none of the claim's rows
// or snapshot files stay, and the live claim's and the operator's state is untouched.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer } from '../../src/server.ts'
import { openState } from '../support/state-db.ts'
import { waitFor } from '../support/wait.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** state.db's rows of `key`: worlds, journal, and the shared rows naming it (webhooks, scenario, deliveries). */
function rowsOf(dir: string, key: string): Record<string, number> {
  const db = openState(dir)
  try {
    const count = (sql: string) => (db.prepare(sql).get(key) as { n: number }).n
    const rows: Record<string, number> = {
      worlds: count('SELECT count(*) AS n FROM worlds WHERE tenant = ?'),
      journal: count('SELECT count(*) AS n FROM journal WHERE tenant = ?'),
    }
    const shared = db
      .prepare('SELECT kind FROM shared WHERE instr(key, ?) > 0 OR instr(value, ?) > 0')
      .all(key, key) as { kind: string }[]
    for (const { kind } of shared) rows[kind] = (rows[kind] ?? 0) + 1
    return Object.fromEntries(Object.entries(rows).filter(([, n]) => n > 0))
  } finally {
    db.close()
  }
}
/**
 * `after` keeps every row of `before`. Their webhook's deliveries (example.com, not reached from here) are retried
 * after the restart, each attempt a new journal row of the key: its journal may only have grown.
 */
function expectKept(after: Record<string, number>, before: Record<string, number>): void {
  const { journal, ...rest } = after
  const { journal: journalBefore, ...restBefore } = before
  expect(rest).toEqual(restBefore)
  expect(journal).toBeGreaterThanOrEqual(journalBefore ?? 0)
}
const snapshotFiles = (dir: string, key: string) => {
  const folder = join(dir, 'snapshots', createHash('sha256').update(key).digest('hex').slice(0, 32))
  return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')) : []
}

/** Runs the child that sets up three keys and kills itself `turns` turns after the claim's expiring call. */
function killedRun(dir: string, turns: number): Promise<{ doomed: string; live: string; clock: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/support/claim-kill-child.ts', dir, String(turns)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk
    })
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child ended with ${code ?? signal}: ${out}${err}`))
      resolve(JSON.parse(out.split('\n')[0]!))
    })
  })
}

describe("an expired claim's deletion under kill -9", () => {
  for (const turns of [0, 1, 2, 8])
    it(`killed ${turns} turns after the expiring call: the next start leaves none of its state, and all of the others'`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'claim-wipe-kill-'))
      dirs.push(dir)
      const { doomed, live, clock } = await killedRun(dir, turns)
      // what the kill left on disk of each key
      const before = { live: rowsOf(dir, live), operator: rowsOf(dir, 'sk_operator') }
      expect(Object.keys(before.live)).toEqual(
        expect.arrayContaining(['worlds', 'journal', 'globals', 'delivery']),
      )
      const server = await startServer({
        port: 0,
        chain: false,
        apiKeys: ['sk_operator'],
        stateDir: dir,
        claimable: { now: () => clock },
      })
      try {
        await waitFor(
          () =>
            Object.keys(rowsOf(dir, doomed)).length === 0 &&
            snapshotFiles(dir, doomed).length === 0 &&
            JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')).claims.find(
              (c: { key: string }) => c.key === doomed,
            )?.wiped === true
              ? true
              : undefined,
          { timeoutMs: 5_000 },
        ).catch(() => undefined)
        expect(rowsOf(dir, doomed)).toEqual({})
        expect(snapshotFiles(dir, doomed)).toEqual([])
        // the live claim and the operator's key keep everything: rows, snapshot, scenario
        expectKept(rowsOf(dir, live), before.live)
        expectKept(rowsOf(dir, 'sk_operator'), before.operator)
        for (const key of [live, 'sk_operator']) {
          expect(snapshotFiles(dir, key), key).toEqual(['before.json'])
          const scenario = await fetch(`${server.url}/__sandbox/scenario`, { headers: { 'x-api-key': key } })
          expect(JSON.stringify(await scenario.json()), key).toContain('kyc-approved')
        }
        const expired = await fetch(`${server.url}/__sandbox/clock`, { headers: { 'x-api-key': doomed } })
        expect(expired.status).toBe(401)
      } finally {
        await server.close()
      }
      // and the claim is marked: a further start has nothing left to delete
      const claims = JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')).claims
      expect(claims.find((c: { key: string }) => c.key === doomed)).toMatchObject({ wiped: true })
      expect(claims.find((c: { key: string }) => c.key === live)).not.toHaveProperty('expiredAt')
    }, 60_000)
})
