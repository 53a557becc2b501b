// A damaged state.db costs only the keys whose records sit in the damaged pages, in the real command: a state dir of
// one key with one request and 100 keys with 4 each, stopped, some of its pages zeroed (leaves of the records table,
// the index of which world each record belongs to, the newest worlds' rows with or without their index, a page of the
// journal), started again, every key called. A key whose rows are intact answers 200 for each of its requests; one
// whose rows were zeroed answers 503 saying what to do; none answers 404 or 500; a reset of a damaged key stops no
// other key's writes; keys an earlier run stopped although their rows were whole answer again, unless the rebuild
// lost records whose keys it cannot name.
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress } from '../support/chain.ts'
import { api, freshKey } from '../support/cli-sandbox.ts'
import { type ServerProcess, startServerProcess, stopServer } from '../support/kill-run.ts'
import { openState } from '../support/state-db.ts'

const root = mkdtempSync(join(tmpdir(), 'sandbox-damage-'))
const saved = join(root, 'saved')
let server: ServerProcess | undefined
afterAll(async () => {
  await stopServer(server)
  rmSync(root, { recursive: true, force: true })
})

const request = () => ({
  amount: '5',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: freshAddress(),
})

/** Each key, in the order it first wrote, with the ids of its requests. */
const keys: { key: string; ids: string[] }[] = []

beforeAll(async () => {
  server = await startServerProcess(['--no-chain', '--state-dir', saved])
  const create = async (entry: { key: string; ids: string[] }) => {
    const created = await api(server!.url, entry.key, 'POST', '/v2/request', request())
    expect(created.status).toBe(201)
    entry.ids.push(created.body.requestId as string)
  }
  const first = { key: freshKey('one'), ids: [] }
  keys.push(first)
  await create(first)
  for (let k = 0; k < 100; k++) {
    const entry = { key: freshKey(`k${k}`), ids: [] }
    keys.push(entry)
    await Promise.all([0, 1, 2, 3].map(() => create(entry)))
  }
  await stopServer(server)
  server = undefined
  // every frame in the file itself, where the pages are zeroed
  const db = openState(saved)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}, 60_000)

/**
 * A copy of a state dir (the saved one unless `from`) with the pages `choose` names (numbered from 0) zeroed; `pagesOf`
 * names those that hold a text.
 */
function damagedCopy(
  name: string,
  choose: (
    pages: { name: string; pageno: number; pagetype: string }[],
    pagesOf: (text: string) => number[],
  ) => number[],
  from = saved,
) {
  const dir = join(root, name)
  cpSync(from, dir, { recursive: true })
  const db = openState(dir)
  const pages = db.prepare('SELECT name, pageno - 1 AS pageno, pagetype FROM dbstat ORDER BY path').all() as {
    name: string
    pageno: number
    pagetype: string
  }[]
  db.close()
  const file = join(dir, 'state.db')
  const bytes = readFileSync(file)
  const pageSize = bytes.readUInt16BE(16)
  const before = Buffer.from(bytes)
  const pagesOf = (text: string) => {
    const found = new Set<number>()
    for (let at = before.indexOf(text); at !== -1; at = before.indexOf(text, at + 1))
      found.add(Math.floor(at / pageSize))
    return [...found]
  }
  const zeroed = choose(pages, pagesOf)
  expect(zeroed.length).toBeGreaterThan(0)
  for (const page of zeroed) bytes.fill(0, page * pageSize, (page + 1) * pageSize)
  writeFileSync(file, bytes)
  /** the keys with a request id, or their own row, in a zeroed page */
  const hit = new Set<string>()
  for (const { key, ids } of keys)
    for (const id of [key, ...ids]) if (pagesOf(id).some((p) => zeroed.includes(p))) hit.add(key)
  return { dir, hit }
}

/** Each key's answers to a read of each of its requests, in the order the keys first wrote. */
async function readEveryKey(
  dir: string,
  first?: (url: string) => Promise<void>,
): Promise<{ key: string; statuses: number[]; message?: string }[]> {
  server = await startServerProcess(['--no-chain', '--state-dir', dir])
  await first?.(server.url)
  const answers = []
  for (const { key, ids } of keys) {
    const statuses: number[] = []
    let message: string | undefined
    for (const id of ids) {
      const read = await api(server.url, key, 'GET', `/v2/request/${id}`)
      statuses.push(read.status)
      if (read.status !== 200) message = String(read.body.message)
    }
    answers.push({ key, statuses, message })
  }
  await stopServer(server)
  server = undefined
  return answers
}

