// The state dir's folder, made if missing and checked writable before state.db opens: a folder this process may not
// write (a root-owned host folder mounted on a container's /data, the image running as uid 1000) is named with the
// uid and the fix, instead of the database driver's "ConnectionFailed(... 14)".
import { accessSync, constants, mkdirSync } from 'node:fs'

/** Makes `dir` (and its parents) when missing; throws a message naming the uid and the fix when it is not writable. */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK | constants.X_OK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw error
    throw new Error(notWritable(dir, code), { cause: error })
  }
}

function notWritable(dir: string, code: string): string {
  if (code === 'EROFS') return `--state-dir: ${dir} is on a read-only file system: mount it writable`
  const uid = process.getuid?.()
  const who = uid === undefined ? 'this process' : `uid ${uid}`
  const own = uid === undefined ? 'give it to this user' : `chown -R ${uid} ${dir}`
  return (
    `--state-dir: ${dir} is not writable by ${who}: make it writable (${own}), ` +
    `or in a container use a named volume (-v sandbox-data:${dir}) or run as the folder's owner (--user)`
  )
}
