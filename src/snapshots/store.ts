// Where a sandbox keeps named snapshots (src/snapshots/snapshots.ts): one file per snapshot under
// <state-dir>/snapshots/<sha256(key)>/<name>.json, or memory without a state dir. Each key's snapshots are bounded in
// number and bytes, every key's together in bytes, and with a state dir a save never takes the room the volume keeps
// for the state itself: past a bound a save answers 507 naming it (and the flag that raises it). Lists come from an
// index of each key's snapshots (size, time and summary of each file; kept beside them in `.summaries`): a file is
// read again only when its size or time changed. The temporary files saves a kill cut short left are removed at the
// start (`write.ts`).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { type ClaimedKeys, claimedShare, claimedShareNote } from '../contract/claimed-share.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { removeLeftoverTemporaries } from '../contract/temporary-files.ts'
import {
  checkSnapshotName,
  type DamagedSnapshot,
  DamagedSnapshotError,
  readSnapshotFile,
  type SnapshotFile,
  type SnapshotSummary,
  summary,
} from './format.ts'
import { nodeSnapshotIo, type SnapshotIo, SnapshotWriteError, writeSnapshotFile } from './write.ts'

export {
  checkSnapshotName,
  type DamagedSnapshot,
  DamagedSnapshotError,
  SNAPSHOT_FORMAT,
  type SnapshotFile,
  type SnapshotSummary,
  summary,
} from './format.ts'

const MB = 1024 * 1024

/** The bounds of the snapshots a sandbox keeps (the flags of src/cli.ts set them). */
export interface SnapshotLimits {
  /** snapshots one key may keep (--max-snapshots) */
  perKey: number
  /** bytes one key's snapshots may take together (--snapshot-key-mb) */
  keyBytes: number
  /** bytes every key's snapshots may take together, on disk or in memory (--snapshot-total-mb) */
  totalBytes: number
  /** with a state dir: bytes a save leaves free on the volume, for the state itself */
  reserveBytes: number
}

/** The bounds by default: `totalBytes` is 1024 MB with a state dir (disk), 256 MB without (memory). */
export function defaultSnapshotLimits(onDisk: boolean): SnapshotLimits {
  return { perKey: 50, keyBytes: 64 * MB, totalBytes: (onDisk ? 1024 : 256) * MB, reserveBytes: 64 * MB }
}

/** A bound a save would pass: 507 naming it and what raises it. */
export class SnapshotLimitError extends SandboxError {
  override name = 'SnapshotLimitError'
  constructor(message: string) {
    super(507, message)
  }
}

