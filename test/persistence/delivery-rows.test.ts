// --state-dir keeps on disk what memory keeps of webhook delivery records: a key keeps its newest 500, every key's
// together take at most the records' byte budget, and a record dropped from memory has its row in state.db deleted.
// A restart brings back at most what those bounds keep (the newest), and deletes the rows of the rest.
import { describe, expect, it } from 'vitest'
import { newApiKey } from '../support/clients.ts'
import { openState } from '../support/state-db.ts'
import { useTestSandbox } from '../support/test-sandbox.ts'
import { until } from '../support/wait.ts'

const t = useTestSandbox()

/** The delivery records a key keeps in memory (src/webhooks/limits.ts). */
const PER_KEY = 500

/** The ids of a key's delivery rows in state.db, in order (the driver cuts a text at its NUL: ids are read from the JSON). */
function rowIds(dir: string, apiKey: string): string[] {
  const db = openState(dir)
  try {
    const rows = db
      .prepare(
        "SELECT json_extract(value, '$.id') AS id FROM shared WHERE kind = 'delivery' AND key >= ? AND key < ? ORDER BY key",
      )
      .all(`${apiKey}\u0000`, `${apiKey}\u0001`) as { id: string }[]
    return rows.map((r) => r.id)
  } finally {
    db.close()
  }
}

/** The ids of the key's delivery records in memory, sorted (ULIDs: by time, to the millisecond). */
const memoryIds = (apiKey: string) =>
  t
    .current()
    .shared.webhooks.deliveries(apiKey)
    .map((d) => d.id)
    .sort()

/** The ids of the key's deliveries its call lists, sorted. */
async function listedIds(apiKey: string): Promise<string[]> {
  const listed = await t.call('GET', '/__sandbox/webhooks/deliveries', apiKey)
  expect(listed.status).toBe(200)
  return (listed.body as { id: string }[]).map((d) => d.id).sort()
}

/**
 * Registers `hooks` webhooks of `apiKey` (answered 200 in process) and sends `tests` test events to them: `hooks` ×
 * `tests` deliveries; resolves once every one was answered and written.
 */
async function deliver(apiKey: string, hooks: number, tests: number): Promise<void> {
  const sandbox = t.current()
  for (let i = 0; i < hooks; i++) {
    const url = `http://127.0.0.1:9/hook-${i}`
    sandbox.shared.webhooks.route(url, () => new Response('ok'))
    expect((await t.call('POST', '/v2/webhook', apiKey, { url })).status).toBe(201)
  }
  for (let i = 0; i < tests; i++)
    expect(
      (await t.call('POST', '/v2/webhook/test', apiKey, { eventType: 'payment.confirmed' })).status,
    ).toBe(201)
  await until(
    async () => sandbox.shared.webhooks.deliveries(apiKey),
    (list) => list.every((d) => d.state === 'delivered'),
    { timeoutMs: 30_000, what: 'every delivery answered' },
  )
  await sandbox.committed()
}

describe('webhook delivery records on disk', () => {
  it("deletes the row of each record a key's bound drops, and a restart brings back the newest 500", async () => {
    const dir = t.tempDir('sandbox-delivery-rows-')
    await t.start({ stateDir: dir, webhooks: { attemptsPerMinute: 10_000 } })
    const apiKey = newApiKey()
    // 20 webhooks × 30 test events: 600 deliveries, 100 past the bound
    await deliver(apiKey, 20, 30)
    const kept = memoryIds(apiKey)
    expect(kept).toHaveLength(PER_KEY)
    expect(rowIds(dir, apiKey)).toEqual(kept)

    await t.restart()
    // the key's first call brings its records back
    expect(await listedIds(apiKey)).toEqual(kept)
    expect(rowIds(dir, apiKey)).toEqual(kept)
  }, 60_000)

  it("keeps the newest 500 of a key's saved rows at a restart and deletes the rows of the others", async () => {
    const dir = t.tempDir('sandbox-delivery-rows-')
    await t.start({ stateDir: dir, webhooks: { attemptsPerMinute: 10_000 } })
    const apiKey = newApiKey()
    await deliver(apiKey, 20, 24)
    await t.stop()
    // 520 rows of the key, as a state dir written before the bound followed memory holds (or a kill before the
    // delete committed): 40 older than the key's records and 40 newer (ULIDs sort by time)
    const db = openState(dir)
    const [row] = db
      .prepare("SELECT value FROM shared WHERE kind = 'delivery' AND key >= ? AND key < ? LIMIT 1")
      .all(`${apiKey}\u0000`, `${apiKey}\u0001`) as { value: string }[]
    const insert = db.prepare("INSERT INTO shared(kind, key, value) VALUES ('delivery', ?, ?)")
    const added: string[] = []
    for (let i = 0; i < 80; i++) {
      const id = `${i < 40 ? '00000000000000' : '7ZZZZZZZZZZZZZ'}${String(i).padStart(12, '0')}`
      added.push(id)
      insert.run(`${apiKey}\u0000${id}`, JSON.stringify({ ...JSON.parse(row!.value), id }))
    }
    db.close()
    const saved = rowIds(dir, apiKey)
    expect(saved).toHaveLength(560)

    await t.start({ stateDir: dir, webhooks: { attemptsPerMinute: 10_000 } })
    const newest = saved.slice(-PER_KEY)
    expect(await listedIds(apiKey)).toEqual(newest)
    await t.current().committed()
    expect(rowIds(dir, apiKey)).toEqual(newest)
  }, 60_000)

  it("deletes the rows of the records the records' byte budget drops; a restart brings back no more", async () => {
    const dir = t.tempDir('sandbox-delivery-rows-')
    // about 1 KB a record: 40 KB keeps some 40 of the 100
    const options = { stateDir: dir, webhooks: { attemptsPerMinute: 10_000, recordBytesTotal: 40_000 } }
    await t.start(options)
    const apiKey = newApiKey()
    await deliver(apiKey, 5, 20)
    const kept = memoryIds(apiKey)
    expect(kept.length).toBeGreaterThan(10)
    expect(kept.length).toBeLessThan(100)
    expect(rowIds(dir, apiKey)).toEqual(kept)

    await t.restart()
    expect(await listedIds(apiKey)).toEqual(kept)
    expect(rowIds(dir, apiKey)).toEqual(kept)
  }, 60_000)
})
