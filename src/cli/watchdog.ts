// The parent watchdog of the command: under `npm start` (npm → sh → the sandbox) a supervisor's SIGTERM stops npm
// without passing it on, and its shell goes with it. The sandbox, left to init, notices that its parent changed and
// stops (anvil and helpers with it). Only a parent seen to change counts: a /proc file that cannot be read (no file
// descriptor left, EMFILE) says nothing about the parent, and the sandbox keeps running.
import { readFileSync } from 'node:fs'

/** What the command watches: its parent at start, and npm (its parent's parent) under `npm start`. */
export interface WatchedParents {
  /** the parent's pid at start */
  parent: number
  /** npm's pid under `npm start` (null: not watched) */
  npm: number | null
}

/** What the watchdog sees now: its parent's pid, and the parent of `pid` (null: it cannot be read now). */
export interface ParentProbe {
  ppid(): number
  parentOf(pid: number): number | null
}

/** True when the parent (or npm, under `npm start`) is seen gone; a read that fails is no sign of it. */
export function parentGone(watched: WatchedParents, probe: ParentProbe): boolean {
  if (probe.ppid() !== watched.parent) return true
  if (watched.npm === null) return false
  const npm = probe.parentOf(watched.parent)
  return npm !== null && npm !== watched.npm
}

/** The parent of process `pid` (Linux /proc), or null where it cannot be read (gone, no /proc, no descriptor left). */
export function parentOf(pid: number, read: (path: string) => string = readStat): number | null {
  try {
    const stat = read(`/proc/${pid}/stat`)
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    return Number.isInteger(ppid) ? ppid : null
  } catch {
    return null
  }
}

function readStat(path: string): string {
  return readFileSync(path, 'utf8')
}

/** The probe of this process. */
export const processProbe: ParentProbe = { ppid: () => process.ppid, parentOf: (pid) => parentOf(pid) }

/**
 * Calls `gone` once when the parent is seen gone, checking every `everyMs`; the timer does not keep the process
 * alive. A parent of 1 at start (init, a container's first process) is not watched.
 */
export function watchParent(
  watched: WatchedParents,
  gone: (watched: WatchedParents) => void,
  probe: ParentProbe = processProbe,
  everyMs = 250,
): () => void {
  if (watched.parent <= 1) return () => {}
  const timer = setInterval(() => {
    if (!parentGone(watched, probe)) return
    clearInterval(timer)
    gone(watched)
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