const mb = (bytes: number) =>
  bytes < MB ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`

/** One snapshot as the index knows it: its size, its file's time, and what lists show (null: not listed). */
interface Entry {
  bytes: number
  mtimeMs: number
  summary: SnapshotSummary | null
  /** why its file cannot be read back (listed under `damaged`) */
  problem?: string
  /** without a state dir: the snapshot's text */
  text?: string
}

/** A key's snapshots, and the bytes they take together. */
interface KeyIndex {
  entries: Map<string, Entry>
  bytes: number
}

/** The index file of a key's folder (not a snapshot: snapshot files end in `.json`). */
const INDEX_FILE = '.summaries'

/** Options of a SnapshotStore. */
export interface SnapshotStoreOptions {
  limits?: Partial<SnapshotLimits>
  /** the file operations of a save (tests make one fail) */
  io?: Partial<SnapshotIo>
  /** the keys of claimable sandboxes: their snapshots together take at most half of `totalBytes` */
  claimed?: ClaimedKeys
}

/** Where a sandbox keeps snapshots: files under a folder (--state-dir), or memory. */
export class SnapshotStore {
  readonly #dir: string | null
  readonly #io: SnapshotIo
  readonly limits: SnapshotLimits
  /** each key's index, by key (with a state dir: loaded on the key's first use) */
  readonly #keys = new Map<string, KeyIndex>()
  /** with a state dir: the bytes of the keys not loaded yet, by folder (read from the folder once) */
  #unloaded: Map<string, number> | undefined
  #unloadedBytes = 0
  /** the bytes of every loaded key's snapshots */
  #loadedBytes = 0

  readonly #claimed: ClaimedKeys

  constructor(dir: string | null, options: SnapshotStoreOptions = {}) {
    this.#dir = dir
    this.#claimed = options.claimed ?? (() => false)
    this.#io = { ...nodeSnapshotIo, ...options.io }
    this.limits = { ...defaultSnapshotLimits(dir !== null), ...options.limits }
    if (dir) this.#removeLeftovers(dir)
  }

  /** Removes the temporary files of snapshots and indexes that saves a kill cut short left in each key's folder. */
  #removeLeftovers(dir: string): void {
    let folders: string[] = []
    try {
      folders = readdirSync(dir)
    } catch {
      // no snapshot saved yet
    }
    for (const folder of folders)
      removeLeftoverTemporaries(join(dir, folder), (name) => name.endsWith('.json') || name === INDEX_FILE)
  }

  #folderOf(tenant: string): string {
    return createHash('sha256').update(tenant).digest('hex').slice(0, 32)
  }

  #keyDir(tenant: string): string {
    return join(this.#dir!, this.#folderOf(tenant))
  }

  /** The key's index, brought up to date with its folder (a stat of each file; changed files read again). */
  #index(tenant: string): KeyIndex {
    let key = this.#keys.get(tenant)
    if (!this.#dir) {
      if (!key) {
        key = { entries: new Map(), bytes: 0 }
        this.#keys.set(tenant, key)
      }
      return key
    }
    if (!key) {
      this.#scan()
      const folder = this.#folderOf(tenant)
      this.#unloadedBytes -= this.#unloaded!.get(folder) ?? 0
      this.#unloaded!.delete(folder)
      key = { entries: this.#readIndex(tenant), bytes: 0 }
      for (const entry of key.entries.values()) key.bytes += entry.bytes
      this.#loadedBytes += key.bytes
      this.#keys.set(tenant, key)
    }
    this.#refresh(tenant, key)
    return key
  }

  /** The bytes of every key's snapshots (with a state dir, the folders of keys not used yet are read once). */
  #total(): number {
    if (this.#dir) this.#scan()
    return this.#unloadedBytes + this.#loadedBytes
  }

  /** Reads the size of every snapshot file under the folder, by key folder (once). */
  #scan(): void {
    if (this.#unloaded) return
    this.#unloaded = new Map()
    let folders: string[] = []
    try {
      folders = readdirSync(this.#dir!)
    } catch {
      // no snapshot saved yet
    }
    for (const folder of folders) {
      let bytes = 0
      try {
        for (const file of readdirSync(join(this.#dir!, folder)))
          if (file.endsWith('.json')) bytes += statSync(join(this.#dir!, folder, file)).size
      } catch {
        // not a folder, or gone meanwhile
      }
      this.#unloaded.set(folder, bytes)
      this.#unloadedBytes += bytes
    }
  }

  /** The index a key's folder keeps (empty when it has none or it cannot be read: every file is read then). */
  #readIndex(tenant: string): Map<string, Entry> {
    try {
      const saved = JSON.parse(readFileSync(join(this.#keyDir(tenant), INDEX_FILE), 'utf8')) as [
        string,
        Entry,
      ][]
      return new Map(
        saved.filter(
          ([name, e]) =>
            typeof name === 'string' && typeof e?.bytes === 'number' && typeof e.mtimeMs === 'number',
        ),
      )
    } catch {
      return new Map()
    }
  }

  /** Writes a key's index beside its snapshots (best effort: a missing or stale one only costs a read of each file). */
  #writeIndex(tenant: string, key: KeyIndex): void {
    try {
      const dir = this.#keyDir(tenant)
      if (!existsSync(dir)) return
      writeSnapshotFile(
        join(dir, INDEX_FILE),
        Buffer.from(JSON.stringify([...key.entries])),
        INDEX_FILE,
        this.#io,
      )
    } catch {
      // the index follows from the files: read again next time
    }
  }

  /** Brings a key's index up to date with its folder: files new or changed (size, time) are read and checked. */
  #refresh(tenant: string, key: KeyIndex): void {
    const dir = this.#keyDir(tenant)
    let files: string[] = []
    try {
      files = readdirSync(dir)
    } catch {
      // no snapshot saved yet
    }
    const seen = new Set<string>()
    let changed = false
    for (const file of files) {
      // a snapshot's file only (a save's temporary file is not one: the start removed those a kill left)
      if (!file.endsWith('.json')) continue
      const name = file.slice(0, -'.json'.length)
      const path = join(dir, file)
      let stat: ReturnType<typeof statSync>
      try {
        stat = statSync(path)
      } catch {
        // deleted since the folder was read
        continue
      }
      seen.add(name)
      const known = key.entries.get(name)
      const bytes = stat.isFile() ? stat.size : 0
      if (known && known.bytes === bytes && known.mtimeMs === stat.mtimeMs) continue
      const read = readSnapshotFile(path, this.#io.read)
      const entry: Entry =
        'problem' in read
          ? { bytes, mtimeMs: stat.mtimeMs, summary: null, problem: read.problem }
          : { bytes, mtimeMs: stat.mtimeMs, summary: read.file.tenant === tenant ? summary(read.file) : null }
      this.#account(key, bytes - (known?.bytes ?? 0))
      key.entries.set(name, entry)
      changed = true
    }
    for (const [name, entry] of key.entries)
      if (!seen.has(name)) {
        key.entries.delete(name)
        this.#account(key, -entry.bytes)
        changed = true
      }
    if (changed) this.#writeIndex(tenant, key)
  }

  #account(key: KeyIndex, delta: number): void {
    key.bytes += delta
    this.#loadedBytes += delta
  }

  /**
   * Throws SnapshotLimitError (507) when saving `bytes` under `name` would pass a bound: the key's count (a new
   * name), the key's bytes, every key's bytes, or the room the volume keeps free. `bytes` 0: the count alone.
   */
  checkRoom(tenant: string, name: string, bytes: number): void {
    const key = this.#index(tenant)
    const replaced = key.entries.get(name)?.bytes
    const { perKey, keyBytes, totalBytes, reserveBytes } = this.limits
    if (replaced === undefined && key.entries.size >= perKey)
      throw new SnapshotLimitError(
        `A key may keep at most ${perKey} snapshots: delete one first (or save under an existing name); the sandbox's operator raises the limit with --max-snapshots`,
      )
    if (bytes === 0) return
    const keyAfter = key.bytes - (replaced ?? 0) + bytes
    if (keyAfter > keyBytes)
      throw new SnapshotLimitError(
        `Snapshot ${name} takes ${mb(bytes)}: this key's snapshots would take ${mb(keyAfter)}, past the ${mb(keyBytes)} a key may keep; delete snapshots first (the sandbox's operator raises the limit with --snapshot-key-mb)`,
      )
    const totalAfter = this.#total() - (replaced ?? 0) + bytes
    if (totalAfter > totalBytes)
      throw new SnapshotLimitError(
        `Snapshot ${name} takes ${mb(bytes)}: every key's snapshots would take ${mb(totalAfter)}, past the ${mb(totalBytes)} the sandbox keeps for snapshots; delete snapshots first (the sandbox's operator raises the limit with --snapshot-total-mb)`,
      )
    if (this.#claimed(tenant)) {
      const share = claimedShare(totalBytes)
      // the claimed keys whose snapshots were used since the start (their index loaded)
      let claimedAfter = bytes - (replaced ?? 0)
      for (const [other, index] of this.#keys) if (this.#claimed(other)) claimedAfter += index.bytes
      if (claimedAfter > share)
        throw new SnapshotLimitError(
          `Snapshot ${name} takes ${mb(bytes)}: ${claimedShareNote(`${mb(share)} of snapshots`, '--snapshot-total-mb')}; delete snapshots first`,
        )
    }
    if (!this.#dir) return
    let free: number
    try {
      free = this.#io.free(this.#dir)
    } catch {
      return
    }
    if (free - bytes < reserveBytes)
      throw new SnapshotLimitError(
        `Snapshot ${name} takes ${mb(bytes)}: the state dir's volume has ${mb(free)} free, and the sandbox keeps ${mb(reserveBytes)} of it for the state itself; delete snapshots or free space on the volume`,
      )
  }

  /**
   * Keeps a snapshot (replacing one of that name) once it fits every bound; with a state dir its file is written
   * whole before this returns (SnapshotWriteError otherwise: nothing kept).
   */
  put(file: SnapshotFile, listed: SnapshotSummary = summary(file)): void {
    const text = JSON.stringify(file)
    const bytes = Buffer.byteLength(text)
    const { tenant, name } = file
    if (this.#dir) {
      try {
        mkdirSync(this.#keyDir(tenant), { recursive: true })
      } catch (error) {
        throw new SnapshotWriteError(name, String((error as NodeJS.ErrnoException).code ?? 'EIO'))
      }
    }
    this.checkRoom(tenant, name, bytes)
    const key = this.#index(tenant)
    const replaced = key.entries.get(name)?.bytes ?? 0
    if (!this.#dir) {
      key.entries.set(name, { bytes, mtimeMs: Date.now(), summary: listed, text })
      this.#account(key, bytes - replaced)
      return
    }
    const path = join(this.#keyDir(tenant), `${name}.json`)
    writeSnapshotFile(path, Buffer.from(text), name, this.#io)
    key.entries.set(name, { bytes, mtimeMs: statSync(path).mtimeMs, summary: listed })
    this.#account(key, bytes - replaced)
    this.#writeIndex(tenant, key)
  }

  get(tenant: string, name: string): SnapshotFile | undefined {
    checkSnapshotName(name)
    if (!this.#dir) {
      const text = this.#keys.get(tenant)?.entries.get(name)?.text
      return text === undefined ? undefined : (JSON.parse(text) as SnapshotFile)
    }
    const path = join(this.#keyDir(tenant), `${name}.json`)
    if (!existsSync(path)) return undefined
    const read = readSnapshotFile(path, this.#io.read)
    if ('problem' in read) throw new DamagedSnapshotError(name, read.problem)
    return read.file.tenant === tenant ? read.file : undefined
  }

  /** What lists show of a key's snapshots (from the index), and those whose file cannot be read back. */
  list(tenant: string): { snapshots: SnapshotSummary[]; damaged: DamagedSnapshot[] } {
    const snapshots: SnapshotSummary[] = []
    const damaged: DamagedSnapshot[] = []
    for (const [name, entry] of this.#index(tenant).entries) {
      if (entry.problem !== undefined) damaged.push({ name, problem: entry.problem })
      else if (entry.summary) snapshots.push(entry.summary)
    }
    return { snapshots, damaged }
  }

  /** The bytes a key's snapshots take, and every key's together. */
  usage(tenant: string): { key: number; total: number } {
    return { key: this.#index(tenant).bytes, total: this.#total() }
  }

  delete(tenant: string, name: string): boolean {
    checkSnapshotName(name)
    const key = this.#index(tenant)
    const entry = key.entries.get(name)
    if (!this.#dir) {
      if (!entry) return false
      key.entries.delete(name)
      this.#account(key, -entry.bytes)
      return true
    }
    const path = join(this.#keyDir(tenant), `${name}.json`)
    if (!existsSync(path)) return false
    // a damaged one may be a folder in the file's place: it goes too (the path is the key's folder and a checked name)
    rmSync(path, { recursive: true, force: true })
    if (entry) {
      key.entries.delete(name)
      this.#account(key, -entry.bytes)
    }
    this.#writeIndex(tenant, key)
    return true
  }
}
