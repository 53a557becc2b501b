// A damaged page of state.db costs only the keys whose rows it holds: what can be read comes back, the keys whose
// records sat in the damaged page answer 503 (quarantined, named in the log), the file is rebuilt in place from what
// can be read, and a copy as found is kept beside it.
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { dispatchAs } from '../support/dispatch.ts'
import { openState } from '../support/state-db.ts'

const dirs: string[] = []
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function start(dir: string, log: (message: string) => void = () => {}): Promise<Sandbox> {
  await sandbox?.close()
  sandbox = null
  return createSandbox({ stateDir: dir, chain: false, log })
}

const call = dispatchAs(() => sandbox!)

const request = () => ({
  amount: '5',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: freshAddress(),
})

/** The pages of the file that hold `needle` (page numbers from 0). */
function pagesHolding(bytes: Buffer, needle: string, pageSize: number): Set<number> {
  const pages = new Set<number>()
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1))
    pages.add(Math.floor(at / pageSize))
  return pages
}

/**
 * A stopped state dir of four keys, each key's 60 requests written after the previous key's (its records fill pages
 * of their own), and one leaf page of the records table that holds the records of key `victim` only, overwritten.
 */
async function damagedDir(pick: (pages: number[]) => number, victimIndex: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-salvage-'))
  dirs.push(dir)
  sandbox = await start(dir)
  const keys = [newApiKey(), newApiKey(), newApiKey(), newApiKey()]
  const ids = new Map<string, string[]>()
  for (const key of keys) {
    ids.set(key, [])
    for (let i = 0; i < 60; i++) {
      const created = await call('POST', '/v2/request', key, request())
      expect(created.status).toBe(201)
      ids.get(key)!.push(created.body.requestId as string)
    }
  }
  await sandbox.close()
  sandbox = null
  const file = join(dir, 'state.db')
  const db = openState(dir)
  // every frame in the file itself, where a restart reads it
  db.pragma('wal_checkpoint(TRUNCATE)')
  // the leaf pages of the records table (sqlite's dbstat numbers pages from 1)
  const leaves = new Set(
    (
      db.prepare("SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf'").all() as {
        pageno: number
      }[]
    ).map((r) => r.pageno - 1),
  )
  db.close()
  const bytes = readFileSync(file)
  const pageSize = bytes.readUInt16BE(16)
  const victim = keys[victimIndex]!
  const others = keys.filter((k) => k !== victim)
  const otherPages = new Set(
    others.flatMap((k) => ids.get(k)!.flatMap((id) => [...pagesHolding(bytes, id, pageSize)])),
  )
  const candidates = [...new Set(ids.get(victim)!.flatMap((id) => [...pagesHolding(bytes, id, pageSize)]))]
    .filter((p) => leaves.has(p) && !otherPages.has(p))
    .sort((a, b) => a - b)
  expect(candidates.length).toBeGreaterThan(0)
  const page = pick(candidates)
  // the page's header and first cells overwritten: SQLite finds it malformed when a statement reaches it
  bytes.fill(0xa5, page * pageSize, page * pageSize + 64)
  writeFileSync(file, bytes)
  return { dir, file, bytes, keys, ids, victim, others }
}

function copiesKept(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith('state.db.corrupt-') && !/-(wal|shm)$/.test(f))
}

function quarantined(dir: string, tenant: string): { reason: string }[] {
  const db = openState(dir)
  try {
    return db.prepare('SELECT reason FROM quarantine WHERE tenant = ?').all(tenant) as { reason: string }[]
  } finally {
    db.close()
  }
}

