// Bad data stays where it is: bodies nested past 64 levels are refused at the door (400 naming the field), a saved
// record that cannot be read back stops only its key (503 saying what to do; the row and its last good copy kept in
// quarantine), and a state dir of the previous version (state.json, journal.json) is imported once.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { readJournalText } from '../../src/control/journal.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { freshAddress } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { payerBody } from '../support/compliance.ts'
import type { Loose } from '../support/loose.ts'
import { openState } from '../support/state-db.ts'

const dirs: string[] = []
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-recovery-'))
  dirs.push(dir)
  return dir
}

/** Closes the running sandbox (if any) and starts one on `dir`, without a chain (a restart when it was there). */
async function start(dir: string, log: (message: string) => void = () => {}): Promise<Sandbox> {
  await sandbox?.close()
  sandbox = null
  return createSandbox({ stateDir: dir, chain: false, log })
}

/** Closes the running sandbox. */
async function stop(): Promise<void> {
  await sandbox?.close()
  sandbox = null
}

async function call(method: string, path: string, apiKey: string, body?: unknown, rawBody?: string) {
  const res = await sandbox!.dispatch({
    method,
    path,
    query: {},
    headers: { 'content-type': 'application/json', host: '127.0.0.1:8080', 'x-api-key': apiKey },
    rawBody: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  })
  return { status: res.status, body: res.body as Loose }
}

const request = () => ({
  amount: '5',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: freshAddress(),
})

/**
 * Starts a sandbox on `dir`, has three keys create 240 requests (each answered 201), and closes it (closing
 * checkpoints the WAL into state.db, more than 64 KB of it); answers the keys.
 */
async function fillAndStop(dir: string): Promise<string[]> {
  sandbox = await start(dir)
  const keys = [newApiKey(), newApiKey(), newApiKey()]
  for (let i = 0; i < 240; i++)
    expect((await call('POST', '/v2/request', keys[i % 3]!, request())).status).toBe(201)
  await stop()
  return keys
}

