// The temporary file of an atomic write (`claims.json`, `sandbox-keys.json`, a snapshot and its folder's index): the
// whole text goes to `<name>.<pid>.tmp` beside the file, is synced, then takes the file's name. A process killed
// between the two leaves the temporary file; the next start removes those of its files (`removeLeftoverTemporaries`),
// and only those: any other file stays.
import { readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** The temporary file a write of `path` by this process goes to before it takes `path`'s name. */
export function temporaryPath(path: string): string {
  return `${path}.${process.pid}.tmp`
}

/**
 * Removes from `dir` the temporary files (`<name>.<pid>.tmp`) that writes of the files `ours(name)` accepts left:
 * this process's (its writes are synchronous: none is under way) and those of processes no longer running (another
 * running process may be writing its own). Answers the names removed; a folder that cannot be read removes none.
 */
export function removeLeftoverTemporaries(dir: string, ours: (name: string) => boolean): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const match = /^(.+)\.([1-9][0-9]{0,9})\.tmp$/.exec(name)
    if (!match || !ours(match[1]!)) continue
    const pid = Number(match[2])
    if (pid !== process.pid && running(pid)) continue
    try {
      rmSync(join(dir, name), { force: true })
      removed.push(name)
    } catch {
      // a folder in its place, or the volume refused: left for the next start
    }
  }
  return removed
}

/** Removes the temporary files writes of `path` left (`removeLeftoverTemporaries`). */
export function removeLeftoverTemporariesOf(path: string): string[] {
  const name = basename(path)
  return removeLeftoverTemporaries(dirname(path), (target) => target === name)
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: a process of another user
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
