// Without a state dir, a named snapshot is kept as the text a file would hold: nothing it holds is shared with the
// live records it was taken from, nor with the worlds a restore fills from it.
import { describe, expect, it } from 'vitest'
import { SNAPSHOT_FORMAT, type SnapshotFile, SnapshotStore } from './store.ts'

describe('SnapshotStore without a state dir', () => {
  it('keeps a snapshot as it was saved, whatever later happens to the objects it was made of', () => {
    const store = new SnapshotStore(null)
    const record = { requestId: 'r1', status: 'pending' }
    const rules = { latencyMs: 0 }
    const file: SnapshotFile = {
      format: SNAPSHOT_FORMAT,
      name: 'before',
      tenant: 'key',
      savedAt: new Date(0).toISOString(),
      scenario: 'default',
      worlds: [
        { tenant: 'key', scenario: 'default', rules, tables: { 'requests.requests': [record] }, maps: {} },
      ],
      chains: [],
    }
    store.put(file)
    // the live record and rules change in place after the save
    record.status = 'paid'
    rules.latencyMs = 500
    const restored = store.get('key', 'before')!
    expect(restored.worlds).toEqual([
      {
        tenant: 'key',
        scenario: 'default',
        rules: { latencyMs: 0 },
        tables: { 'requests.requests': [{ requestId: 'r1', status: 'pending' }] },
        maps: {},
      },
    ])
    // a restore that changes what it was given does not change the snapshot either
    ;(restored.worlds[0] as { rules: { latencyMs: number } }).rules.latencyMs = 9
    expect((store.get('key', 'before')!.worlds[0] as { rules: { latencyMs: number } }).rules.latencyMs).toBe(
      0,
    )
    expect(store.list('key').snapshots.map((s) => s.name)).toEqual(['before'])
  })
})
