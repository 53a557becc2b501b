// A snapshot's restore is one commit: with --state-dir, every state of a key that state.db ever holds while a
// restore runs is the key as it was or as the snapshot holds it, never between (a kill -9 at any moment restarts
// from one of them). Each transaction the writer commits during the restore is read back from the file at once
// (what a restart killed right after it would load); then a real restart loads the restored key.
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { StateWriter } from '../../src/persistence/index.ts'
import { PaymentReferenceIndex } from '../../src/resources/requests/index.ts'
import { newApiKey } from '../support/clients.ts'
import { openState } from '../support/state-db.ts'
import { useTestSandbox } from '../support/test-sandbox.ts'

const { tempDir, start, restart, stop, call, createRequest: create } = useTestSandbox()

/** The ids of the key's requests that state.db holds (what a restart would load). */
function committedRequests(dir: string, tenant: string): string {
  const db = openState(dir)
  try {
    const rows = db
      .prepare(
        "SELECT r.key FROM records r JOIN worlds w ON w.id = r.world WHERE w.tenant = ? AND r.tbl = 'requests.requests'",
      )
      .all(tenant) as { key: string }[]
    return rows
      .map((r) => r.key)
      .sort()
      .join(',')
  } finally {
    db.close()
  }
}

describe('a snapshot restore with --state-dir', () => {
  it('commits the reset and the refill in one transaction: no committed state is the key emptied or half filled', async () => {
    const dir = tempDir('snapshot-atomic-')
    await start({ stateDir: dir })
    const key = newApiKey()
    // another key's world, so that the restore is not alone in the file
    await create(newApiKey(), 'OTHER')
    const kept = [await create(key, 'A1'), await create(key, 'A2'), await create(key, 'A3')]
    expect((await call('POST', '/__sandbox/snapshots', key, { name: 'three' })).status).toBe(201)
    await create(key, 'B1')
    await create(key, 'B2')
    const before = committedRequests(dir, key)
    const after = [...kept].sort().join(',')
    expect(before.split(',')).toHaveLength(5)

    // every transaction committed from now on, read back from the file as soon as it is in
    const seen: string[] = []
    const commit = StateWriter.prototype.commit
    vi.spyOn(StateWriter.prototype, 'commit').mockImplementation(function (this: StateWriter, ops) {
      commit.call(this, ops)
      seen.push(committedRequests(dir, key))
    })
    const restored = await call('POST', '/__sandbox/snapshots/three/restore', key)
    expect(restored.status, JSON.stringify(restored.body)).toBe(200)
    vi.restoreAllMocks()

    expect(seen.length).toBeGreaterThan(0)
    for (const state of seen) expect([before, after]).toContain(state)
    expect(seen.at(-1)).toBe(after)

    // a restart loads the restored key
    await restart()
    for (const id of kept) expect((await call('GET', `/v2/request/${id}`, key)).status).toBe(200)
    expect(committedRequests(dir, key)).toBe(after)
  }, 60_000)

  it('restarts, from the file as each commit of the restore left it, with the key before or after the restore', async () => {
    const dir = tempDir('snapshot-atomic-')
    await start({ stateDir: dir })
    const key = newApiKey()
    const kept = await create(key, 'A1')
    expect((await call('POST', '/__sandbox/snapshots', key, { name: 'one' })).status).toBe(201)
    const later = await create(key, 'B1')

    // a kill right after any commit of the restore leaves the file as it is then: a copy of it, each time
    const copies: string[] = []
    const commit = StateWriter.prototype.commit
    vi.spyOn(StateWriter.prototype, 'commit').mockImplementation(function (this: StateWriter, ops) {
      commit.call(this, ops)
      const copy = tempDir('snapshot-atomic-copy-')
      const db = openState(dir)
      try {
        db.exec(`VACUUM INTO '${join(copy, 'state.db')}'`)
      } finally {
        db.close()
      }
      copies.push(copy)
    })
    expect((await call('POST', '/__sandbox/snapshots/one/restore', key)).status).toBe(200)
    vi.restoreAllMocks()
    await stop()

    expect(copies.length).toBeGreaterThan(0)
    for (const copy of copies) {
      await start({ stateDir: copy })
      const found = [
        (await call('GET', `/v2/request/${kept}`, key)).status,
        (await call('GET', `/v2/request/${later}`, key)).status,
      ]
      // before: both requests; after: the first alone; never neither
      expect([
        [200, 200],
        [200, 404],
      ]).toContainEqual(found)
      await stop()
    }
  }, 60_000)

  it('answers 409 for a restore that fails half way through its fill, and leaves the key as it was, in memory and in the file', async () => {
    const dir = tempDir('snapshot-atomic-')
    await start({ stateDir: dir })
    const key = newApiKey()
    const kept = await create(key, 'A1')
    await create(key, 'A2')
    expect((await call('POST', '/__sandbox/snapshots', key, { name: 'two' })).status).toBe(201)
    const later = await create(key, 'B1')
    const before = committedRequests(dir, key)

    const seen: string[] = []
    const commit = StateWriter.prototype.commit
    vi.spyOn(StateWriter.prototype, 'commit').mockImplementation(function (this: StateWriter, ops) {
      commit.call(this, ops)
      seen.push(committedRequests(dir, key))
    })
    // the fill stops after the key was reset and its first records were in
    vi.spyOn(PaymentReferenceIndex.prototype, 'add').mockImplementationOnce(() => {
      throw new Error('stopped half way')
    })
    const restored = await call('POST', '/__sandbox/snapshots/two/restore', key)
    expect(restored.status, JSON.stringify(restored.body)).toBe(409)
    expect(restored.body.message).toContain('Snapshot two')
    vi.restoreAllMocks()
    for (const state of seen) expect(state).toBe(before)
    expect(committedRequests(dir, key)).toBe(before)
    expect((await call('GET', `/v2/request/${kept}`, key)).status).toBe(200)
    expect((await call('GET', `/v2/request/${later}`, key)).status).toBe(200)
  }, 60_000)
})