describe('--state-dir: a damaged page of state.db', () => {
  it('rebuilt after a rebuild killed once it had kept its copy: that copy is the one kept, not a second', async () => {
    const { dir, file, bytes } = await damagedDir((pages) => pages.at(-1)!, 3)
    // a copy an earlier incident kept, of a file since replaced: older than the file, it stays and is not reused
    const older = `${file}.corrupt-2026-01-01T00-00-00-000Z`
    writeFileSync(older, bytes)
    utimesSync(older, new Date('2026-01-01'), new Date('2026-01-01'))
    // the copy of a rebuild of this same file that was killed before the rebuilt file took its place
    const killed = `${file}.corrupt-2026-12-01T00-00-00-000Z`
    writeFileSync(killed, bytes)
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${killed}-wal`)
    sandbox = await start(dir)
    expect(copiesKept(dir).sort()).toEqual([basename(older), basename(killed)])
    expect(readFileSync(killed).equals(bytes)).toBe(true)
  })

  it('holding the newest records: rebuilt at the start, only that key lost and named, the others all back', async () => {
    // the last leaf of the records table: the start reads it (the records written after the last index update)
    const { dir, file, bytes, ids, victim, others } = await damagedDir((pages) => pages.at(-1)!, 3)
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    const log = logged.join('\n')
    expect(log).toContain(`${file} is damaged`)
    expect(log).toContain('it was rebuilt from what could be read')
    expect(log).toContain(
      `Keys whose records were lost (they answer 503 until reset; see the quarantine table): ${victim.slice(0, 16)}…`,
    )
    for (const key of others) expect(log).not.toContain(key.slice(0, 16))
    // the other keys come back whole
    for (const key of others)
      for (const id of ids.get(key)!) expect((await call('GET', `/v2/request/${id}`, key)).status).toBe(200)
    const refused = await call('GET', `/v2/request/${ids.get(victim)![0]}`, victim)
    expect(refused.status).toBe(503)
    expect(refused.body.message).toMatch(/damaged page.*POST \/__sandbox\/reset/)
    // the file as found is kept beside the rebuilt one
    const copies = copiesKept(dir)
    expect(copies).toHaveLength(1)
    expect(readFileSync(join(dir, copies[0]!)).equals(bytes)).toBe(true)
    expect(
      quarantined(dir, victim)
        .map((q) => q.reason)
        .join(),
    ).toContain('damaged page')
    // a reset starts the key afresh; across a restart too
    expect((await call('POST', '/__sandbox/reset', victim)).status).toBeLessThan(300)
    expect((await call('POST', '/v2/request', victim, request())).status).toBe(201)
    sandbox = await start(dir)
    expect((await call('POST', '/v2/request', victim, request())).status).toBe(201)
    for (const key of others)
      expect((await call('GET', `/v2/request/${ids.get(key)![0]}`, key)).status).toBe(200)
  })

  it('in the middle of one key’s records: that key stops when its world is read, the next start rebuilds the file', async () => {
    const { dir, file, bytes, ids, victim, others } = await damagedDir(
      (pages) => pages[Math.floor(pages.length / 2)]!,
      1,
    )
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    for (const key of others)
      for (const id of ids.get(key)!) expect((await call('GET', `/v2/request/${id}`, key)).status).toBe(200)
    const refused = await call('GET', `/v2/request/${ids.get(victim)![0]}`, victim)
    expect(refused.status).toBe(503)
    expect(logged.join('\n')).toContain(`${file}: the records of key ${victim.slice(0, 16)}…`)
    const copies = copiesKept(dir)
    expect(copies).toHaveLength(1)
    expect(readFileSync(join(dir, copies[0]!)).equals(bytes)).toBe(true)
    // other keys write on meanwhile
    expect((await call('POST', '/v2/request', others[0]!, request())).status).toBe(201)
    // the next start rebuilds the file from what can be read: the key still stops, the others are whole
    const again: string[] = []
    sandbox = await start(dir, (m) => again.push(m))
    expect(again.join('\n')).toContain('it was rebuilt from what could be read')
    expect(again.join('\n')).toContain(victim.slice(0, 16))
    expect(copiesKept(dir)).toHaveLength(1)
    expect((await call('GET', `/v2/request/${ids.get(victim)![0]}`, victim)).status).toBe(503)
    for (const key of others)
      for (const id of ids.get(key)!) expect((await call('GET', `/v2/request/${id}`, key)).status).toBe(200)
    expect(quarantined(dir, victim).length).toBeGreaterThan(0)
    expect((await call('POST', '/__sandbox/reset', victim)).status).toBeLessThan(300)
    expect((await call('POST', '/v2/request', victim, request())).status).toBe(201)
    // nothing of the damage is left: a restart says nothing of it
    const last: string[] = []
    sandbox = await start(dir, (m) => last.push(m))
    expect(last.join('\n')).not.toContain('damaged')
    expect((await call('POST', '/v2/request', victim, request())).status).toBe(201)
  })

  it('in the index of which world each record belongs to: rebuilt from the records, no key lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-salvage-'))
    dirs.push(dir)
    sandbox = await start(dir)
    const keys = [newApiKey(), newApiKey(), newApiKey()]
    const ids = new Map<string, string>()
    for (const key of keys) {
      const created = await call('POST', '/v2/request', key, request())
      expect(created.status).toBe(201)
      ids.set(key, created.body.requestId as string)
    }
    await sandbox.close()
    sandbox = null
    const db = openState(dir)
    db.pragma('wal_checkpoint(TRUNCATE)')
    const pages = (
      db.prepare("SELECT pageno FROM dbstat WHERE name = 'record_worlds'").all() as { pageno: number }[]
    ).map((r) => r.pageno - 1)
    db.close()
    const file = join(dir, 'state.db')
    const bytes = readFileSync(file)
    const pageSize = bytes.readUInt16BE(16)
    for (const page of pages) bytes.fill(0xa5, page * pageSize, page * pageSize + 64)
    writeFileSync(file, bytes)
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    expect(logged.join('\n')).toContain('No key lost a record.')
    for (const key of keys) expect((await call('GET', `/v2/request/${ids.get(key)}`, key)).status).toBe(200)
    expect(copiesKept(dir)).toHaveLength(1)
  })

  it('in a leaf of that table no revival reads (its rows found through their index): found at the start, rebuilt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-salvage-'))
    dirs.push(dir)
    sandbox = await start(dir)
    const key = newApiKey()
    const created = await call('POST', '/v2/request', key, request())
    expect(created.status).toBe(201)
    await sandbox.close()
    sandbox = null
    // rows enough for record_worlds to span several leaves (of a world no key has), before the key's own
    const db = openState(dir)
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
      INSERT INTO records(seq, world, tbl, key, value) SELECT 1000000 + i, 999999, 'requests.requests', 'k' || i, '{}' FROM n;
      INSERT INTO record_worlds(seq, world) SELECT seq, world FROM records WHERE world = 999999;`)
    db.pragma('wal_checkpoint(TRUNCATE)')
    const leaves = (
      db
        .prepare("SELECT pageno FROM dbstat WHERE name = 'record_worlds' AND pagetype = 'leaf' ORDER BY path")
        .all() as { pageno: number }[]
    ).map((r) => r.pageno - 1)
    db.close()
    expect(leaves.length).toBeGreaterThan(2)
    // a leaf in the middle: neither the key's rows nor the newest (which the start's bulk update reads)
    const file = join(dir, 'state.db')
    const bytes = readFileSync(file)
    const pageSize = bytes.readUInt16BE(16)
    const page = leaves[Math.floor(leaves.length / 2)]!
    bytes.fill(0xa5, page * pageSize, page * pageSize + 64)
    writeFileSync(file, bytes)
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    expect(logged.join('\n')).toContain('No key lost a record.')
    expect(copiesKept(dir)).toHaveLength(1)
    expect((await call('GET', `/v2/request/${created.body.requestId}`, key)).status).toBe(200)
  })
})
