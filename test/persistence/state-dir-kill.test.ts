// Acknowledged means kept: the real server with --state-dir, SIGKILLed twice during bursts of creates and status
// changes over 10 keys, restarted each time (once with 3 worlds in memory: evictions and revivals under way at each
// kill): every object that answered 2xx is back, with its status. The long run
// (thousands of objects, more kills) is bench/state.ts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killRun } from '../support/kill-run.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('--state-dir under kill -9', () => {
  it('loses no acknowledged object or status over 2 kills', async () => {
    const result = await killRun({ dir, keys: 10, objects: 300, kills: 2, args: ['--no-chain'] })
    expect(result.acknowledged).toBeGreaterThanOrEqual(300)
    expect(result.statuses).toBeGreaterThan(20)
    expect(result.lost).toEqual([])
  }, 120_000)

  it('loses nothing acknowledged when killed while worlds are evicted and read back (--max-worlds 3, 10 keys)', async () => {
    const evictDir = mkdtempSync(join(tmpdir(), 'sandbox-kill-evict-'))
    try {
      const result = await killRun({
        dir: evictDir,
        keys: 10,
        objects: 300,
        kills: 2,
        args: ['--no-chain', '--max-worlds', '3'],
      })
      expect(result.acknowledged).toBeGreaterThanOrEqual(300)
      expect(result.lost).toEqual([])
    } finally {
      rmSync(evictDir, { recursive: true, force: true })
    }
  }, 120_000)
})
