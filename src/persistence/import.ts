// A state dir written by the previous version (format 1: state.json, journal.json, chain-<network>.state and
// evicted/<key>/<scenario>.json, rewritten whole every second) imported once into state.db, in the caller's
// transaction. A state.json of another format is refused with a message naming it; one that is not JSON is left
// where it is, renamed *.corrupt, and the rest imported.
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'libsql'
import { declaredStates } from '../contract/world.ts'
import { DerivedMap } from '../store/derived-map.ts'
import { Table } from '../store/table.ts'
import { INDEX_WORLDS } from './writer.ts'

/** The format of state.json this version imports. */
const LEGACY_FORMAT = 1

interface LegacyWorld {
  tenant: string
  scenario: string
  clockOffsetMs: number
  rules: unknown
  seeded: Record<string, unknown> | null
  tables: Record<string, unknown[]>
  maps: Record<string, [string, unknown][]>
}

interface LegacyState {
  format: number
  worlds: LegacyWorld[]
  selections: [string, string][]
  webhooks: unknown
  deliveries?: { id: string; tenant: string }[]
  directory: {
    clientIds: [string, unknown][]
    sessions: [string, unknown][]
    pageTokens: [string, unknown][]
  }
}

/** The key field of each declared Table, by `<state>.<field>` (records were saved whole; keys are read from them). */
function keyFields(): Map<string, string> {
  const fields = new Map<string, string>()
  for (const definition of declaredStates())
    for (const [field, value] of Object.entries(definition.create() as Record<string, unknown>))
      if (value instanceof Table) fields.set(`${definition.name}.${field}`, value.keyField)
  return fields
}

/** The `<state>.<field>` of each derived map (rebuilt on load, not imported). */
function derivedFields(): Set<string> {
  const fields = new Set<string>()
  for (const definition of declaredStates())
    for (const [field, value] of Object.entries(definition.create() as Record<string, unknown>))
      if (value instanceof DerivedMap) fields.add(`${definition.name}.${field}`)
  return fields
}

/** Imports the previous version's files into `db`; returns the files imported (the caller renames them). */
export function importLegacyStateDir(
  dir: string,
  db: Database.Database,
  log: (message: string, error?: unknown) => void,
): string[] {
  const imported: string[] = []
  const keys = keyFields()
  const keyOf = (tbl: string, record: Record<string, unknown>): string =>
    String(record[keys.get(tbl) ?? 'id'] ?? JSON.stringify(record))
  // a world's rows are written whole (a world saved twice, evicted and in state.json, keeps the last copy)
  const insert = db.prepare(
    'INSERT INTO records(world, tbl, key, value) VALUES ((SELECT id FROM worlds WHERE tenant = ? AND scenario = ?), ?, ?, ?)',
  )
  const forget = db.prepare(
    'DELETE FROM records WHERE seq IN (SELECT seq FROM record_worlds WHERE world = (SELECT id FROM worlds WHERE tenant = ? AND scenario = ?))',
  )
  const world = db.prepare(
    'INSERT INTO worlds(tenant, scenario, value) VALUES (?, ?, ?) ON CONFLICT(tenant, scenario) DO UPDATE SET value = excluded.value',
  )
  const derived = derivedFields()
  const shared = db.prepare(
    'INSERT INTO shared(kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value',
  )
  const writeWorld = (saved: LegacyWorld) => {
    const { tenant, scenario } = saved
    world.run(
      tenant,
      scenario,
      JSON.stringify({ clockOffsetMs: saved.clockOffsetMs, rules: saved.rules, seeded: saved.seeded }),
    )
    // record_worlds is not kept by a trigger (writer.ts, INDEX_WORLDS): brought up to date before it is read
    db.exec(INDEX_WORLDS)
    forget.run(tenant, scenario)
    for (const [tbl, records] of Object.entries(saved.tables ?? {}))
      for (const record of records)
        insert.run(
          tenant,
          scenario,
          tbl,
          keyOf(tbl, record as Record<string, unknown>),
          JSON.stringify(record),
        )
    for (const [tbl, entries] of Object.entries(saved.maps ?? {}))
      if (!derived.has(tbl))
        for (const [key, value] of entries) insert.run(tenant, scenario, tbl, key, JSON.stringify(value))
  }

  const statePath = join(dir, 'state.json')
  if (existsSync(statePath)) {
    const text = readFileSync(statePath, 'utf8')
    let state: LegacyState | null = null
    try {
      state = JSON.parse(text) as LegacyState
      if (!state || typeof state !== 'object') throw new Error('not an object')
    } catch (error) {
      const aside = `${statePath}.corrupt`
      renameSync(statePath, aside)
      log(
        `--state-dir: ${statePath} is not JSON (${(error as Error).message}); it is kept as ${aside} and not imported (the keys it held start empty)`,
      )
      state = null
    }
    if (state) {
      if (state.format !== LEGACY_FORMAT)
        throw new Error(
          `--state-dir ${dir} holds state format ${String(state.format)}; this version of request-sandbox reads format ${LEGACY_FORMAT}: start with an empty --state-dir, or move this one away`,
        )
      for (const saved of state.worlds ?? []) writeWorld(saved)
      shared.run('globals', 'selections', JSON.stringify(state.selections ?? []))
      if (state.webhooks) shared.run('globals', 'webhooks', JSON.stringify(state.webhooks))
      for (const record of state.deliveries ?? [])
        shared.run('delivery', `${record.tenant}\u0000${record.id}`, JSON.stringify(record))
      const directory = state.directory ?? { clientIds: [], sessions: [], pageTokens: [] }
      for (const [kind, entries] of [
        ['directory.clientIds', directory.clientIds],
        ['directory.sessions', directory.sessions],
        ['directory.pageTokens', directory.pageTokens],
      ] as const)
        for (const [key, value] of entries ?? []) shared.run(kind, key, JSON.stringify(value))
      imported.push(statePath)
    }
  }

  const journalPath = join(dir, 'journal.json')
  if (existsSync(journalPath)) {
    const insert = db.prepare('INSERT INTO journal(tenant, entry) VALUES (?, ?)')
    try {
      const saved = JSON.parse(readFileSync(journalPath, 'utf8')) as [string, unknown[]][]
      for (const [tenant, entries] of saved)
        for (const entry of entries) insert.run(tenant, JSON.stringify(entry))
    } catch (error) {
      log(`--state-dir: ${journalPath} could not be read; the journals start empty`, error)
    }
    imported.push(journalPath)
  }

  for (const name of readdirSync(dir)) {
    const match = /^chain-(.+)\.state$/.exec(name)
    if (!match) continue
    const path = join(dir, name)
    db.prepare(
      'INSERT INTO chains(network, state, saved_at) VALUES (?, ?, ?) ON CONFLICT(network) DO UPDATE SET state = excluded.state',
    ).run(match[1]!, readFileSync(path, 'utf8'), new Date().toISOString())
    imported.push(path)
  }

  const evicted = join(dir, 'evicted')
  if (existsSync(evicted)) {
    for (const key of readdirSync(evicted)) {
      for (const file of readdirSync(join(evicted, key))) {
        const path = join(evicted, key, file)
        try {
          writeWorld(JSON.parse(readFileSync(path, 'utf8')) as LegacyWorld)
        } catch (error) {
          log(`--state-dir: ${path} (an evicted world) could not be read; that world starts empty`, error)
        }
      }
    }
    imported.push(evicted)
  }
  db.exec(INDEX_WORLDS)
  return imported
}
