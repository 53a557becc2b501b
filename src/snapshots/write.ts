// How a snapshot file reaches the disk (src/snapshots/store.ts): written whole to a temporary file, synced,
// its length checked, then renamed over the name; a write that fails or comes out short leaves the name as it was
// and removes the temporary file. The file operations are injectable: tests make a write fail (ENOSPC) or come out
// short without filling a disk.
import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statfsSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { SandboxError } from '../contract/sandbox-error.ts'
import { temporaryPath } from '../contract/temporary-files.ts'

/** The file operations a snapshot's write uses (node:fs's by default). */
export interface SnapshotIo {
  open(path: string, flags: string): number
  /** writes up to `length` bytes of `buffer` from `offset`; answers how many it wrote (it may be fewer) */
  write(fd: number, buffer: Buffer, offset: number, length: number): number
  fsync(fd: number): void
  /** the size of the open file */
  size(fd: number): number
  close(fd: number): void
  rename(from: string, to: string): void
  unlink(path: string): void
  /** the bytes the volume holding `dir` has free for this process */
  free(dir: string): number
  /** a whole file's text (a snapshot read back) */
  read(path: string): string
}

export const nodeSnapshotIo: SnapshotIo = {
  open: (path, flags) => openSync(path, flags),
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  fsync: (fd) => fsyncSync(fd),
  size: (fd) => fstatSync(fd).size,
  close: (fd) => closeSync(fd),
  rename: (from, to) => renameSync(from, to),
  unlink: (path) => unlinkSync(path),
  free: (dir) => {
    const stats = statfsSync(dir)
    return Number(stats.bavail) * Number(stats.bsize)
  },
  read: (path) => readFileSync(path, 'utf8'),
}

/** Codes of a write that found no room: the volume is full, or the process's quota or file size limit reached. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG'])

/**
 * A snapshot that could not be written: 507 when the volume had no room (what to do: delete snapshots, free space),
 * 503 for any other failure. The key's state and its other snapshots are untouched.
 */
export class SnapshotWriteError extends SandboxError {
  override name = 'SnapshotWriteError'
  constructor(name: string, code: string) {
    super(
      NO_ROOM.has(code) ? 507 : 503,
      NO_ROOM.has(code)
        ? `Snapshot ${name} could not be saved: the state dir's volume is full (${code}). Nothing was saved; the key's state and its other snapshots are untouched. Delete snapshots (DELETE /__sandbox/snapshots/{name}) or free space on the volume`
        : `Snapshot ${name} could not be saved: writing its file failed (${code}). Nothing was saved; the key's state and its other snapshots are untouched`,
    )
  }
}

/**
 * Writes `data` so that `path` holds all of it or what it held before: a temporary file beside it, written until
 * every byte is in (a write may take fewer than it is given), synced, its length checked, renamed over `path`, the
 * folder synced. Throws SnapshotWriteError (`name` is the snapshot's) and leaves no temporary file behind.
 */
export function writeSnapshotFile(path: string, data: Buffer, name: string, io: SnapshotIo): void {
  const tmp = temporaryPath(path)
  let fd: number | undefined
  try {
    fd = io.open(tmp, 'w')
    let written = 0
    while (written < data.length) {
      const n = io.write(fd, data, written, data.length - written)
      if (!(n > 0)) throw Object.assign(new Error('a write took no bytes'), { code: 'ENOSPC' })
      written += n
    }
    io.fsync(fd)
    const size = io.size(fd)
    if (size !== data.length)
      throw Object.assign(new Error(`the file holds ${size} of ${data.length} bytes`), { code: 'ENOSPC' })
    io.close(fd)
    fd = undefined
    io.rename(tmp, path)
  } catch (error) {
    if (fd !== undefined) {
      try {
        io.close(fd)
      } catch {
        // already closed
      }
    }
    try {
      io.unlink(tmp)
    } catch {
      // never created, or renamed already
    }
    throw new SnapshotWriteError(name, String((error as NodeJS.ErrnoException).code ?? 'EIO'))
  }
  syncFolder(dirname(path))
}

/** Syncs a folder, so that a rename in it survives a crash (where the platform allows it). */
function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    // a platform that cannot sync a folder: the rename is as durable as it makes it
  }
}
