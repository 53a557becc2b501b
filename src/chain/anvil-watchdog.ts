import { spawn } from 'node:child_process'

/** A watchdog started by `watchChild`; `release()` ends it without touching the child (call it on a normal stop). */
export interface ChildWatchdog {
  release(): void
}

// `read` returns when its stdin reaches end of file: the only writer is this process, so that happens exactly
// when this process is gone, however it ended (SIGKILL included). Then the child gets SIGTERM, and SIGKILL if it
// is still there 2 s later. Nothing is polled; the shell costs no start-up time (it is spawned beside the child).
const SCRIPT =
  'read _ignored; kill -TERM "$1" 2>/dev/null || exit 0; ' +
  'i=0; while [ $i -lt 20 ] && kill -0 "$1" 2>/dev/null; do sleep 0.1; i=$((i+1)); done; kill -KILL "$1" 2>/dev/null; exit 0'

/**
 * Makes sure the child process `pid` never outlives this one: a tiny `sh` holding the read end of a pipe whose
 * write end only this process holds. When this process ends (exit, crash, SIGKILL), the pipe closes and the shell
 * stops the child. Returns null where there is no POSIX shell (the child then only dies with a normal exit).
 */
export function watchChild(pid: number): ChildWatchdog | null {
  if (process.platform === 'win32') return null
  const watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'request-sandbox-watchdog', String(pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    // out of the terminal's process group, as the child it watches: Ctrl-C does not end the watch
    detached: true,
  })
  watchdog.on('error', () => {}) // no shell: nothing to watch with, the sandbox still runs
  watchdog.stdin?.on('error', () => {})
  // Neither the shell nor its pipe keeps this process alive.
  watchdog.unref()
  ;(watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  return {
    release() {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL')
    },
  }
}