describe('--state-dir: zeroed pages of state.db, in the real command', () => {
  it.each([
    ['in the middle', (leaves: number[]) => leaves.slice(leaves.length >> 1, (leaves.length >> 1) + 3)],
    ['at the start of the table', (leaves: number[]) => leaves.slice(0, 1)],
  ])(
    'a stretch of records %s: only the keys whose records it held stop, every other key answers',
    async (where, pick) => {
      // leaves of the records table (in rowid order: keys written one after another)
      const { dir, hit } = damagedCopy(`records-${where}`, (pages) =>
        pick(pages.filter((p) => p.name === 'records' && p.pagetype === 'leaf').map((p) => p.pageno)),
      )
      expect(hit.size).toBeGreaterThan(0)
      // the damage is met as the keys' worlds come back; the next start rebuilds the file, the one after finds nothing
      // to rebuild: the same answers after each (the keys that lost rows stay stopped until reset)
      for (const start of ['damaged', 'rebuilt', 'after']) {
        const answers = await readEveryKey(dir)
        const intact = answers.filter((a) => !hit.has(a.key))
        // keys whose records are intact are read back after the damaged ones too (in write order)
        expect(intact.findLastIndex(() => true)).toBeGreaterThan(answers.findIndex((a) => hit.has(a.key)))
        expect(intact.filter((a) => a.statuses.some((s) => s !== 200)).map((a) => [start, a.key])).toEqual([])
        for (const a of answers.filter((a) => hit.has(a.key))) {
          expect(a.statuses.every((s) => s === 503)).toBe(true)
          expect(a.message).toMatch(/damaged page.*POST \/__sandbox\/reset/)
        }
      }
    },
    30_000,
  )

  it('a record whose overflow page is damaged: the rebuild ends, that key stops, every other key answers', async () => {
    // one of the victim's records long enough to span several overflow pages, the middle one zeroed: its rowid reads
    // back, its value does not
    const victim = keys[40]!
    const from = join(root, 'overflow-more')
    cpSync(saved, from, { recursive: true })
    const db = openState(from)
    const pad = Array.from({ length: 400 }, (_, i) => `pad${String(i).padStart(4, '0')}-`.repeat(5)).join('')
    const changed = db
      .prepare(
        "UPDATE records SET value = json_set(value, '$.pad', ?) WHERE seq = (SELECT seq FROM records WHERE value LIKE '%' || ? || '%' ORDER BY seq LIMIT 1)",
      )
      .run(pad, victim.ids[0]!)
    expect(changed.changes).toBe(1)
    db.prepare("INSERT INTO meta(key, value) VALUES ('damaged', 'the records of a key')").run()
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    const { dir } = damagedCopy(
      'overflow',
      (pages, pagesOf) => {
        const overflow = new Set(
          pages.filter((p) => p.name === 'records' && p.pagetype === 'overflow').map((p) => p.pageno),
        )
        const middle = pagesOf('pad0200-').filter((p) => overflow.has(p))
        expect(middle).toHaveLength(1)
        return middle
      },
      from,
    )
    // the command itself, killed if it does not listen in time (a rebuild that never ends)
    const child = spawn(
      process.execPath,
      ['bin/request-sandbox.mjs', '--port', '0', '--quiet', '--no-chain', '--state-dir', dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const url = await new Promise<string | null>((resolve) => {
      let out = ''
      const timer = setTimeout(() => resolve(null), 20_000)
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk
        const match = /listening on (http:\/\/[^\s]+)/.exec(out)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    try {
      expect(url).not.toBeNull()
      const statuses = async (entry: { key: string; ids: string[] }) => {
        const found: number[] = []
        for (const id of entry.ids)
          found.push((await api(url!, entry.key, 'GET', `/v2/request/${id}`)).status)
        return found
      }
      expect((await statuses(victim)).every((s) => s === 503)).toBe(true)
      for (const other of [keys[0]!, keys[39]!, keys[41]!, keys[100]!])
        expect(await statuses(other)).toEqual(other.ids.map(() => 200))
    } finally {
      if (child.exitCode === null && child.signalCode === null)
        process.kill(child.pid!, url ? 'SIGTERM' : 'SIGKILL')
      await exited
    }
  }, 40_000)

  it('the index of which world each record belongs to: rebuilt from its table, every key answers', async () => {
    const { dir } = damagedCopy('index', (pages) =>
      pages.filter((p) => p.name === 'record_worlds_world').map((p) => p.pageno),
    )
    const answers = await readEveryKey(dir)
    expect(answers.filter((a) => a.statuses.some((s) => s !== 200)).map((a) => a.key)).toEqual([])
  }, 30_000)

  it.each([
    ['named by the index on worlds', false],
    ['the index on worlds damaged too: named by their journal', true],
  ])(
    'the rows of the newest worlds, %s: their keys stop; no new key reads their records',
    async (_, index) => {
      // the last leaf of the worlds table (the highest ids): their keys' records are intact, their settings are not
      const onPage = new Set<string>()
      const { dir } = damagedCopy(`worlds-${index}`, (pages, pagesOf) => {
        const leaves = pages.filter((p) => p.name === 'worlds' && p.pagetype === 'leaf').map((p) => p.pageno)
        expect(leaves.length).toBeGreaterThan(1)
        const last = leaves.at(-1)!
        for (const { key } of keys) if (pagesOf(key).includes(last)) onPage.add(key)
        const indexPages = pages.filter((p) => p.name === 'sqlite_autoindex_worlds_1').map((p) => p.pageno)
        return index ? [last, ...indexPages] : [last]
      })
      const newcomer = freshKey('new')
      let newcomerId = ''
      const answers = await readEveryKey(dir, async (url) => {
        const created = await api(url, newcomer, 'POST', '/v2/request', request())
        expect(created.status).toBe(201)
        newcomerId = created.body.requestId as string
      })
      const stopped = answers.filter((a) => a.statuses.some((s) => s !== 200))
      // the keys of the newest worlds are among them, told what happened; every key that answered does so whole
      expect(onPage.size).toBeGreaterThan(0)
      expect(stopped.map((a) => a.key).sort()).toEqual([...onPage].sort())
      for (const a of stopped) {
        expect(a.statuses.every((s) => s === 503)).toBe(true)
        expect(a.message).toMatch(/damaged page.*POST \/__sandbox\/reset/)
      }
      // a key new since the rebuild (the first to write: it takes the next world id) reads its own request back after
      // another restart, and no stopped key's
      const victim = keys.find((k) => onPage.has(k.key))!
      server = await startServerProcess(['--no-chain', '--state-dir', dir])
      expect((await api(server.url, newcomer, 'GET', `/v2/request/${newcomerId}`)).status).toBe(200)
      for (const id of victim.ids)
        expect((await api(server.url, newcomer, 'GET', `/v2/request/${id}`)).status).toBe(404)
      expect((await api(server.url, victim.key, 'GET', `/v2/request/${victim.ids[0]}`)).status).toBe(503)
      await stopServer(server)
      server = undefined
    },
    30_000,
  )

  it('a page of the journal: every key answers; a reset of a key whose journal it held stops no other key’s writes', async () => {
    // a key whose journal has a row in the zeroed page (its creates) and one past it (a read made later): the damage is
    // met when its journal is read, after the start
    const victim = keys[50]!
    const others = keys.filter((k) => k !== victim)
    const from = join(root, 'journal-more')
    cpSync(saved, from, { recursive: true })
    server = await startServerProcess(['--no-chain', '--state-dir', from])
    // every key reads once more: no key's last journal row (which the start reads) is in the zeroed page
    for (const { key, ids } of keys)
      expect((await api(server.url, key, 'GET', `/v2/request/${ids[0]}`)).status).toBe(200)
    await stopServer(server)
    server = undefined
    const db = openState(from)
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    const { dir } = damagedCopy(
      'journal',
      (pages, pagesOf) => {
        const leaves = new Set(
          pages.filter((p) => p.name === 'journal' && p.pagetype === 'leaf').map((p) => p.pageno),
        )
        const creates = pagesOf(victim.ids[1]!).filter((p) => leaves.has(p))
        expect(creates).toHaveLength(1)
        // the read's row (its path names the first request) is on another page, kept
        expect(
          pagesOf(victim.ids[0]!).filter((p) => leaves.has(p) && !creates.includes(p)).length,
        ).toBeGreaterThan(0)
        return creates
      },
      from,
    )
    let resetAt = ''
    const answers = await readEveryKey(dir, async (url) => {
      // the key's journal that could be read is left out (history), its calls answer; its reset starts it afresh
      resetAt = new Date().toISOString()
      expect((await api(url, victim.key, 'POST', '/__sandbox/reset')).status).toBeLessThan(300)
      expect((await api(url, victim.key, 'POST', '/v2/request', request())).status).toBe(201)
      for (const { key } of others.slice(0, 3))
        expect((await api(url, key, 'POST', '/v2/request', request())).status).toBe(201)
    })
    expect(answers.filter((a) => a.key !== victim.key && a.statuses.some((s) => s !== 200))).toEqual([])
    // the next start rebuilds the file: the reset key's old journal rows stay gone, the writes after the reset stay
    server = await startServerProcess(['--no-chain', '--state-dir', dir])
    const kept = (await api(server.url, victim.key, 'GET', '/__sandbox/journal?limit=2000')).body.entries as {
      at: string
      method: string
      status: number
    }[]
    expect(kept.filter((e) => e.method === 'POST' && e.status === 201)).toHaveLength(1)
    expect(kept.filter((e) => e.at < resetAt)).toEqual([])
    for (const { key, ids } of others.slice(0, 3))
      expect((await api(server.url, key, 'GET', `/v2/request/${ids[0]}`)).status).toBe(200)
    await stopServer(server)
    server = undefined
  }, 30_000)

  it('the journal’s last page, where its appends go: rebuilt at the start, the calls made after it are kept', async () => {
    const { dir } = damagedCopy('journal-last', (pages) => [
      pages.filter((p) => p.name === 'journal' && p.pagetype === 'leaf').at(-1)!.pageno,
    ])
    const { key, ids } = keys[1]!
    const marker = `/v2/request/${ids[0]}?after=damage`
    server = await startServerProcess(['--no-chain', '--state-dir', dir])
    expect((await api(server.url, key, 'GET', marker)).status).toBe(200)
    // the journal is appended within 200 ms of the call, and at the stop
    await stopServer(server)
    server = await startServerProcess(['--no-chain', '--state-dir', dir])
    const journal = (await api(server.url, key, 'GET', '/__sandbox/journal?limit=2000')).body.entries as {
      path: string
      query: Record<string, string>
    }[]
    await stopServer(server)
    server = undefined
    expect(journal.some((e) => e.path === `/v2/request/${ids[0]}` && e.query.after === 'damage')).toBe(true)
  }, 30_000)

  it.each([
    ['at the rebuild it marked', true],
    ['at a start with no rebuild due (an earlier rebuild ran)', false],
  ])(
    'keys an earlier run stopped for damage found elsewhere answer again %s',
    async (_, flagged) => {
      // what an earlier run leaves when a read of intact keys failed (the file marked for a rebuild, the keys stopped)
      const dir = join(root, `stopped-${flagged}`)
      cpSync(saved, dir, { recursive: true })
      const [whole, quarantined] = [keys[10]!, keys[11]!]
      const db = openState(dir)
      const stop = db.prepare("INSERT INTO shared(kind, key, value) VALUES ('broken', ?, ?)")
      stop.run(
        whole.key,
        JSON.stringify(
          `The saved state of this API key could not be read: some of its records in ${join(dir, 'state.db')} are in a damaged page of the file (key ${whole.key}). Restore a copy of the file and restart the sandbox, or reset the key (POST /__sandbox/reset) to start it afresh.`,
        ),
      )
      // a key stopped for a record that could not be read stays stopped
      stop.run(
        quarantined.key,
        JSON.stringify('The saved state of this API key could not be read: record x is not JSON.'),
      )
      if (flagged) db.prepare("INSERT INTO meta(key, value) VALUES ('damaged', 'the records of a key')").run()
      db.close()
      const answers = await readEveryKey(dir)
      expect(answers.filter((a) => a.statuses.some((s) => s !== 200)).map((a) => a.key)).toEqual([
        quarantined.key,
      ])
    },
    30_000,
  )

  it('a key an earlier run stopped for damage stays stopped when the rebuild cannot tell whose records it lost', async () => {
    // an earlier run met the key's records in a damaged page (stopped, the file marked); which world each record belongs
    // to is damaged too (record_worlds and its index): the rebuild cannot name the keys of the records it lost
    const victim = keys[30]!
    const { dir } = damagedCopy('stopped-untold', (pages, pagesOf) => {
      const leaves = new Set(
        pages.filter((p) => p.name === 'records' && p.pagetype === 'leaf').map((p) => p.pageno),
      )
      const records = pagesOf(victim.ids[0]!).filter((p) => leaves.has(p))
      expect(records).toHaveLength(1)
      const owners = pages
        .filter((p) => p.name === 'record_worlds' || p.name === 'record_worlds_world')
        .map((p) => p.pageno)
      return [...records, ...owners]
    })
    const db = openState(dir)
    db.prepare("INSERT INTO shared(kind, key, value) VALUES ('broken', ?, ?)").run(
      victim.key,
      JSON.stringify(
        `The saved state of this API key could not be read: some of its records in ${join(dir, 'state.db')} are in a damaged page of the file (key ${victim.key}). Restore a copy of the file and restart the sandbox, or reset the key (POST /__sandbox/reset) to start it afresh.`,
      ),
    )
    db.prepare("INSERT INTO meta(key, value) VALUES ('damaged', 'the records of a key')").run()
    db.close()
    // at the rebuild, and at the start after it (no rebuild due)
    for (const start of [1, 2]) {
      server = await startServerProcess(['--no-chain', '--state-dir', dir])
      const statuses: number[] = []
      for (const id of victim.ids)
        statuses.push((await api(server.url, victim.key, 'GET', `/v2/request/${id}`)).status)
      await stopServer(server)
      server = undefined
      expect({ start, statuses }).toEqual({ start, statuses: victim.ids.map(() => 503) })
    }
  }, 30_000)
})
