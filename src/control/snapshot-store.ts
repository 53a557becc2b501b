// Where a sandbox keeps named snapshots (src/control/snapshots.ts): one file per snapshot under
// <state-dir>/snapshots/<sha256(key)>/<name>.json, or memory without a state dir.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { BadRequestError } from '../contract/sandbox-error.ts'

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

export function checkSnapshotName(name: string): void {
  if (!NAME.test(name) || name === '.' || name === '..')
    throw new BadRequestError('A snapshot name is 1 to 64 letters, digits, _ . or -')
}

/** Where a sandbox keeps snapshots: files under a folder (--state-dir), or memory. */
export class SnapshotStore {
  readonly #dir: string | null
  readonly #write: (path: string, text: string) => void
  readonly #memory = new Map<string, Map<string, SnapshotFile>>()

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
    mine.set(file.name, file)
  }

  get(tenant: string, name: string): SnapshotFile | undefined {
    checkSnapshotName(name)
    if (!this.#dir) return this.#memory.get(tenant)?.get(name)
    const path = join(this.#keyDir(tenant), `${name}.json`)
    if (!existsSync(path)) return undefined
    const file = JSON.parse(readFileSync(path, 'utf8')) as SnapshotFile
    return file.tenant === tenant ? file : undefined
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

  list(tenant: string): SnapshotFile[] {
    if (!this.#dir) return [...(this.#memory.get(tenant)?.values() ?? [])]
    const dir = this.#keyDir(tenant)
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SnapshotFile)
      .filter((f) => f.tenant === tenant)
  }

  delete(tenant: string, name: string): boolean {
    checkSnapshotName(name)
    if (!this.#dir) return this.#memory.get(tenant)?.delete(name) ?? false
    const path = join(this.#keyDir(tenant), `${name}.json`)
    if (!existsSync(path)) return false
    rmSync(path)
    return true
  }
}