describe('--state-dir keeps bad data where it is', () => {
  it('refuses a body nested deeper than 64 levels with a 400 naming the field; 64 levels pass the door', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const apiKey = newApiKey()
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
    const deep = await call(
      'POST',
      '/__sandbox/events',
      apiKey,
      undefined,
      `{"type":"payment.confirmed","payload":${nested(100)}}`,
    )
    expect(deep.status).toBe(400)
    expect(deep.body.errors[0].field).toMatch(/^payload(\.a){63}$/)
    expect(deep.body.errors[0].message).toContain('64 levels')
    const arrays = await call(
      'POST',
      '/v2/request',
      apiKey,
      undefined,
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    )
    expect(arrays.status).toBe(400)
    // the body itself is level 1: payload at 63 more levels is still accepted (and saved)
    const ok = await call(
      'POST',
      '/__sandbox/events',
      apiKey,
      undefined,
      `{"type":"payment.confirmed","payload":${nested(62)}}`,
    )
    expect(ok.status).toBeLessThan(300)
    await stop()
  })

  it('stops only the key whose record is corrupt: 503 saying what to do, the row and its last good copy kept', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const [bad, good] = [newApiKey(), newApiKey()]
    expect((await call('POST', '/v2/payer', bad, payerBody())).status).toBe(200)
    // a status change: the row keeps the record before it as its last good copy
    const forced = await call('POST', '/__sandbox/payers/john.doe%40example.com/compliance', bad, {
      kycStatus: 'approved',
      agreementStatus: 'completed',
    })
    expect(forced.status).toBe(200)
    const created = await call('POST', '/v2/request', bad, request())
    const kept = await call('POST', '/v2/request', good, request())
    await stop()
    const db = openState(dir)
    // the payer's record truncated (not JSON), the request's amount a number (refused by its schema)
    db.prepare(
      "UPDATE records SET value = substr(value, 1, 40) WHERE world IN (SELECT id FROM worlds WHERE tenant = ?) AND tbl = 'payers.payers'",
    ).run(bad)
    const row = db
      .prepare(
        "SELECT value FROM records WHERE world IN (SELECT id FROM worlds WHERE tenant = ?) AND tbl = 'requests.requests'",
      )
      .get(bad) as { value: string }
    db.prepare(
      "UPDATE records SET value = ? WHERE world IN (SELECT id FROM worlds WHERE tenant = ?) AND tbl = 'requests.requests'",
    ).run(JSON.stringify({ ...JSON.parse(row.value), amount: 5 }), bad)
    db.close()
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    // worlds come back after the start (at the latest on their first call): the bad key's is read here
    const refused = await call('GET', `/v2/request/${created.body.requestId}`, bad)
    expect(logged.join('\n')).toContain(join(dir, 'state.db'))
    expect(logged.join('\n')).toContain('record payers.payers john.doe@example.com')
    expect(refused.status).toBe(503)
    expect(refused.body.message).toMatch(/could not be read.*quarantine.*POST \/__sandbox\/reset/)
    // the other key works
    expect((await call('GET', `/v2/request/${kept.body.requestId}`, good)).status).toBe(200)
    const check = openState(dir)
    const quarantined = check
      .prepare('SELECT tbl, value, previous, reason FROM quarantine WHERE tenant = ? ORDER BY tbl')
      .all(bad) as { tbl: string; value: string; previous: string | null; reason: string }[]
    check.close()
    expect(quarantined.map((q) => q.tbl)).toEqual(['payers.payers', 'requests.requests'])
    // the payer's last good copy (before its status change) is beside the corrupt one
    expect(JSON.parse(quarantined[0]!.previous!)).toMatchObject({ clientUserId: 'john.doe@example.com' })
    expect(quarantined[1]!.reason).toContain('refused by its schema')
    // a restart does not bring the key back without its records, silently: it still answers 503
    sandbox = await start(dir)
    const again = await call('GET', `/v2/request/${created.body.requestId}`, bad)
    expect(again.status).toBe(503)
    expect(again.body.message).toBe(refused.body.message)
    // a reset starts the key afresh, after a restart too
    expect((await call('POST', '/__sandbox/reset', bad)).status).toBeLessThan(300)
    expect((await call('POST', '/v2/request', bad, request())).status).toBe(201)
    sandbox = await start(dir)
    expect((await call('POST', '/v2/request', bad, request())).status).toBe(201)
    await stop()
  })

  it('answers 503 when a commit fails, and writes that batch again with the next one (no acknowledged change lost)', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const key = newApiKey()
    // every insert of a record fails (as a full disk would) while the trigger is there
    const db = openState(dir)
    db.exec(
      "CREATE TRIGGER fail_inserts BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
    )
    const failed = await call('POST', '/v2/request', key, request())
    expect(failed.status).toBe(503)
    expect(failed.body.message).toMatch(/could not save this change/)
    // the change stays (it is written with the next batch): a caller sending it again would make it twice
    expect(failed.body.message).toMatch(/kept in memory .* read it back before you send it again/)
    db.exec('DROP TRIGGER fail_inserts')
    db.close()
    const kept = await call('POST', '/v2/request', key, request())
    expect(kept.status).toBe(201)
    sandbox = await start(dir)
    // the key's world row went with the failed batch: written again, the acknowledged request comes back
    expect((await call('GET', `/v2/request/${kept.body.requestId}`, key)).status).toBe(200)
    await stop()
  })

  it('writes a failed batch before the next answer leaves, a read too: no 2xx reports a change not written', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const key = newApiKey()
    const db = openState(dir)
    db.exec(
      "CREATE TRIGGER fail_inserts BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
    )
    expect((await call('POST', '/v2/request', key, request())).status).toBe(503)
    db.exec('DROP TRIGGER fail_inserts')
    // the request is in memory: the read that shows it waits for its row (a kill -9 after it keeps it)
    const listed = await call('GET', '/v2/request', key)
    expect(listed.status).toBe(200)
    const rows = db.prepare("SELECT count(*) AS n FROM records WHERE tbl = 'requests.requests'").get() as {
      n: number
    }
    expect(rows.n).toBe(1)
    db.close()
    await stop()
  })

  it('appends the journal entries of a failed append with the next one, in their order', async () => {
    const dir = stateDir()
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    const key = newApiKey()
    const db = openState(dir)
    db.exec(
      "CREATE TRIGGER fail_journal BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
    )
    const first = await call('POST', '/v2/request', key, request())
    expect(first.status).toBe(201)
    // the journal is appended every 200 ms: this one fails
    await vi.waitFor(() => expect(logged.join('\n')).toMatch(/appending the journal .* failed/), {
      timeout: 5000,
    })
    db.exec('DROP TRIGGER fail_journal')
    db.close()
    const second = await call('POST', '/v2/request', key, request())
    expect(second.status).toBe(201)
    sandbox = await start(dir)
    const journal = (await call('GET', '/__sandbox/journal', key)).body.entries as Loose[]
    expect(
      journal.filter((e) => e.type === 'call' && e.method === 'POST').map((e) => e.responseBody.requestId),
    ).toEqual([second.body.requestId, first.body.requestId])
    await stop()
  })

  it('answers 503 within a bounded wait while another connection holds the file, and keeps the change', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const key = newApiKey()
    expect((await call('POST', '/v2/request', key, request())).status).toBe(201)
    // an operator's SQLite client in a write transaction: the commit runs on the event loop, so it must not wait long
    const db = openState(dir)
    db.exec('BEGIN IMMEDIATE')
    const started = Date.now()
    const blocked = await call('POST', '/v2/request', key, request())
    const waited = Date.now() - started
    db.exec('ROLLBACK')
    db.close()
    expect(blocked.status).toBe(503)
    expect(waited).toBeLessThan(5000)
    const next = await call('POST', '/v2/request', key, request())
    expect(next.status).toBe(201)
    sandbox = await start(dir)
    expect((await call('GET', `/v2/request/${next.body.requestId}`, key)).status).toBe(200)
    await stop()
  })

  it('starts with an empty state beside a state.db that is not a database, kept as it was', async () => {
    const dir = stateDir()
    writeFileSync(join(dir, 'state.db'), 'not a database '.repeat(500))
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    expect((await call('POST', '/v2/request', newApiKey(), request())).status).toBe(201)
    await stop()
    const aside = readdirSync(dir).filter((f) => f.startsWith('state.db.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toContain('not a database')
    expect(logged.join('\n')).toContain(`it is kept as ${join(dir, aside[0]!)}`)
  })

  it('starts beside a state.db truncated in the middle: the damaged file kept aside, logged, an empty state', async () => {
    const dir = stateDir()
    const keys = await fillAndStop(dir)
    // closing checkpoints the WAL into state.db: cut the file in the middle of its pages
    const file = join(dir, 'state.db')
    const size = statSync(file).size
    expect(size).toBeGreaterThan(64 * 1024)
    truncateSync(file, Math.floor(size / 2 / 4096) * 4096 + 1000)
    const cut = statSync(file).size
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    // it serves: the keys start afresh (what was in the damaged file is in the copy kept aside)
    expect((await call('POST', '/v2/request', keys[0]!, request())).status).toBe(201)
    await stop()
    const aside = readdirSync(dir).filter((f) => f.startsWith('state.db.corrupt-') && !/-(wal|shm)$/.test(f))
    expect(aside).toHaveLength(1)
    expect(statSync(join(dir, aside[0]!)).size).toBe(cut)
    expect(logged.join('\n')).toContain(`${file} could not be read`)
    expect(logged.join('\n')).toContain(`it is kept as ${join(dir, aside[0]!)}`)
  })

  it('starts beside a state.db whose pages in the middle are damaged: its keys answer 503 until reset, the sandbox serves', async () => {
    const dir = stateDir()
    const keys = await fillAndStop(dir)
    const file = join(dir, 'state.db')
    const bytes = readFileSync(file)
    // zeroes over a run of pages in the middle: the file opens, reading those pages fails
    bytes.fill(
      0,
      Math.floor(bytes.length / 2 / 4096) * 4096,
      Math.floor(bytes.length / 2 / 4096) * 4096 + 4 * 4096,
    )
    writeFileSync(file, bytes)
    const logged: string[] = []
    sandbox = await start(dir, (m) => logged.push(m))
    const answers = await Promise.all(keys.map((key) => call('POST', '/v2/request', key, request())))
    // the three keys' rows are interleaved, so each has some in the damaged pages: 503 saying how to recover
    for (const answer of answers) {
      expect(answer.status).toBe(503)
      expect(answer.body.message).toContain('are in a damaged page of the file')
      expect(answer.body.message).toContain('POST /__sandbox/reset')
    }
    // the sandbox serves: a new key works, and a damaged key works again once reset
    expect((await call('POST', '/v2/request', newApiKey(), request())).status).toBe(201)
    expect((await call('POST', '/__sandbox/reset', keys[0]!)).status).toBe(200)
    expect((await call('POST', '/v2/request', keys[0]!, request())).status).toBe(201)
    expect(logged.join('\n')).toContain(`${file} is damaged; a copy as it was found is kept as`)
    const aside = readdirSync(dir).filter((f) => f.startsWith('state.db.corrupt-') && !/-(wal|shm)$/.test(f))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, aside[0]!)).equals(bytes)).toBe(true)
    await stop()
  })

  it('imports a state dir of the previous version once, and refuses a state.db of another format', async () => {
    const dir = stateDir()
    const apiKey = newApiKey()
    const legacy = {
      format: 1,
      savedAt: new Date().toISOString(),
      worlds: [
        {
          tenant: apiKey,
          scenario: 'default',
          clockOffsetMs: 0,
          rules: {},
          seeded: {},
          tables: {},
          maps: {},
        },
      ],
      selections: [],
      webhooks: {
        hooks: [
          [
            apiKey,
            [
              {
                id: 'wh1',
                url: 'http://127.0.0.1:9/h',
                secret: 's',
                isActive: true,
                createdAt: new Date().toISOString(),
              },
            ],
          ],
        ],
        owners: [],
      },
      deliveries: [],
      directory: { clientIds: [], sessions: [], pageTokens: [] },
    }
    writeFileSync(join(dir, 'state.json'), JSON.stringify(legacy))
    sandbox = await start(dir)
    const created = await call('POST', '/v2/request', apiKey, request())
    expect(created.status).toBe(201)
    expect((await call('GET', '/v2/webhook', apiKey)).body).toEqual([expect.objectContaining({ id: 'wh1' })])
    await stop()
    expect(existsSync(join(dir, 'state.json'))).toBe(false)
    expect(existsSync(join(dir, 'state.json.imported'))).toBe(true)
    // imported once: the next start reads the database (the request made after the import is there)
    sandbox = await start(dir)
    expect((await call('GET', `/v2/request/${created.body.requestId}`, apiKey)).status).toBe(200)
    expect((await call('GET', '/v2/webhook', apiKey)).body).toHaveLength(1)
    await stop()
    const db = openState(dir)
    db.prepare("UPDATE meta SET value = '7' WHERE key = 'format'").run()
    db.close()
    await expect(createSandbox({ stateDir: dir, chain: false })).rejects.toThrow(
      /holds state.db format 7; this version of request-sandbox reads format 5: start with an empty --state-dir/,
    )
  })

  it('rewrites a state.db of format 2 (records keyed by tenant and key) as format 5 once, keeping every record', async () => {
    const dir = stateDir()
    const apiKey = newApiKey()
    sandbox = await start(dir)
    const created = await call('POST', '/v2/request', apiKey, request())
    expect(created.status).toBe(201)
    await stop()
    // the tables as the previous release wrote them (with the reference index's rows, which format 3 leaves out)
    const db = openState(dir)
    db.exec(`CREATE TABLE w2(tenant TEXT NOT NULL, scenario TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(tenant, scenario));
      INSERT INTO w2 SELECT tenant, scenario, value FROM worlds;
      CREATE TABLE r2(seq INTEGER PRIMARY KEY, tenant TEXT NOT NULL, scenario TEXT NOT NULL, tbl TEXT NOT NULL,
        key TEXT NOT NULL, value TEXT NOT NULL, previous TEXT);
      INSERT INTO r2 SELECT r.seq, w.tenant, w.scenario, r.tbl, r.key, r.value, r.previous FROM records r JOIN worlds w ON w.id = r.world;
      INSERT INTO r2(tenant, scenario, tbl, key, value) SELECT tenant, scenario, 'requests.requestsByReference',
        json_extract(value, '$.paymentReference'), json_quote(key) FROM r2 WHERE tbl = 'requests.requests';
      DROP TABLE records; DROP TABLE worlds; DROP TABLE record_worlds;
      ALTER TABLE r2 RENAME TO records; ALTER TABLE w2 RENAME TO worlds;
      CREATE UNIQUE INDEX records_key ON records(tenant, scenario, tbl, key);
      DROP TABLE journal; CREATE TABLE journal(seq INTEGER PRIMARY KEY, tenant TEXT NOT NULL, entry TEXT NOT NULL);
      UPDATE meta SET value = '2' WHERE key = 'format';`)
    db.close()
    sandbox = await start(dir)
    expect((await call('GET', `/v2/request/${created.body.requestId}`, apiKey)).status).toBe(200)
    const ref = created.body.paymentReference
    // the reference index is rebuilt from the requests (calldata by payment reference)
    expect((await call('GET', `/v1/request/${ref}/pay`, apiKey)).status).toBe(200)
    const next = await call('POST', '/v2/request', apiKey, request())
    expect(next.status).toBe(201)
    await stop()
    const check = openState(dir)
    const format = check.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string }
    const rows = check.prepare('SELECT tbl, key FROM records ORDER BY seq').all() as {
      tbl: string
      key: string
    }[]
    const worlds = check.prepare('SELECT count(*) AS n FROM record_worlds').get() as { n: number }
    check.close()
    expect(format.value).toBe('5')
    expect(rows).toEqual([
      { tbl: 'requests.requests', key: created.body.requestId },
      { tbl: 'requests.requests', key: next.body.requestId },
    ])
    expect(worlds.n).toBe(2)
  })

  it('rewrites a state.db of format 3 (records found by the index records_world) as format 5 once', async () => {
    const dir = stateDir()
    const [a, b] = [newApiKey(), newApiKey()]
    sandbox = await start(dir)
    const created = [
      await call('POST', '/v2/request', a, request()),
      await call('POST', '/v2/request', b, request()),
      await call('POST', '/v2/request', a, request()),
    ]
    for (const c of created) expect(c.status).toBe(201)
    await stop()
    // the schema as format 3 wrote it: no record_worlds table nor its triggers, the index on (world, seq)
    const db = openState(dir)
    db.exec(`DROP TRIGGER IF EXISTS records_added; DROP TRIGGER records_removed; DROP TABLE record_worlds;
      CREATE INDEX records_world ON records(world, seq);
      UPDATE meta SET value = '3' WHERE key = 'format';`)
    db.close()
    sandbox = await start(dir)
    for (const [i, key] of [a, b, a].entries())
      expect((await call('GET', `/v2/request/${created[i]!.body.requestId}`, key)).status).toBe(200)
    // the records of a key go with its reset; the other key's stay
    expect((await call('POST', '/__sandbox/reset', a)).status).toBeLessThan(300)
    const next = await call('POST', '/v2/request', b, request())
    expect(next.status).toBe(201)
    await stop()
    const check = openState(dir)
    const format = check.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string }
    const index = check.prepare("SELECT name FROM sqlite_master WHERE name = 'records_world'").get()
    const rows = check
      .prepare(
        'SELECT r.key, w.world = r.world AS same FROM records r JOIN record_worlds w ON w.seq = r.seq ORDER BY r.seq',
      )
      .all() as { key: string; same: number }[]
    const counts = check
      .prepare(
        'SELECT (SELECT count(*) FROM records) AS records, (SELECT count(*) FROM record_worlds) AS worlds',
      )
      .get() as { records: number; worlds: number }
    check.close()
    expect(format.value).toBe('5')
    expect(index).toBeUndefined()
    expect(rows).toEqual([
      { key: created[1]!.body.requestId, same: 1 },
      { key: next.body.requestId, same: 1 },
    ])
    expect([counts.records, counts.worlds]).toEqual([2, 2])
    sandbox = await start(dir)
    expect((await call('GET', `/v2/request/${created[0]!.body.requestId}`, a)).status).toBe(404)
    expect((await call('GET', `/v2/request/${next.body.requestId}`, b)).status).toBe(200)
    await stop()
  })

  it('marks a state.db of format 4 (record_worlds kept by a trigger, journal entries all JSON) as format 5, every record and journal entry back', async () => {
    const dir = stateDir()
    const [a, b] = [newApiKey(), newApiKey()]
    sandbox = await start(dir)
    const sent = [request(), request(), request()]
    const created = [
      await call('POST', '/v2/request', a, sent[0]),
      await call('POST', '/v2/request', b, sent[1]),
      await call('POST', '/v2/request', a, sent[2]),
    ]
    for (const c of created) expect(c.status).toBe(201)
    await stop()
    // the file as format 4 wrote it: the insert trigger, and each journal entry JSON (bodies as {$raw, bytes})
    const db = openState(dir)
    const rows = db.prepare('SELECT seq, entry FROM journal').all() as { seq: number; entry: string }[]
    expect(rows.some((r) => r.entry.startsWith('\u0001'))).toBe(true)
    const rewrite = db.prepare('UPDATE journal SET entry = ? WHERE seq = ?')
    for (const row of rows)
      rewrite.run(
        readJournalText(row.entry)
          .map((e) => JSON.stringify(e))
          .join('\u001e'),
        row.seq,
      )
    db.exec(`CREATE TRIGGER records_added AFTER INSERT ON records
        BEGIN INSERT INTO record_worlds(seq, world) VALUES (new.seq, new.world); END;
      UPDATE meta SET value = '4' WHERE key = 'format';`)
    db.close()
    sandbox = await start(dir)
    for (const [i, key] of [a, b, a].entries())
      expect((await call('GET', `/v2/request/${created[i]!.body.requestId}`, key)).status).toBe(200)
    const journal = (await call('GET', '/__sandbox/journal', a)).body.entries as Loose[]
    expect(
      journal
        .filter((e) => e.type === 'call' && e.method === 'POST')
        .map((e) => [e.requestBody.payee, e.responseBody.requestId]),
    ).toEqual([
      [sent[2]!.payee, created[2]!.body.requestId],
      [sent[0]!.payee, created[0]!.body.requestId],
    ])
    const next = await call('POST', '/v2/request', b, request())
    expect(next.status).toBe(201)
    await stop()
    const check = openState(dir)
    const format = check.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string }
    const trigger = check.prepare("SELECT name FROM sqlite_master WHERE name = 'records_added'").get()
    const counts = check
      .prepare(
        'SELECT (SELECT count(*) FROM records) AS records, (SELECT count(*) FROM record_worlds) AS worlds',
      )
      .get() as { records: number; worlds: number }
    check.close()
    expect(format.value).toBe('5')
    expect(trigger).toBeUndefined()
    expect([counts.records, counts.worlds]).toEqual([4, 4])
  })

  it('reads the records a run appended after its last update of record_worlds (a kill), and brings it up to date', async () => {
    const dir = stateDir()
    const [a, b] = [newApiKey(), newApiKey()]
    sandbox = await createSandbox({ stateDir: dir, chain: false, maxWorlds: 1, log: () => {} })
    const first = await call('POST', '/v2/request', a, request())
    expect(first.status).toBe(201)
    await stop()
    // as a kill leaves it: records the bulk update had not reached yet
    const db = openState(dir)
    db.exec('DELETE FROM record_worlds')
    db.close()
    sandbox = await createSandbox({ stateDir: dir, chain: false, maxWorlds: 1, log: () => {} })
    // the start brought record_worlds up to date
    const check = openState(dir)
    expect(check.prepare('SELECT count(*) AS n FROM record_worlds').get()).toMatchObject({ n: 1 })
    check.close()
    // a world evicted (--max-worlds 1) and read back at once, before its new records are in record_worlds
    const second = await call('POST', '/v2/request', a, request())
    expect((await call('POST', '/v2/request', b, request())).status).toBe(201)
    for (const created of [first, second])
      expect((await call('GET', `/v2/request/${created.body.requestId}`, a)).status).toBe(200)
    await stop()
  })

  it('refuses to start when the rewrite of format 3 fails, the file untouched; the next start rewrites it', async () => {
    const dir = stateDir()
    const key = newApiKey()
    sandbox = await start(dir)
    const created = await call('POST', '/v2/request', key, request())
    expect(created.status).toBe(201)
    await stop()
    const db = openState(dir)
    db.exec(`DROP TRIGGER IF EXISTS records_added; DROP TRIGGER records_removed; DROP TABLE record_worlds;
      CREATE INDEX records_world ON records(world, seq);
      UPDATE meta SET value = '3' WHERE key = 'format';
      CREATE TRIGGER fail_format BEFORE UPDATE ON meta BEGIN SELECT RAISE(ABORT, 'disk I/O error (test)'); END;`)
    db.close()
    // the rewrite fails at its last step (as a full disk or a crash would stop it): nothing of it is kept, and the
    // file is not taken for damaged (moved aside, an empty state served)
    await expect(createSandbox({ stateDir: dir, chain: false, log: () => {} })).rejects.toThrow(
      /disk I\/O error/,
    )
    expect(readdirSync(dir).filter((f) => f.includes('corrupt'))).toEqual([])
    const check = openState(dir)
    expect(check.prepare("SELECT value FROM meta WHERE key = 'format'").get()).toMatchObject({ value: '3' })
    check.exec('DROP TRIGGER fail_format')
    check.close()
    sandbox = await start(dir)
    expect((await call('GET', `/v2/request/${created.body.requestId}`, key)).status).toBe(200)
    await stop()
  })
})

