// Snapshots cannot exhaust the disk or the memory: a key's snapshots are bounded in bytes, every key's together too
// (on disk with --state-dir, in memory without), and the state dir's volume keeps room for the state itself; past
// a bound a save answers 507 in the API's error shape naming the flag that raises it. A save the disk refuses
// (ENOSPC) or that comes out short answers 507 and keeps nothing, and other keys go on being served. Lists come from
// an index, not from reading every file. The write failures are injected into the store (no disk is filled).

import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { nodeSnapshotIo, SnapshotStore } from '../../src/snapshots/index.ts'
import { Tenants } from '../../src/store/tenants.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { useTestSandbox } from '../support/test-sandbox.ts'

const { start, call, current, tempDir: tempDirNamed, createRequest: create } = useTestSandbox()
const tempDir = () => tempDirNamed('snapshot-bounds-')

/** A key with three requests: a snapshot of it takes about 3 KB. */
async function keyWithRequests(): Promise<string> {
  const key = newApiKey()
  for (const reference of ['R1', 'R2', 'R3']) await create(key, reference)
  return key
}

const save = (key: string, name: string) => call('POST', '/__sandbox/snapshots', key, { name })
const names = async (key: string) =>
  ((await call('GET', '/__sandbox/snapshots', key)).body.snapshots as { name: string }[]).map((s) => s.name)
const keyFolder = (dir: string, key: string) =>
  join(dir, 'snapshots', createHash('sha256').update(key).digest('hex').slice(0, 32))

/** The API's error shape of a bound. */
function expect507(res: { status: number; body: Loose }, flag: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(507)
  expect(res.body).toMatchObject({ statusCode: 507, error: 'Insufficient Storage' })
  expect(res.body.message).toContain(flag)
}

