// Where a sandbox keeps named snapshots (src/control/snapshots.ts): one file per snapshot under
// <state-dir>/snapshots/<sha256(key)>/<name>.json, or memory without a state dir.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { WorldRulesSchema } from '../contract/rules.ts'
import { BadRequestError, SandboxError } from '../contract/sandbox-error.ts'

/** The format of a snapshot file this version writes and reads. */
export const SNAPSHOT_FORMAT = 1

/** A snapshot as it is kept. */
export interface SnapshotFile {
  format: number
  name: string
  tenant: string
  savedAt: string
  /** the key's scenario when it was taken (restored as its choice) */
  scenario: string
  /** the key's worlds as state-dir.ts serialises them (`SavedWorld`) */
  worlds: unknown[]
  /** the block each live chain was at: what the key's payments up to then depend on */
  chains: { network: string; blockNumber: number }[]
}

/** Snapshots one key may keep (each holds every world of the key): past it, save answers 400 until one is deleted. */
export const MAX_SNAPSHOTS_PER_KEY = 50

const NAME = /^[\w.-]{1,64}$/

/** The shape a snapshot file must have to be read back (`SavedWorld` of world-snapshot.ts for each world). */
const SnapshotFileShape = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  name: z.string(),
  tenant: z.string(),
  savedAt: z.string(),
  scenario: z.string(),
  worlds: z.array(
    z.object({
      tenant: z.string(),
      scenario: z.string(),
      clockOffsetMs: z.number().finite(),
      rules: WorldRulesSchema,
      seeded: z.record(z.string(), z.unknown()).nullable(),
      tables: z.record(z.string(), z.array(z.unknown())),
      maps: z.record(z.string(), z.array(z.tuple([z.string(), z.unknown()]))),
    }),
  ),
  chains: z.array(z.object({ network: z.string(), blockNumber: z.number() })),
})

/**
 * 409: a snapshot whose file cannot be read back (cut short, edited, written by another version): the answer names
 * it and says how to be rid of it; the key's state and its other snapshots are untouched.
 */
export class DamagedSnapshotError extends SandboxError {
  override name = 'DamagedSnapshotError'
  constructor(name: string, problem: string) {
    super(
      409,
      `Snapshot ${name} is damaged and cannot be restored (${problem}); delete it (DELETE /__sandbox/snapshots/${name}, or request-sandbox snapshot rm ${name}) and save it again`,
    )
  }
}

/** What is wrong with a snapshot's text, or the file it holds. */
function readSnapshot(text: string): { file: SnapshotFile } | { problem: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { problem: `its file is not valid JSON: ${(error as Error).message.slice(0, 200)}` }
  }
  const format = (value as { format?: unknown } | null)?.format
  if (typeof value === 'object' && value !== null && typeof format === 'number' && format !== SNAPSHOT_FORMAT)
    return { problem: `its file has format ${format}; this version reads ${SNAPSHOT_FORMAT}` }
  const parsed = SnapshotFileShape.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return { problem: `its file holds ${issue.path.join('.') || 'no snapshot'}: ${issue.message}` }
  }
  return { file: parsed.data as SnapshotFile }
}

/** What is wrong with a snapshot's file (one that cannot be read at all too: a folder, no permission), or what it holds. */
function readSnapshotFile(path: string): { file: SnapshotFile } | { problem: string } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { problem: `its file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` }
  }
  return readSnapshot(text)
}

/** A snapshot the list could not read (GET /__sandbox/snapshots answers it beside the others). */
export interface DamagedSnapshot {
  name: string
  problem: string
}

export function checkSnapshotName(name: string): void {
  if (!NAME.test(name) || name === '.' || name === '..')
    throw new BadRequestError('A snapshot name is 1 to 64 letters, digits, _ . or -')
}

/** Where a sandbox keeps snapshots: files under a folder (--state-dir), or memory. */
export class SnapshotStore {
  readonly #dir: string | null
  readonly #write: (path: string, text: string) => void
  /** without a state dir: each snapshot's text, as a file would hold it (nothing shared with the live records) */
  readonly #memory = new Map<string, Map<string, string>>()

  /** `write` writes a whole file so that a kill never leaves half of it (state-dir.ts's writeAtomically). */
  constructor(dir: string | null, write: (path: string, text: string) => void) {
    this.#dir = dir
    this.#write = write
  }

  #keyDir(tenant: string): string {
    return join(this.#dir!, createHash('sha256').update(tenant).digest('hex').slice(0, 32))
  }

  put(file: SnapshotFile): void {
    if (this.#dir) {
      const dir = this.#keyDir(file.tenant)
      mkdirSync(dir, { recursive: true })
      this.#write(join(dir, `${file.name}.json`), JSON.stringify(file))
      return
    }
    let mine = this.#memory.get(file.tenant)
    if (!mine) {
      mine = new Map()
      this.#memory.set(file.tenant, mine)
    }
    mine.set(file.name, JSON.stringify(file))
  }

  get(tenant: string, name: string): SnapshotFile | undefined {
    checkSnapshotName(name)
    if (!this.#dir) {
      const text = this.#memory.get(tenant)?.get(name)
      return text === undefined ? undefined : (JSON.parse(text) as SnapshotFile)
    }
    const path = join(this.#keyDir(tenant), `${name}.json`)
    if (!existsSync(path)) return undefined
    const read = readSnapshotFile(path)
    if ('problem' in read) throw new DamagedSnapshotError(name, read.problem)
    return read.file.tenant === tenant ? read.file : undefined
  }

  /** The names of a key's snapshots (files not read). */
  names(tenant: string): string[] {
    if (!this.#dir) return [...(this.#memory.get(tenant)?.keys() ?? [])]
    const dir = this.#keyDir(tenant)
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
  }

  /** A key's snapshots, and those whose file cannot be read back (named with the problem). */
  list(tenant: string): { snapshots: SnapshotFile[]; damaged: DamagedSnapshot[] } {
    if (!this.#dir)
      return {
        snapshots: [...(this.#memory.get(tenant)?.values() ?? [])].map(
          (text) => JSON.parse(text) as SnapshotFile,
        ),
        damaged: [],
      }
    const snapshots: SnapshotFile[] = []
    const damaged: DamagedSnapshot[] = []
    for (const name of this.names(tenant)) {
      const path = join(this.#keyDir(tenant), `${name}.json`)
      const read = readSnapshotFile(path)
      // deleted since the folder was read (a DELETE meanwhile): not a snapshot any more
      if ('problem' in read && !existsSync(path)) continue
      if ('problem' in read) damaged.push({ name, problem: read.problem })
      else if (read.file.tenant === tenant) snapshots.push(read.file)
    }
    return { snapshots, damaged }
  }

  delete(tenant: string, name: string): boolean {
    checkSnapshotName(name)
    if (!this.#dir) return this.#memory.get(tenant)?.delete(name) ?? false
    const path = join(this.#keyDir(tenant), `${name}.json`)
    if (!existsSync(path)) return false
    // a damaged one may be a folder in the file's place: it goes too (the path is the key's folder and a checked name)
    rmSync(path, { recursive: true, force: true })
    return true
  }
}
