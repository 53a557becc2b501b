import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A free TCP port from the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
export function treeRss(pid: number): number {
  let total = 0
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
  for (const child of childrenOf(pid)) total += treeRss(child)
  return total
}

function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()
    if (text) out.push(...text.split(/\s+/).map(Number))
  }
  return out
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Polls `url` until it answers 200; returns the time it took. */
export async function waitFor200(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const res = await fetch(url)
      if (res.status === 200) return
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 in ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** Starts a child process and stops it (by pid) on `stop()`. */
export function startChild(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  /** where the child's standard output goes: a pipe (default) or an open file descriptor */
  stdout: 'pipe' | number = 'pipe',
): { child: ChildProcess; stop(): Promise<void> } {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  })
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        process.kill(child.pid!, 'SIGTERM')
      }),
  }
}

/**
 * The Node options `npm start` gives the sandbox in the tree of `bin` (its package.json's `scripts.start`, `node
 * <options> bin/request-sandbox.mjs`; the Dockerfile's ENTRYPOINT has the same, test/package/start-command.test.ts
 * holds them together). A tree whose start command has none (an older checkout) gives none.
 */
export function startOptionsOf(bin: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dirname(bin), '..', 'package.json'), 'utf8')) as {
    scripts?: { start?: string }
  }
  const words = (pkg.scripts?.start ?? '').trim().split(/\s+/)
  const at = words.indexOf('bin/request-sandbox.mjs')
  return words[0] === 'node' && at > 0 ? words.slice(1, at) : []
}

/**
 * Starts the sandbox command as a user does (`npm start`, or the image's entrypoint): its Node options, the terminal
 * log on (the default), its output written to a file as `docker run` or `> sandbox.log` would. Returns the child and
 * the log file's path.
 */
export function startDefaultSandbox(
  bin: string,
  args: string[],
): { child: ChildProcess; logFile: string; stop(): Promise<{ logLines: number }> } {
  const logFile = join(mkdtempSync(join(tmpdir(), 'sandbox-bench-')), 'sandbox.log')
  const fd = openSync(logFile, 'w')
  const started = startChild('node', [...startOptionsOf(bin), bin, ...args], {}, fd)
  closeSync(fd)
  return {
    ...started,
    logFile,
    /** stops the sandbox and counts the lines its log holds once it has exited */
    stop: async () => {
      await started.stop()
      const logLines = lineCount(logFile)
      rmSync(dirname(logFile), { recursive: true, force: true })
      return { logLines }
    },
  }
}

/**
 * The URL of a sandbox started with `--port 0`, from the port its banner prints ("listening on http://host:port"),
 * read from its log file. A port chosen beforehand (`freePort`) can be taken meanwhile, by the anvil the command
 * spawns with port 0 or by a connection's own end, and the start then fails on a port in use.
 */
export async function listeningUrl(logFile: string, child: ChildProcess, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = readFileSync(logFile, 'utf8')
    // the port followed by what ends the URL (a space, a quote in JSON, the end of the line): never a port cut short
    const found = /listening on https?:\/\/[^\s"]*:(\d+)[\s"/]/.exec(text)
    if (found) return `http://127.0.0.1:${found[1]}`
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the sandbox exited (${child.exitCode ?? child.signalCode}) before listening: ${text.slice(-500)}`,
      )
    if (Date.now() > deadline)
      throw new Error(`the sandbox did not listen within ${timeoutMs} ms: ${text.slice(-500)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The number of lines a file holds (0 when it is gone). */
export function lineCount(path: string): number {
  try {
    const text = readFileSync(path, 'utf8')
    let n = 0
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++
    return n
  } catch {
    return 0
  }
}
