// Opening --state-dir's state.db: a file cut short, not a database or damaged is rebuilt (salvage) or moved aside
// (`state.db.corrupt-<time>`, the sandbox then starts empty); any other failure stops the start, the file untouched.
import { existsSync, renameSync } from 'node:fs'
import type Database from 'libsql'
import type { SandboxState } from '../control/services.ts'
import { damageOf } from './damage-check.ts'
import { isDamage } from './damage-error.ts'
import { errorText } from './revival.ts'
import { CutShortError, corruptName, cutShort, keyLabel, markDamaged, type StateDamage } from './salvage.ts'
import { releaseReadableKeys } from './salvage-broken.ts'
import { openStateDb } from './schema.ts'

/**
 * Opens state.db. One whose pages are damaged is rebuilt from what can be read (`salvage`); one that is not a
 * database, or whose schema cannot be read, is moved aside (kept) and a new one started.
 */
export function openStateFile(
  path: string,
  damage: StateDamage,
  log: SandboxState['log'],
): Database.Database {
  try {
    // opening reads the header and the schema (a file that is not a database fails here); what a start reads whole
    // is read once more (`damageOf`), not every page (seconds at 100,000 requests): a key's damaged records fail
    // the read of its world, which marks the file for a rebuild at the next start
    const short = cutShort(path)
    if (short) throw new CutShortError(short)
    const db = openStateDb(path)
    db.prepare("SELECT value FROM meta WHERE key = 'format'").get()
    const found = damageOf(db)
    if (found === undefined) {
      const released = releaseReadableKeys(db)
      if (released.length)
        log(
          `--state-dir: ${path}: keys stopped for a damaged page whose rows all read back answer again: ${released.map(keyLabel).join(', ')}`,
        )
      return db
    }
    db.close()
    throw found
  } catch (error) {
    if (!existsSync(path)) throw error
    // only a file that is not a database (or is damaged) goes aside: any other failure (a rewrite of an earlier
    // format that failed, rolled back whole; the file locked or unwritable) stops the start, the file untouched
    const code = (error as { code?: unknown }).code
    if (!(error instanceof CutShortError) && code !== 'SQLITE_NOTADB' && !isDamage(error))
      throw new Error(
        `--state-dir: ${path} could not be opened (${errorText(error)}); it is left as it is: fix the cause and start again`,
        { cause: error },
      )
    if (!(error instanceof CutShortError) && code !== 'SQLITE_NOTADB' && damage.salvage(error))
      return openStateDb(path)
    const aside = corruptName(path)
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix)
    log(
      `--state-dir: ${path} could not be read (${(error as Error).message}); it is kept as ${aside} and the sandbox starts with an empty state. Restore a copy of the file to get it back.`,
    )
    return openStateDb(path)
  }
}

/**
 * `read()`, or `fallback` when the file's pages it needs are damaged (a file cut short or overwritten that still
 * opened): logged naming the file, a copy kept as found, the file marked for a rebuild at the next start.
 */
export function readOrLeaveOut<T>(
  damage: StateDamage,
  db: Database.Database,
  path: string,
  log: SandboxState['log'],
  what: string,
  read: () => T,
  fallback: T,
): T {
  try {
    return read()
  } catch (error) {
    const copy = damage.keepCopy()
    if (isDamage(error)) markDamaged(db, `${what}: ${errorText(error)}`, copy)
    log(
      `--state-dir: ${path}: ${what} could not be read (${errorText(error)}); left out. The next start rebuilds the file from what can be read; to get it back, restore a copy of the file and restart the sandbox.`,
    )
    return fallback
  }
}