describe('--state-dir keeps what a hostile caller stores', () => {
  it('brings back every record of a key whose payer id holds NUL and the row separators', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const key = newApiKey()
    const ids = ['a\u0000b', 'c\u001ed', 'e\u001ff', '\u0001g', 'é\u007f']
    for (const clientUserId of ids)
      expect((await call('POST', '/v2/payer', key, payerBody({ clientUserId }))).status).toBe(200)
    const created = await call('POST', '/v2/request', key, request())
    expect(created.status).toBe(201)
    sandbox = await start(dir)
    expect((await call('GET', `/v2/request/${created.body.requestId}`, key)).status).toBe(200)
    for (const clientUserId of ids)
      expect((await call('GET', `/v2/payer/${encodeURIComponent(clientUserId)}`, key)).status).toBe(200)
    await stop()
  })

  it('brings back the journal entries after a call whose raw body holds NUL', async () => {
    const dir = stateDir()
    sandbox = await start(dir)
    const key = newApiKey()
    expect((await call('POST', '/v2/request', key, undefined, '{"a":"x\u0000y"')).status).toBe(400)
    const created = await call('POST', '/v2/request', key, request())
    expect(created.status).toBe(201)
    sandbox = await start(dir)
    const journal = (await call('GET', '/__sandbox/journal', key)).body.entries as Loose[]
    const posts = journal.filter((e) => e.type === 'call' && e.method === 'POST')
    expect(posts.map((e) => e.status).sort()).toEqual([201, 400])
    await stop()
  })
})