describe('snapshot bounds', () => {
  it("bounds a key's snapshots in bytes: past it 507 naming --snapshot-key-mb; replacing one and deleting one make room", async () => {
    const dir = tempDir()
    await start({ stateDir: dir, snapshots: { keyBytes: 8000 } })
    const key = await keyWithRequests()
    expect((await save(key, 'one')).status).toBe(201)
    expect((await save(key, 'two')).status).toBe(201)
    const over = await save(key, 'three')
    expect507(over, '--snapshot-key-mb')
    expect(over.body.message).toContain('Snapshot three')
    // nothing of it kept
    expect(await names(key)).toEqual(['one', 'two'])
    expect(existsSync(join(keyFolder(dir, key), 'three.json'))).toBe(false)
    // a snapshot of an existing name replaces it: it fits
    expect((await save(key, 'two')).status).toBe(201)
    expect((await call('DELETE', '/__sandbox/snapshots/one', key)).status).toBe(200)
    expect((await save(key, 'three')).status).toBe(201)
    // another key has its own bound
    const other = await keyWithRequests()
    expect((await save(other, 'one')).status).toBe(201)
  })

  it("bounds every key's snapshots together, in memory without a state dir: 507 naming --snapshot-total-mb", async () => {
    await start({ snapshots: { keyBytes: 8000, totalBytes: 14_000 } })
    const first = await keyWithRequests()
    const second = await keyWithRequests()
    for (const key of [first, second]) {
      expect((await save(key, 'one')).status).toBe(201)
      expect((await save(key, 'two')).status).toBe(201)
    }
    const third = await keyWithRequests()
    expect507(await save(third, 'one'), '--snapshot-total-mb')
    expect(await names(third)).toEqual([])
    // the key is served as before, and room made by another key is room for it
    await create(third, 'R4')
    expect((await call('DELETE', '/__sandbox/snapshots/one', first)).status).toBe(200)
    expect((await save(third, 'one')).status).toBe(201)
  })

  it('answers 507 for a save the disk refuses (ENOSPC), keeps nothing of it, and goes on serving other keys and health', async () => {
    const dir = tempDir()
    await start({ stateDir: dir })
    const key = await keyWithRequests()
    expect((await save(key, 'kept')).status).toBe(201)
    // the volume fills up half way through the next file
    let full = false
    current().shared.snapshots = new SnapshotStore(join(dir, 'snapshots'), {
      io: {
        write(fd, buffer, offset, length) {
          if (full) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
          full = true
          return nodeSnapshotIo.write(fd, buffer, offset, Math.ceil(length / 2))
        },
      },
    })
    const refused = await save(key, 'cut')
    expect(refused.status, JSON.stringify(refused.body)).toBe(507)
    expect(refused.body).toMatchObject({ statusCode: 507, error: 'Insufficient Storage' })
    expect(refused.body.message).toMatch(
      /Snapshot cut could not be saved: the state dir's volume is full \(ENOSPC\)/,
    )
    // no file of it, whole or partial, and no temporary file left taking room
    expect(readdirSync(keyFolder(dir, key)).filter((f) => f !== '.summaries')).toEqual(['kept.json'])
    expect(await names(key)).toEqual(['kept'])
    // every other key, and health, are served as before; the key's own calls and snapshots too
    const other = newApiKey()
    await create(other, 'OTHER')
    expect((await call('GET', '/__sandbox/health', other)).status).toBe(200)
    await create(key, 'R4')
    expect((await call('POST', '/__sandbox/snapshots/kept/restore', key)).status).toBe(200)
  })

  it('never acknowledges a snapshot whose file came out short: its length is checked before it takes the name', async () => {
    const dir = tempDir()
    await start({ stateDir: dir })
    const key = await keyWithRequests()
    expect((await save(key, 'same')).status).toBe(201)
    const file = join(keyFolder(dir, key), 'same.json')
    const before = readFileSync(file, 'utf8')
    const later = await create(key, 'LATER')
    // a write that says it took every byte but kept half of them
    current().shared.snapshots = new SnapshotStore(join(dir, 'snapshots'), {
      io: {
        write(fd, buffer, offset, length) {
          nodeSnapshotIo.write(fd, buffer, offset, Math.ceil(length / 2))
          return length
        },
      },
    })
    const refused = await save(key, 'same')
    expect(refused.status, JSON.stringify(refused.body)).toBe(507)
    // the name still holds the snapshot it held, whole
    expect(readFileSync(file, 'utf8')).toBe(before)
    expect(readdirSync(keyFolder(dir, key)).filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect((await call('POST', '/__sandbox/snapshots/same/restore', key)).status).toBe(200)
    expect((await call('GET', `/v2/request/${later}`, key)).status).toBe(404)
  })

  it("keeps the state dir's volume from filling: a save that would leave less than the reserve free answers 507", async () => {
    const dir = tempDir()
    await start({ stateDir: dir })
    const key = await keyWithRequests()
    current().shared.snapshots = new SnapshotStore(join(dir, 'snapshots'), {
      io: { free: () => 64 * 1024 * 1024 + 1000 },
    })
    const refused = await save(key, 'big')
    expect(refused.status, JSON.stringify(refused.body)).toBe(507)
    expect(refused.body.message).toMatch(/keeps 64 MB of it for the state itself/)
    expect(await names(key)).toEqual([])
  })

  it('lists from an index: unchanged files are not read again, nor after a restart; a changed one is, and is named if damaged', async () => {
    const dir = tempDir()
    const reads: string[] = []
    const io = {
      read(path: string) {
        reads.push(path)
        return nodeSnapshotIo.read(path)
      },
    }
    const store = new SnapshotStore(dir, { io })
    const file = (name: string) => ({
      format: 1,
      name,
      tenant: 'key',
      savedAt: new Date(0).toISOString(),
      scenario: 'default',
      worlds: [],
      chains: [],
    })
    for (const name of ['a', 'b', 'c']) store.put(file(name))
    for (let i = 0; i < 3; i++)
      expect(
        store
          .list('key')
          .snapshots.map((s) => s.name)
          .sort(),
      ).toEqual(['a', 'b', 'c'])
    expect(reads).toEqual([])
    // a restart: the index kept beside the files is read, not the files
    const again = new SnapshotStore(dir, { io })
    expect(again.list('key').snapshots).toHaveLength(3)
    expect(reads).toEqual([])
    // a file cut short is read again (its size changed) and named
    const path = join(dir, createHash('sha256').update('key').digest('hex').slice(0, 32), 'b.json')
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 20))
    const listed = again.list('key')
    expect(listed.snapshots.map((s) => s.name).sort()).toEqual(['a', 'c'])
    expect(listed.damaged).toEqual([{ name: 'b', problem: expect.stringMatching(/not valid JSON/) }])
    expect(reads).toEqual([path])
    expect(again.usage('key').key).toBe(2 * JSON.stringify(file('a')).length + 20)
  })

  it('saves every world of the caller, one evicted to the state dir too, and reads no other key', async () => {
    const dir = tempDir()
    await start({ stateDir: dir, maxWorlds: 1 })
    const key = newApiKey()
    const first = await create(key, 'DEFAULT')
    // the key's second world pushes its first out of memory (to the state dir)
    expect((await call('PUT', '/__sandbox/scenario', key, { scenario: 'kyc-approved' })).status).toBe(200)
    // another key's world, on disk too: neither the save nor the restore walks every world (after a restart that
    // would bring every key's worlds back at once)
    const other = newApiKey()
    await create(other, 'OTHER')
    const everyWorld = vi.spyOn(Tenants.prototype, 'all')
    expect((await save(key, 'both')).status).toBe(201)
    const saved = JSON.parse(readFileSync(join(keyFolder(dir, key), 'both.json'), 'utf8'))
    expect(saved.worlds.map((w: { scenario: string }) => w.scenario).sort()).toEqual([
      'default',
      'kyc-approved',
    ])
    expect(saved.worlds.every((w: { tenant: string }) => w.tenant === key)).toBe(true)
    // the restore puts both back: the request of the evicted world is still there
    expect((await call('POST', '/__sandbox/snapshots/both/restore', key)).status).toBe(200)
    expect((await call('PUT', '/__sandbox/scenario', key, { scenario: 'default' })).status).toBe(200)
    expect((await call('GET', `/v2/request/${first}`, key)).status).toBe(200)
    expect(everyWorld).not.toHaveBeenCalled()
    vi.restoreAllMocks()
  })
})
