// The first steps of --state-dir's load: the file's format checked (a state dir of the previous version imported),
// the embedded chains' saved states restored, and the shared rows (scenario choices, webhooks, the directory's maps,
// delivery records, broken keys) put back.
import { renameSync } from 'node:fs'
import type Database from 'libsql'
import type { ChainSupervisor } from '../chain/index.ts'
import type { SandboxState } from '../control/services.ts'
import type { DeliveryRecord, WebhookRegistry } from '../webhooks/index.ts'
import { importLegacyStateDir } from './import.ts'
import { errorText } from './revival.ts'
import { DB_FORMAT, maxOf } from './schema.ts'

/** Refuses a state.db of another format; marks a new one (importing a state dir of the previous version). */
export function checkFormat(db: Database.Database, dir: string, log: SandboxState['log']): void {
  const format = db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as
    | { value: string }
    | undefined
  if (format && Number(format.value) !== DB_FORMAT)
    throw new Error(
      `--state-dir ${dir} holds state.db format ${format.value}; this version of request-sandbox reads format ${DB_FORMAT}: start with an empty --state-dir, or move this one away`,
    )
  if (!format) {
    // a state dir of the previous version is imported in one transaction with the format mark; its files are
    // then renamed *.imported (kept, never read again)
    db.exec('BEGIN')
    let imported: string[]
    try {
      imported = importLegacyStateDir(dir, db, log)
      db.prepare("INSERT INTO meta(key, value) VALUES ('format', ?)").run(String(DB_FORMAT))
      db.exec('COMMIT')
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
    for (const file of imported) renameSync(file, `${file}.imported`)
  }
}

/** Each embedded chain's saved anvil state loaded back (its previous copy when the last cannot be). */
export async function restoreChains(
  db: Database.Database,
  embedded: ReadonlySet<string>,
  supervisors: ReadonlyMap<string, ChainSupervisor>,
  path: string,
  log: SandboxState['log'],
  lastChain: Map<string, string>,
): Promise<void> {
  for (const network of embedded) {
    const row = db.prepare('SELECT state, previous FROM chains WHERE network = ?').get(network) as
      | { state: string; previous: string | null }
      | undefined
    if (!row) continue
    try {
      await supervisors.get(network)!.restore(row.state)
    } catch (error) {
      log(
        `--state-dir: the saved state of chain ${network} in ${path} could not be loaded (${errorText(error)}); trying its previous copy`,
      )
      if (row.previous) await supervisors.get(network)!.restore(row.previous)
    }
    lastChain.set(network, row.state)
  }
}

/** The shared rows put back; the delivery records they hold are returned (they come back with their keys' worlds). */
export function restoreSharedRows(
  rows: { kind: string; key: string; value: string }[],
  shared: SandboxState,
  path: string,
  broken: Map<string, string>,
): DeliveryRecord[] {
  const deliveries: DeliveryRecord[] = []
  for (const { kind, key, value } of rows) {
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      shared.log(`--state-dir: ${path}: ${kind} ${key} is not JSON; it is left out`)
      continue
    }
    if (kind === 'globals' && key === 'selections') {
      for (const [tenant, name] of parsed as [string, string][]) {
        try {
          shared.scenarios.select(tenant, name)
        } catch {
          shared.log(
            `--state-dir: scenario ${name} of a key is no longer known; the key runs in the default one`,
          )
        }
      }
    } else if (kind === 'globals' && key === 'webhooks')
      shared.webhooks.registry.restore(parsed as ReturnType<WebhookRegistry['entries']>)
    else if (kind === 'directory.clientIds') shared.directory.clientIdToTenant.set(key, parsed as never)
    else if (kind === 'directory.sessions') shared.directory.sessionToTenant.set(key, parsed as never)
    else if (kind === 'directory.pageTokens') shared.directory.pageTokenToPayer.set(key, parsed as never)
    else if (kind === 'directory.onboardingTokens')
      shared.directory.onboardingTokenToWorld.set(key, parsed as never)
    else if (kind === 'directory.securePaymentTokens')
      shared.directory.securePaymentTokenToWorld.set(key, parsed as never)
    else if (kind === 'delivery') deliveries.push(parsed as DeliveryRecord)
    // a key with a record in quarantine stays stopped across restarts (until it is reset)
    else if (kind === 'broken' && typeof parsed === 'string') broken.set(key, parsed)
  }
  return deliveries
}

/** `read()`, or `fallback` when the pages it needs are damaged (logged naming `what`: StateDir's `#readable`). */
export type Readable = <T>(what: string, read: () => T, fallback: T) => T

/** The shared rows: client IDs, sessions, webhooks, deliveries, the directory's maps, broken keys. */
export function readSharedRows(
  db: Database.Database,
  readable: Readable,
): { kind: string; key: string; value: string }[] {
  return readable(
    'the shared rows (client IDs, sessions, webhooks, deliveries)',
    () =>
      db.prepare('SELECT kind, key, value FROM shared').all() as {
        kind: string
        key: string
        value: string
      }[],
    [],
  )
}

/**
 * The keys that have a saved journal, the most recently used first: by each key's last row (rows are appended in the
 * order of their flushes, every 200 ms, and numbered in that order; an entry's own time is its key's clock, which the
 * key may have moved years ahead).
 */
export function readJournalTenants(db: Database.Database, readable: Readable): { tenant: string }[] {
  return readable('the journal', () => db.prepare(KEYS_BY_USE).all() as { tenant: string }[], [])
}

const KEYS_BY_USE = 'SELECT tenant FROM journal GROUP BY tenant ORDER BY max(seq) DESC'

/** The saved worlds, and the highest world id and record seq given so far (new rows are numbered after them). */
export function readWorldIndex(
  db: Database.Database,
  readable: Readable,
): { worlds: { id: number; tenant: string; scenario: string }[]; lastWorldId: number; lastSeq: number } {
  const worlds = readable(
    'the worlds (every key)',
    () =>
      db.prepare('SELECT id, tenant, scenario FROM worlds ORDER BY id').all() as {
        id: number
        tenant: string
        scenario: string
      }[],
    [],
  )
  let lastWorldId = 0
  for (const { id } of worlds) lastWorldId = Math.max(lastWorldId, id)
  // records whose world row is gone (a reset a damaged page kept from deleting them all) still hold their world's
  // id: a new world must not take it and read them (the index on record_worlds(world) finds the highest at once)
  lastWorldId = Math.max(
    lastWorldId,
    readable('the worlds', () => maxOf(db, 'worlds', 'id'), 0),
    readable('the records’ worlds', () => maxOf(db, 'record_worlds', 'world'), 0),
  )
  const lastSeq = readable('the records', () => maxOf(db, 'records', 'seq'), 0)
  return { worlds, lastWorldId, lastSeq }
}
